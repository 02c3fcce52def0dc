package standin

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// refitAt is the casualty track value at which the U.S. calls a refit
// turn (rule 3.1): the refit's loss recovery clears the track (9.1), which
// ends the game at CasualtyLimit (3.8.2).
const refitAt = 18

// refitLate is the casualty track value at which the U.S. refits even
// with a single turn left to play after the refit: a turn of fighting
// from there may well take the track to CasualtyLimit (3.8.2).
const refitLate = 25

// decision answers the U.S. decision: a refit turn when the casualty
// track nears its limit or reinforcements wait, otherwise a day turn
// (3.2: by night the allowance shrinks and fire is blind, which helps the
// side that waits, the Japanese). A refit turn is a turn without fire or
// movement, so none is called that cannot pay back before the game's
// last turn (3.8.3): the restored and landed units need turns to fight.
func (b *board) decision(ord *wind.Orders) {
	waiting := 0
	for _, u := range b.v.Units {
		if u.Box == wind.BoxReinforcements {
			waiting++
		}
	}
	// after is how many turns are played after this one.
	after := b.lastTurn() - b.v.Turn
	c := b.v.Casualties
	refit := c >= refitAt && after >= 2 || c >= refitLate && after >= 1
	// Reinforcements land only in a refit turn (9.2): every other turn
	// while enough of them wait and there are turns enough for them to
	// come up, which the benchmark found to pay even in the race of the
	// short scenarios, but for Up the Hog's Back, whose objective lies
	// next to the beaches and whose calendar is shortest (15.1).
	if waiting >= 4 && b.v.Turn%2 == 0 && after >= 3 && b.v.Scenario != wind.ScenarioUpTheHogsBack {
		refit = true
	}
	ord.Decision = &wind.Decision{Refit: refit}
	ord.Standing = b.retreat()
}

// retreat returns the U.S. standing instructions for melee retreats when
// they differ from those in force, or nil: after a round that cost the
// U.S. more steps than the Japanese, its units withdraw (rule 8.2.1.3,
// and from an ambush of the solitaire game, 13.3), but never from a goal
// hex, where holding on is the game.
func (b *board) retreat() *wind.Standing {
	want := &wind.Standing{Retreat: wind.RetreatIfLosing, RetreatAt: map[wind.Hex]string{}}
	for _, g := range b.goals {
		want.RetreatAt[g] = wind.RetreatNever
	}
	for _, st := range b.o.Standing {
		if st.Side != b.side || st.Standing.Retreat != want.Retreat {
			continue
		}
		same := true
		for h, p := range want.RetreatAt {
			if st.Standing.RetreatAt[h] != p {
				same = false
			}
		}
		if same {
			return nil
		}
	}
	return want
}

// lastTurn is the game's last turn as the side may know it: the short
// scenario's last day (rules 15.1 to 15.3); in the campaign what the
// Komandorski chits revealed say (12.1.3), reckoning an unrevealed effect
// at its earliest date and an unrevealed delay at two turns.
func (b *board) lastTurn() int {
	switch b.v.Scenario {
	case wind.ScenarioUpTheHogsBack:
		return wind.TurnOfMay(18)
	case wind.ScenarioHoltzBayToJarminPass, wind.ScenarioTheLinkup:
		return wind.TurnOfMay(22)
	}
	k := wind.Komandorski{Effect: 24, Delay: 2}
	if kv := b.v.Komandorski; kv != nil {
		if kv.EffectRevealed && kv.Effect > 0 {
			k.Effect = kv.Effect
		}
		if kv.DelayRevealed && kv.Delay > 0 {
			k.Delay = kv.Delay
		}
	}
	return k.LastTurn()
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
	// The restored steps count against a landing zone's capacity as much
	// as the units landed there (9.1 comes before 9.2).
	extra := map[wind.Hex]int{}
	left := b.v.RefitSteps
	for _, r := range restore {
		rf.Restore = append(rf.Restore, wind.Restore{Unit: r.Unit})
		n := min(left, r.MaxSteps-r.Steps)
		left -= n
		extra[r.Hex] += n
	}
	rf.Land = b.land(opt.Land, nil, extra, skipLoss)
	rf.Depots = slices.Clone(opt.Depots)
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
	skip := openingSkipLoss
	if opt.AllLand {
		skip = -1
	}
	ord.Landing = &wind.USLanding{Land: b.land(opt.Land, opt.Fixed, nil, skip)}
}

// jpRefit hides every unit that may hide (rule 9.5): a face-down counter
// tells the U.S. nothing of what it is, and U.S. fire at it is worse
// (8.3). In the two-player game it then regroups the Unknown units on
// the goals (regroup); in the solitaire game it leaves them where they
// stand, as rule 13 has them.
func (b *board) jpRefit(ord *wind.Orders) {
	ra := &wind.Rearrange{}
	ord.Rearrange = ra
	if b.o.Refit != nil {
		ra.Hide = slices.Clone(b.o.Refit.Hide)
	}
	if b.freeJapanese() {
		b.regroup(ra)
	}
}
