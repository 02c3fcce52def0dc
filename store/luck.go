package store

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
)

// Fire kinds in the luck summary.
const (
	FireRanged = "ranged" // rule 8.1
	FireAir    = "air"    // rule 8.1.6
	FireMelee  = "melee"  // rule 8.2
)

// Luck is the dice-luck summary: per side, how its dice fell. It counts
// natural faces only: modifiers are the situation, not luck. A combat die is
// a natural hit on 7 or better (rule 8.0 with no modifier), which happens
// with probability 0.4; a natural 10 (a 0 on the die) always hits.
type Luck struct {
	Sides []SideLuck
}

// SideLuck is one side's dice.
type SideLuck struct {
	Side  adjudicator.Side
	Dice  int
	Faces [11]int // Faces[f]: how many dice showed f (1 to 10)
	Fire  []FireLuck
}

// FireLuck is one side's dice in one kind of fire.
type FireLuck struct {
	Kind     string
	Dice     int
	Hits     int     // natural 7 or better
	Expected float64 // 0.4 per die
	Tens     int     // natural 10s (0 on the die): hits whatever the modifiers
}

// Sigma returns how many standard deviations the hits are above (positive)
// or below expectation.
func (f FireLuck) Sigma() float64 {
	if f.Dice == 0 {
		return 0
	}
	return (float64(f.Hits) - f.Expected) / math.Sqrt(float64(f.Dice)*0.4*0.6)
}

// fireKind classifies a die by the words of its purpose; "" when it is not
// a combat die. The airpower roll (3.4) is not an air attack.
func fireKind(purpose string) string {
	p := strings.ToLower(purpose)
	switch {
	case strings.Contains(p, "airpower"):
		return ""
	case strings.Contains(p, "melee"):
		return FireMelee
	case strings.Contains(p, "air"):
		return FireAir
	case strings.Contains(p, "ranged"), strings.Contains(p, "fire"):
		return FireRanged
	}
	return ""
}

// dieSide is the side a die was rolled for: its unit's side, else a side
// named at the start of its purpose ("us airpower"), else the side whose
// orders rolled it.
func dieSide(r Roll, e *Entry) adjudicator.Side {
	if r.Unit != "" {
		if c, ok := adjudicator.BuiltinCounters().Get(r.Unit); ok {
			return c.Side()
		}
	}
	p := strings.ToLower(r.Purpose)
	switch {
	case strings.HasPrefix(p, "us "), strings.HasPrefix(p, "u.s. "):
		return adjudicator.US
	case strings.HasPrefix(p, "jp "), strings.HasPrefix(p, "japanese "):
		return adjudicator.JP
	}
	if e != nil && e.Kind == KindOrders {
		return e.Side
	}
	return adjudicator.NoSide
}

func computeLuck(live []uint64, dice map[uint64]Roll, entries map[uint64]*Entry) *Luck {
	sides := map[adjudicator.Side]*SideLuck{}
	for _, seq := range live {
		e := entries[seq]
		for n := e.DiceFrom; n < e.DiceTo; n++ {
			r := dice[n]
			s := dieSide(r, e)
			sl := sides[s]
			if sl == nil {
				sl = &SideLuck{Side: s}
				for _, k := range []string{FireRanged, FireAir, FireMelee} {
					sl.Fire = append(sl.Fire, FireLuck{Kind: k})
				}
				sides[s] = sl
			}
			sl.Dice++
			if r.Face >= 1 && r.Face <= 10 {
				sl.Faces[r.Face]++
			}
			k := fireKind(r.Purpose)
			for i := range sl.Fire {
				if f := &sl.Fire[i]; f.Kind == k {
					f.Dice++
					f.Expected += 0.4
					if r.Face >= 7 {
						f.Hits++
					}
					if r.Face == 10 {
						f.Tens++
					}
				}
			}
		}
	}
	l := &Luck{}
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.NoSide} {
		if sl := sides[s]; sl != nil {
			l.Sides = append(l.Sides, *sl)
		}
	}
	return l
}

// WriteText writes the summary in a few lines per side.
func (l *Luck) WriteText(w io.Writer) {
	fmt.Fprintln(w, "Dice luck (natural faces; a combat die is a natural hit on 7 or better, 40% of the time)")
	for _, s := range l.Sides {
		name := strings.ToUpper(s.Side.String())
		if s.Side == adjudicator.NoSide {
			name = "neither side (weather, procedures)"
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
			fmt.Fprintf(w, "  %-6s %4d dice: %4d hits, %6.1f expected (%+.1f, %s); %d natural 10s, %.1f expected\n",
				f.Kind, f.Dice, f.Hits, f.Expected, float64(f.Hits)-f.Expected, judge(f.Sigma()), f.Tens, float64(f.Dice)/10)
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
