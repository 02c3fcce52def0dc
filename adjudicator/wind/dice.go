package wind

import "fmt"

// Die describes one roll the rules ask for: why it is rolled, who rolls
// it, for which unit or hex, for a to-hit roll what it needs, and who may
// see it. The dice source logs it with the value. Every field is typed, so
// that a dice log can be sorted and shown without reading words.
type Die struct {
	Purpose DiePurpose `json:"purpose"`
	// Side is the side that rolls it at the table; NoSide for a die
	// neither player owns (the weather).
	Side Side   `json:"side,omitempty"`
	Unit string `json:"unit,omitempty"`
	Hex  Hex    `json:"hex,omitempty"`
	// Need is the lowest natural face that scores a hit, for the to-hit
	// rolls of ranged, air and melee combat (HitNeed); 0 for every other
	// die. It lets a dice log say how lucky a roll was without knowing the
	// situation it was rolled in.
	Need int `json:"need,omitempty"`
	// Seen is who may see this die while the game runs, besides the
	// umpire, as at the table: the Japanese roll the Komandorski chits,
	// Unknown tables and pool draws out of the U.S. player's sight (2.5,
	// 12.1); every other die is rolled in the open (AudienceBoth). The zero
	// value is the umpire alone, so a die that does not say stays secret.
	Seen Audience `json:"seen"`
}

// DiePurpose is why a die is rolled: the table or check of the rules that
// reads it. Its values are the names the dice log records.
type DiePurpose string

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

// Audience is who may see something while the game runs, besides the
// umpire, who sees everything. Its zero value is the umpire alone, so that
// a die rolled without saying who sees it is kept secret: visibility fails
// closed.
type Audience uint8

// Audiences.
const (
	AudienceUmpire Audience = 0                       // the umpire alone
	AudienceUS     Audience = 1 << 0                  // the U.S. player
	AudienceJP     Audience = 1 << 1                  // the Japanese player
	AudienceBoth            = AudienceUS | AudienceJP // both players: rolled in the open
)

var audienceNames = [...]string{"umpire", "us", "jp", "both"}

func (a Audience) String() string {
	if int(a) < len(audienceNames) {
		return audienceNames[a]
	}
	return "audience?"
}

// MarshalText writes umpire, us, jp or both.
func (a Audience) MarshalText() ([]byte, error) {
	if int(a) >= len(audienceNames) {
		return nil, fmt.Errorf("audience %d: want umpire, us, jp or both", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads umpire, us, jp or both.
func (a *Audience) UnmarshalText(b []byte) error {
	for i, n := range audienceNames {
		if n == string(b) {
			*a = Audience(i)
			return nil
		}
	}
	return fmt.Errorf("audience %q: want umpire, us, jp or both", b)
}

// HitNeed returns the lowest natural face that hits with modifier drm
// (rule 8.0): 7 minus the modifier, never above 10 because a natural 10
// always hits, never below 1.
func HitNeed(drm int) int {
	return min(max(HitNumber-drm, 1), 10)
}

// Dice is where the rules get their dice. Roll returns a ten-sided die from 1
// to 10: a face of 0 reads as 10 (rule 1.2). The server derives dice from the
// game's committed seed; tests and rules cases force them.
type Dice interface {
	Roll(d Die) int
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
