package standin

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// lineAt is how many hexes from its goal the second line of the free
// Japanese setup stands (jpSetup).
const lineAt = 2

// jpSetup writes the free Japanese setup (rule 12.4) from the default the
// outlook offers. Of the default's Unknown units on covering hexes (two
// within two or three hexes of each landing zone) it keeps as few as still
// cover every zone twice: they are the speed bumps by the beaches. One
// Unknown unit stands on each goal hex, and the rest form a second line
// lineAt hexes from the goals, on the side of the landing zones, where
// they hold their ground until the ring falls back (holdsGround). The
// richest tables stand nearest the goals. The guns and the value chits
// keep their default places, and so does everything in The Linkup, whose
// fronts the default already shares out (RULINGS.md R65).
func (b *board) jpSetup(opt *wind.SetupOptions) wind.JPSetup {
	js := *opt.JPSetup
	var unk *wind.PlaceOption
	for i := range opt.Place {
		if opt.Place[i].Class == "unknown" {
			unk = &opt.Place[i]
		}
	}
	if unk == nil || len(unk.Units) == 0 || opt.PerFront > 0 {
		return js
	}
	ok := map[wind.Hex]bool{}
	for _, h := range unk.Hexes {
		ok[h] = true
	}
	used := map[wind.Hex]bool{}
	var hexes []wind.Hex
	take := func(h wind.Hex) {
		used[h] = true
		hexes = append(hexes, h)
	}

	// The default's covering hexes, as few as cover every zone twice.
	need := map[string]int{}
	for _, c := range opt.Cover {
		need[c.Zone] = 2
	}
	for _, pl := range js.Place {
		if !slices.Contains(unk.Units, pl.Unit) || used[pl.Hex] {
			continue
		}
		helps := false
		for _, c := range opt.Cover {
			if need[c.Zone] > 0 && slices.Contains(c.Hexes, pl.Hex) {
				helps = true
			}
		}
		if !helps {
			continue
		}
		for _, c := range opt.Cover {
			if slices.Contains(c.Hexes, pl.Hex) {
				need[c.Zone]--
			}
		}
		take(pl.Hex)
	}
	for _, g := range b.goals {
		if ok[g] && !used[g] && len(hexes) < len(unk.Units) {
			take(g)
		}
	}

	// The second line: the hexes nearest lineAt from the nearest goal
	// first, then those nearest the landing zones.
	key := func(h wind.Hex) int {
		lz := 1000
		for _, c := range opt.Cover {
			lz = min(lz, h.Distance(c.Hex))
		}
		_, g := b.nearestGoal(h)
		return lz + g + 10*abs(g-lineAt)
	}
	line := slices.Clone(unk.Hexes)
	slices.SortStableFunc(line, func(a, c wind.Hex) int {
		if d := key(a) - key(c); d != 0 {
			return d
		}
		return int(a) - int(c)
	})
	for _, h := range line {
		if len(hexes) == len(unk.Units) {
			break
		}
		if !used[h] {
			take(h)
		}
	}
	if len(hexes) < len(unk.Units) {
		return js
	}

	// The richest tables nearest the goals.
	units := slices.Clone(unk.Units)
	tables := map[string]int{}
	for _, u := range b.v.Units {
		tables[u.ID] = tableSum(u.Table)
	}
	slices.SortStableFunc(units, func(a, c string) int { return tables[c] - tables[a] })
	slices.SortStableFunc(hexes, func(a, c wind.Hex) int {
		if d := b.distance(a) - b.distance(c); d != 0 {
			return d
		}
		return int(a) - int(c)
	})
	var place []wind.Placement
	for _, p := range js.Place {
		if !slices.Contains(unk.Units, p.Unit) {
			place = append(place, p)
		}
	}
	for i, id := range units {
		place = append(place, wind.Placement{Unit: id, Hex: hexes[i]})
	}
	js.Place = place
	return js
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
