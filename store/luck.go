package store

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Kinds of fire in the luck summary, by the typed purposes of the to-hit
// dice (fireKind).
const (
	FireRanged = "ranged" // rule 8.1
	FireAir    = "air"    // rule 8.1.6
	FireMelee  = "melee"  // rule 8.2
)

// Luck is the dice-luck summary: per side, how the dice that side rolled
// fell (the weather, which no side rolls, apart). A to-hit die is judged
// against the lowest face that hits (Roll.Need, rule 8.0): needing N, it
// hits with probability (11 - N)/10. Other dice count in the faces only.
type Luck struct {
	Sides []SideLuck
}

// SideLuck is one side's dice.
type SideLuck struct {
	Side  wind.Side
	Dice  int
	Faces [11]int // Faces[f]: how many dice showed f (1 to 10)
	Fire  []FireLuck
}

// FireLuck is one side's to-hit dice in one kind of fire.
type FireLuck struct {
	Kind     string
	Dice     int
	Hits     int     // dice that showed their Need or more
	Expected float64 // the sum of each die's chance to hit
	Variance float64 // the sum of p(1-p), for Sigma
}

// Sigma returns how many standard deviations the hits are above (positive)
// or below expectation.
func (f FireLuck) Sigma() float64 {
	if f.Variance == 0 {
		return 0
	}
	return (float64(f.Hits) - f.Expected) / math.Sqrt(f.Variance)
}

// fireKinds are the kinds of fire of the to-hit dice, by their purpose,
// as indexes into SideLuck.Fire: ranged, air, melee.
var fireKinds = map[wind.DiePurpose]int{
	wind.DieRanged: 0, wind.DieAirStrike: 1,
	wind.DieMeleeAttack: 2, wind.DieMeleeDefence: 2,
}

// computeLuck sums the dice that the entries marked live rolled.
func computeLuck(dice []Roll, live map[uint64]bool) *Luck {
	sides := map[wind.Side]*SideLuck{}
	for _, r := range dice {
		if !live[r.Entry] {
			continue
		}
		sl := sides[r.Side]
		if sl == nil {
			sl = &SideLuck{Side: r.Side, Fire: []FireLuck{{Kind: FireRanged}, {Kind: FireAir}, {Kind: FireMelee}}}
			sides[r.Side] = sl
		}
		sl.Dice++
		if r.Face >= 1 && r.Face <= 10 {
			sl.Faces[r.Face]++
		}
		k, ok := fireKinds[r.Purpose]
		if !ok || r.Need < 1 || r.Need > 10 {
			continue
		}
		f, p := &sl.Fire[k], float64(11-r.Need)/10
		f.Dice++
		f.Expected += p
		f.Variance += p * (1 - p)
		if r.Face >= r.Need {
			f.Hits++
		}
	}
	l := &Luck{}
	for _, s := range []wind.Side{wind.US, wind.JP, wind.NoSide} {
		if sl := sides[s]; sl != nil {
			l.Sides = append(l.Sides, *sl)
		}
	}
	return l
}

// Luck returns the dice-luck summary of the export's entries in force, as
// Audit computes it (it checks nothing: see Audit): each die counts when
// the entry that rolled it (Roll.Entry) was not rolled back.
func (x *Export) Luck() *Luck {
	live := map[uint64]bool{}
	for i, xe := range x.Log {
		live[uint64(i+1)] = xe.RolledBackBy == 0
	}
	return computeLuck(x.Dice, live)
}

// WriteText writes the summary in a few lines per side.
func (l *Luck) WriteText(w io.Writer) {
	fmt.Fprintln(w, "Dice luck: each to-hit die against the face it needed (needing N, it hits 11-N times in 10)")
	for _, s := range l.Sides {
		name := strings.ToUpper(s.Side.String())
		if s.Side == wind.NoSide {
			name = "neither side (weather)"
		}
		fmt.Fprintf(w, "\n%s: %d dice\n  faces ", name, s.Dice)
		for f := 1; f <= 10; f++ {
			fmt.Fprintf(w, " %d:%d", f, s.Faces[f])
		}
		fmt.Fprintf(w, "   (%.1f expected of each)\n", float64(s.Dice)/10)
		for _, f := range s.Fire {
			if f.Dice == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-6s %4d dice: %4d hits, %6.1f expected (%+.1f, %s)\n",
				f.Kind, f.Dice, f.Hits, f.Expected, float64(f.Hits)-f.Expected, judge(f.Sigma()))
		}
	}
}

// judge puts a deviation in words: within two standard deviations is what
// fair dice do about 19 times in 20.
func judge(sigma float64) string {
	switch {
	case sigma >= 2:
		return "lucky"
	case sigma <= -2:
		return "unlucky"
	case sigma >= 1:
		return "a little lucky"
	case sigma <= -1:
		return "a little unlucky"
	}
	return "as expected"
}
