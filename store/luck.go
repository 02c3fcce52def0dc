package store

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
)

// Luck is the dice-luck summary: per side, how the dice that side rolled
// fell (the dice no side rolls, such as War in the Wind's weather,
// apart). A to-hit die of the kinds of fire the rules name (FireKind) is
// judged against the lowest face that hits (Roll.Need): needing N on a die
// of F faces, it hits with probability (F+1-N)/F. Other dice count in the
// faces only.
type Luck struct {
	Faces   int    // of the game's die
	Unowned string // what the dice no side rolls are for (LuckRules.Unowned)
	Sides   []SideLuck
}

// SideLuck is one side's dice.
type SideLuck struct {
	Side  adjudicator.Side
	Dice  int
	Faces []int // Faces[f]: how many dice showed f (1 to the die's faces)
	Fire  []FireLuck
	// Ranked are its dice of the kinds judged by their mean face.
	Ranked []RankedLuck
}

// RankedLuck is one side's dice of a kind judged by their mean face
// (LuckRules.Ranked): on a fair die of F faces the mean is (F+1)/2 and
// one die's variance (F²-1)/12.
type RankedLuck struct {
	Kind string
	Dice int
	Sum  int  // of the faces
	Low  bool // a low face helps the side rolling
}

// Mean is the dice's mean face.
func (r RankedLuck) Mean() float64 {
	if r.Dice == 0 {
		return 0
	}
	return float64(r.Sum) / float64(r.Dice)
}

// Sigma returns how many standard deviations the mean face is from a fair
// die's, positive when it favoured the side rolling.
func (r RankedLuck) Sigma(faces int) float64 {
	if r.Dice == 0 || faces < 2 {
		return 0
	}
	f := float64(faces)
	sd := math.Sqrt((f*f - 1) / 12 / float64(r.Dice))
	d := (r.Mean() - (f+1)/2) / sd
	if r.Low {
		d = -d
	}
	return d
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

// computeLuck sums the dice of faces faces that the entries marked live
// rolled, the to-hit dice by the kinds of fire kinds.
func computeLuck(dice []Roll, live map[uint64]bool, faces int, lr LuckRules) *Luck {
	kinds := lr.Kinds
	kindOf := map[adjudicator.DiePurpose]int{}
	for i, k := range kinds {
		for _, p := range k.Purposes {
			kindOf[p] = i
		}
	}
	rankOf := map[adjudicator.DiePurpose]int{}
	for i, k := range lr.Ranked {
		for _, p := range k.Purposes {
			rankOf[p] = i
		}
	}
	sides := map[adjudicator.Side]*SideLuck{}
	for _, r := range dice {
		if !live[r.Entry] {
			continue
		}
		sl := sides[r.Side]
		if sl == nil {
			sl = &SideLuck{Side: r.Side, Faces: make([]int, faces+1)}
			for _, k := range kinds {
				sl.Fire = append(sl.Fire, FireLuck{Kind: k.Name})
			}
			for _, k := range lr.Ranked {
				sl.Ranked = append(sl.Ranked, RankedLuck{Kind: k.Name, Low: k.Low})
			}
			sides[r.Side] = sl
		}
		sl.Dice++
		if r.Face >= 1 && r.Face <= faces {
			sl.Faces[r.Face]++
			if k, ok := rankOf[r.Purpose]; ok {
				sl.Ranked[k].Dice++
				sl.Ranked[k].Sum += r.Face
			}
		}
		k, ok := kindOf[r.Purpose]
		if !ok || r.Need < 1 || r.Need > faces {
			continue
		}
		f, p := &sl.Fire[k], float64(faces+1-r.Need)/float64(faces)
		f.Dice++
		f.Expected += p
		f.Variance += p * (1 - p)
		if r.Face >= r.Need {
			f.Hits++
		}
	}
	l := &Luck{Faces: faces, Unowned: lr.Unowned}
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.NoSide} {
		if sl := sides[s]; sl != nil {
			l.Sides = append(l.Sides, *sl)
		}
	}
	return l
}

// Luck returns the dice-luck summary of the export's entries in force by
// the game's rules r, as Audit computes it (it checks nothing: see Audit):
// each die counts when the entry that rolled it (Roll.Entry) was not
// rolled back.
func (x *Export) Luck(r Rules) *Luck {
	live := map[uint64]bool{}
	for i, xe := range x.Log {
		live[uint64(i+1)] = xe.RolledBackBy == 0
	}
	return computeLuck(x.Dice, live, r.Faces(), luckRules(r))
}

// WriteText writes the summary in a few lines per side.
func (l *Luck) WriteText(w io.Writer) {
	switch {
	case l.fire():
		fmt.Fprintf(w, "Dice luck: each to-hit die against the face it needed (needing N, it hits %d-N times in %d)\n", l.Faces+1, l.Faces)
	case l.ranked():
		fmt.Fprintf(w, "Dice luck: each side's dice by face, and the mean face where a low or high face helps (fair: %.1f)\n", float64(l.Faces+1)/2)
	default:
		fmt.Fprintln(w, "Dice luck: each side's dice by face")
	}
	for _, s := range l.Sides {
		name := strings.ToUpper(s.Side.String())
		if s.Side == adjudicator.NoSide {
			name = "neither side"
			if l.Unowned != "" {
				name += " (" + l.Unowned + ")"
			}
		}
		fmt.Fprintf(w, "\n%s: %d dice\n  faces ", name, s.Dice)
		for f := 1; f <= l.Faces; f++ {
			fmt.Fprintf(w, " %d:%d", f, s.Faces[f])
		}
		fmt.Fprintf(w, "   (%.1f expected of each)\n", float64(s.Dice)/float64(l.Faces))
		for _, f := range s.Fire {
			if f.Dice == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-6s %4d dice: %4d hits, %6.1f expected (%+.1f, %s)\n",
				f.Kind, f.Dice, f.Hits, f.Expected, float64(f.Hits)-f.Expected, judge(f.Sigma()))
		}
		for _, r := range s.Ranked {
			if r.Dice == 0 {
				continue
			}
			helps := "a high face helps"
			if r.Low {
				helps = "a low face helps"
			}
			fmt.Fprintf(w, "  %-6s %4d dice: mean face %.2f, %s (%s)\n", r.Kind, r.Dice, r.Mean(), helps, judge(r.Sigma(l.Faces)))
		}
	}
}

// fire reports whether a side has to-hit dice of a kind of fire named.
func (l *Luck) fire() bool {
	for _, s := range l.Sides {
		if len(s.Fire) > 0 {
			return true
		}
	}
	return false
}

// ranked reports whether a side has dice of a kind judged by its mean.
func (l *Luck) ranked() bool {
	for _, s := range l.Sides {
		if len(s.Ranked) > 0 {
			return true
		}
	}
	return false
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
