package adjudicator

import "fmt"

// Die describes one roll the rules ask for: why it is rolled, for which unit
// or hex, and for a to-hit roll what it needs. The dice source logs it with
// the value.
type Die struct {
	Purpose string `json:"purpose"`
	Unit    string `json:"unit,omitempty"`
	Hex     Hex    `json:"hex,omitempty"`
	// Need is the lowest natural face that scores a hit, for the to-hit
	// rolls of ranged, air and melee combat (HitNeed); 0 for every other
	// die. It lets a dice log say how lucky a roll was without knowing the
	// situation it was rolled in.
	Need int `json:"need,omitempty"`
	// Seen is the only side (besides the umpire) that may see this die
	// while the game runs, as at the table: the Japanese roll the
	// Komandorski chits, Unknown tables and pool draws out of the U.S.
	// player's sight (2.5, 12.1). NoSide: both sides see it.
	Seen Side `json:"seen,omitempty"`
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
