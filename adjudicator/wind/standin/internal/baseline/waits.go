package baseline

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// refitAt is the casualty track value at which the U.S. calls a refit
// turn (rule 3.1): the refit's loss recovery clears the track (9.1), which
// ends the game at CasualtyLimit (3.8.2).
const refitAt = 18

// decision answers the U.S. decision: a refit turn when the casualty
// track nears its limit or reinforcements wait, otherwise a day turn
// (3.2: by night the allowance shrinks and fire is blind, which helps the
// side that waits, the Japanese).
func (b *board) decision(ord *wind.Orders) {
	waiting := 0
	for _, u := range b.v.Units {
		if u.Box == wind.BoxReinforcements {
			waiting++
		}
	}
	// Reinforcements land only in a refit turn (9.2): every other turn
	// while enough of them wait, which the benchmark found to pay even in
	// the race of the short scenarios, but for Up the Hog's Back, whose
	// objective lies next to the beaches and whose calendar is shortest
	// (15.1).
	refit := b.v.Casualties >= refitAt || waiting >= 4 && b.v.Turn%2 == 0 && b.v.Scenario != wind.ScenarioUpTheHogsBack
	ord.Decision = &wind.Decision{Refit: refit}
}

// usRefit restores every infantry unit it may, the most depleted first
// (9.1), lands the reinforcements at the open zones nearest the
// objectives while the zones' capacity lasts (9.2), and creates every
// supply depot it may (9.4), which keeps the units ahead in supply.
func (b *board) usRefit(ord *wind.Orders) {
	rf := &wind.Refit{}
	ord.Refit = rf
	opt := b.o.Refit
	if opt == nil {
		return
	}
	restore := slices.Clone(opt.Restore)
	slices.SortStableFunc(restore, func(a, c wind.RestoreOption) int {
		return (c.MaxSteps - c.Steps) - (a.MaxSteps - a.Steps)
	})
	for _, r := range restore {
		rf.Restore = append(rf.Restore, wind.Restore{Unit: r.Unit})
	}
	rf.Land = b.land(opt.Land)
	rf.Depots = slices.Clone(opt.Depots)
}

// land sends each unit to the zone open to it nearest the goals that
// still has room for its steps (rule 9.2.1).
func (b *board) land(opts []wind.LandOption) []wind.Landing {
	used := map[string]int{}
	var out []wind.Landing
	for _, lo := range opts {
		steps := 1
		for _, u := range b.v.Units {
			if u.ID == lo.Unit {
				steps = u.Steps
			}
		}
		zones := slices.Clone(lo.Zones)
		slices.SortStableFunc(zones, func(a, c string) int { return b.zoneDistance(a) - b.zoneDistance(c) })
		for _, z := range zones {
			lz, ok := b.m.LandingZone(z)
			if !ok || used[z]+steps > lz.Capacity {
				continue
			}
			used[z] += steps
			out = append(out, wind.Landing{Unit: lo.Unit, Zone: z})
			break
		}
	}
	return out
}

// zoneDistance is how far landing zone z lies from the goals.
func (b *board) zoneDistance(z string) int {
	lz, ok := b.m.LandingZone(z)
	if !ok {
		return 1000
	}
	return b.distance(lz.Hex)
}

// landing answers the U.S. landing wait of rule 12.5: the units the
// rules send by themselves, and every other unit offered at the open
// zones nearest the objectives; it never delays (12.6), since the short
// scenarios are a race against the calendar.
func (b *board) landing(ord *wind.Orders) {
	opt := b.o.Setup
	if opt == nil {
		return
	}
	l := &wind.USLanding{}
	if opt.Landing != nil {
		l.Land = slices.Clone(opt.Landing.Land)
	}
	if opt.AllLand || len(l.Land) == 0 {
		l.Land = b.land(opt.Land)
	}
	ord.Landing = l
}

// jpRefit hides every unit that may hide (rule 9.5): a face-down counter
// tells the U.S. nothing of what it is, and U.S. fire at it is worse
// (8.3). It neither moves nor swaps Unknown units (9.6): they stand where
// the setup put them in the way of the U.S. advance.
func (b *board) jpRefit(ord *wind.Orders) {
	ra := &wind.Rearrange{}
	ord.Rearrange = ra
	if b.o.Refit != nil {
		ra.Hide = slices.Clone(b.o.Refit.Hide)
	}
}
