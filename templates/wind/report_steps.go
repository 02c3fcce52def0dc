package wind

import (
	"cmp"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"maps"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Step is one step of what happened, as a report groups it: the weather,
// the airpower, one activation, one melee, the victory check, the end of a
// turn. Events hold the step's events in order.
type Step struct {
	Title  string
	Events []wind.Event
}

// groupSteps groups a side's events into the steps of the turn sequence
// (rules 3.1 to 3.9), in order. Events carry no step of their own, so the
// grouping follows their kinds: an event that begins a step (a weather
// roll, an activation's move, fire or melee declaration, a melee picked,
// the victory, a new turn) opens a group, and the events that follow from
// it (hits, losses, reveals, zones cleared, advances) join it. Each round
// of a melee is a step of its own. Several units firing together at one
// hex are one activation, and a side's activations are numbered from 1 in
// each of its orders files. The wait event is left out: the report's
// header says what the game waits for.
func groupSteps(evs []wind.Event) []Step {
	var out []Step
	activations := map[adjudicator.Side]int{}
	var prev *wind.Event
	// The melee being told, if any: its hex, the fire totals seen (one for
	// each side's fire in a round, rule 8.2.1) and the round.
	var melee adjudicator.Hex
	totals, round := 0, 0
	open := func(title string) { out = append(out, Step{Title: title}) }
	for i := range evs {
		ev := evs[i]
		if ev.Kind == wind.EventWait {
			// Each orders file a side sends is numbered from 1, as the
			// reader counts the activations it is told of: never by the
			// position in the file, which would tell how many it did not
			// see.
			delete(activations, ev.Side)
			continue
		}
		if ev.Kind == wind.EventTurnBegins {
			clear(activations)
		}
		cont := len(out) > 0 && prev != nil && sameThing(*prev, ev)
		if ev.Kind == wind.EventMeleeBegins && melee != 0 && ev.Target == melee {
			cont = true // the melee picked (3.7) is fought now (8.2)
		}
		switch {
		case melee != 0 && ev.Kind == wind.EventMeleeRoll && (round == 0 || totals >= 2*round):
			// A round is both sides' fire (8.2.1.1, 8.2.1.2), each ending
			// with its total; the next die rolled opens the next round.
			round++
			open(fmt.Sprintf("Melee at %s, round %d", melee, round))
			cont = true
		case melee != 0 && (ev.Kind == wind.EventDefensiveFire || ev.Kind == wind.EventOffensiveFire):
			totals++
		}
		if !cont {
			if title, starts := stepTitle(ev, prev, activations); starts {
				open(title)
				melee, totals, round = 0, 0, 0
				if ev.Kind == wind.EventMeleePicked || ev.Kind == wind.EventMeleeBegins {
					melee = ev.Target
				}
			} else if len(out) == 0 {
				open("Before this report")
			}
		}
		out[len(out)-1].Events = append(out[len(out)-1].Events, ev)
		prev = &evs[i]
	}
	return out
}

// sameThing reports whether ev continues what prev began: another unit
// firing in the same activation, which reports each firing unit and then
// the total on the target.
func sameThing(prev, ev wind.Event) bool {
	return prev.Kind == wind.EventFired && (ev.Kind == wind.EventFired || ev.Kind == wind.EventFireTotal) &&
		ev.Target == prev.Target
}

// activationKinds begin a step of their own: one of a side's activations
// (rule 3.5), or an entry of its refit orders skipped.
var activationKinds = map[wind.EventKind]bool{
	wind.EventMoved: true, wind.EventCharge: true, wind.EventFired: true,
	wind.EventFireTotal: true, wind.EventMeleeDeclared: true, wind.EventAirStrike: true,
	wind.EventAirWasted: true, wind.EventFriendlyFireMissed: true,
	wind.EventActivationSkipped: true, wind.EventActionsCutShort: true, wind.EventRefitSkipped: true,
}

// turnTrackKinds tell of the turn track (rules 3.9, 12.1): a new turn, the
// counters hidden, the Komandorski chits.
var turnTrackKinds = map[wind.EventKind]bool{
	wind.EventGameBegins: true, wind.EventTurnBegins: true, wind.EventLastTurn: true,
	wind.EventHidden: true, wind.EventRefitHidden: true, wind.EventKomandorskiDrawn: true,
	wind.EventKomandorskiEffect: true, wind.EventKomandorskiDelay: true,
}

// stepTitle returns the title of the step ev begins, or false when ev
// follows from the step before it.
func stepTitle(ev wind.Event, prev *wind.Event, activations map[adjudicator.Side]int) (string, bool) {
	// The hex the step is about: the hex attacked, else the last of the
	// event's hexes.
	where := ""
	if h := cmp.Or(ev.Target, elem(ev.Hexes, len(ev.Hexes)-1)); h != 0 {
		where = " at " + h.String()
	}
	switch k := ev.Kind; {
	case k == wind.EventDecision || k == wind.EventRefitDecision:
		if prev != nil && prev.Kind == wind.EventStandingDecision {
			return "", false
		}
		return "Decision (rules 3.1, 3.2)", true
	case k == wind.EventStandingDecision:
		return "Decision (rules 3.1, 3.2)", true
	case k == wind.EventWeather:
		return "Weather (rule 3.3)", true
	case k == wind.EventAirpower:
		if prev != nil && prev.Kind == wind.EventAirpower {
			return "", false
		}
		return "Airpower (rule 3.4)", true
	case k == wind.EventStandingChanged:
		return "Standing instructions", true
	case activationKinds[k]:
		activations[ev.Side]++
		return fmt.Sprintf("%s activation %d", templates.SideTitle(ev.Side), activations[ev.Side]), true
	case k == wind.EventMeleeLapsed:
		return "Melee" + where + " (not fought)", true
	case k == wind.EventMeleePicked:
		return "Melee" + where + " (rule 3.7)", true
	case k == wind.EventMeleeBegins:
		return "Melee" + where + " (rule 8.2)", true
	case k == wind.EventVictory:
		return "Victory (rule 3.8)", true
	case turnTrackKinds[k]:
		if prev != nil && turnTrackKinds[prev.Kind] {
			return "", false
		}
		return "Turn track (rules 3.9, 12.1)", true
	}
	return "", false
}

// fightKinds are the kinds of events that tell of fighting in their hexes.
var fightKinds = map[wind.EventKind]bool{
	wind.EventFired: true, wind.EventFireTotal: true,
	wind.EventAirStrike: true, wind.EventAirWasted: true, wind.EventFriendlyFireMissed: true,
	wind.EventStepLost: true, wind.EventEliminated: true, wind.EventSetAside: true, wind.EventHitsLost: true,
	wind.EventMeleeBegins: true, wind.EventMeleePicked: true, wind.EventMeleeRoll: true,
	wind.EventDefensiveFire: true, wind.EventOffensiveFire: true, wind.EventMeleeEnds: true,
	wind.EventMeleeRevealed: true, wind.EventAdvance: true, wind.EventNoAdvance: true,
	wind.EventAdvanceBarred: true, wind.EventAdvanceStacked: true, wind.EventChargeTakes: true,
	wind.EventRetreat: true, wind.EventCannotRetreat: true, wind.EventCaptured: true,
	wind.EventLeftAlone: true, wind.EventSetAsideEliminated: true,
	wind.EventArnold: true, wind.EventMartinez: true, wind.EventYamasaki: true,
}

// foughtHexes returns, in ascending order, the hexes where the events tell
// of fighting: fire and air attacks on their targets, melee, losses,
// retreats and advances.
func foughtHexes(evs []wind.Event) []adjudicator.Hex {
	seen := map[adjudicator.Hex]bool{}
	for _, ev := range evs {
		if !fightKinds[ev.Kind] {
			continue
		}
		hs := ev.Hexes
		// A melee's own events are about its hex; fire about its target,
		// not the firer's hex; the start of a melee about its hex, not
		// the attackers'.
		if len(hs) == 0 || ev.Kind == wind.EventFired || ev.Kind == wind.EventMeleeBegins {
			hs = []adjudicator.Hex{ev.Target}
		}
		for _, h := range hs {
			if h != 0 {
				seen[h] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
