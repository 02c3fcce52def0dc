package wind

import "fmt"

// Purposes of the dice the rules roll.
const (
	// DieWeather: the weather of the turn (rule 3.3).
	DieWeather DiePurpose = "weather"
	// DieAirpower: one side's airpower factors (rule 3.4).
	DieAirpower DiePurpose = "airpower"
	// DieRanged: a to-hit die of ranged combat (rule 8.1). A 105mm
	// battery's 1s and 2s on it are also its soft-ground check (8.1.5):
	// no die of its own.
	DieRanged DiePurpose = "ranged"
	// DieAirStrike: a to-hit die of an air attack (rule 8.1.6); friendly
	// fire on a modified 2 or less reads the same die.
	DieAirStrike DiePurpose = "air-strike"
	// DieMeleeAttack: an attacker's die in a melee round, offensive fire
	// (rule 8.2).
	DieMeleeAttack DiePurpose = "melee-attack"
	// DieMeleeDefence: a defender's die in a melee round, defensive fire
	// (rule 8.2).
	DieMeleeDefence DiePurpose = "melee-defence"
	// DieUnknownTable: the roll on an Unknown unit's table (rule 2.5).
	DieUnknownTable DiePurpose = "unknown-table"
	// DiePoolDraw: one digit of the draw of an infantry platoon from the
	// pool (rule 2.5).
	DiePoolDraw DiePurpose = "pool-draw"
	// DieKomandorskiEffect and DieKomandorskiDelay draw the chits of rule
	// 12.1.1 and 12.1.2.
	DieKomandorskiEffect DiePurpose = "komandorski-effect"
	DieKomandorskiDelay  DiePurpose = "komandorski-delay"
	// DieLossRecovery is each of the two loss-recovery dice of a refit
	// turn (rule 9.1) and DieScatter a unit's landing on the scatter chart
	// (9.2.2), both rolled by the U.S. in the open; DieSetupDraw is one
	// digit of a draw of the Japanese setup (which Unknown unit goes to
	// which hex of 12.3, which Unknown units a short scenario gives,
	// 15.1), rolled for the Japanese out of the U.S. player's sight.
	DieLossRecovery DiePurpose = "loss-recovery"
	DieScatter      DiePurpose = "scatter"
	DieSetupDraw    DiePurpose = "setup-draw"
	// DieVPDraw is one digit of the draw of a victory point chit (rule
	// 14.0), the Japanese player's, out of the U.S. player's sight.
	DieVPDraw DiePurpose = "vp-draw"
)

// HitNeed returns the lowest natural face that hits with modifier drm
// (rule 8.0): 7 minus the modifier, never above 10 because a natural 10
// always hits, never below 1.
func HitNeed(drm int) int {
	return min(max(HitNumber-drm, 1), 10)
}

// Rolled is a die with its value, as a forced dice source records it.
type Rolled struct {
	Die
	Value int `json:"value"`
}

// ForcedDice hands out fixed values in order. When it runs out it returns 10
// and sets Err, so a caller can tell the position needed more dice than were
// forced.
type ForcedDice struct {
	Values []int
	Log    []Rolled
	Err    error
}

// Roll returns the next forced value.
func (f *ForcedDice) Roll(d Die) int {
	n := len(f.Log)
	v := 10
	if n < len(f.Values) {
		v = f.Values[n]
	} else if f.Err == nil {
		f.Err = fmt.Errorf("ran out of forced dice at die %d (%s)", n+1, d.Purpose)
	}
	f.Log = append(f.Log, Rolled{Die: d, Value: v})
	return v
}

// Unused returns how many forced values were never rolled.
func (f *ForcedDice) Unused() int { return max(0, len(f.Values)-len(f.Log)) }
