package templates

import (
	"fmt"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
)

// Step is one step of what happened, as a report groups it: the weather,
// the airpower, one activation, one melee, the victory check, the end of a
// turn. Events hold the step's events in order.
type Step struct {
	Title  string
	Events []adjudicator.Event
}

// groupSteps groups a side's events into the steps of the turn sequence
// (rules 3.1 to 3.9), in order. Events carry no step of their own, so the
// grouping follows their kinds: an event that begins a step (a weather
// roll, an activation's move, fire or melee declaration, a melee picked,
// the victory, a new turn) opens a group, and the events that follow from
// it (hits, losses, reveals, zones cleared, advances) join it. Each round
// of a melee is a step of its own. Two events of
// one kind on the same hexes are two views of one thing (the umpire reads
// both) and stay together; several units firing together at one hex are
// one activation. The "wait" event is left out: the report's header says
// what the game waits for.
func groupSteps(evs []adjudicator.Event) []Step {
	var out []Step
	activations := map[adjudicator.Side]int{}
	var prev *adjudicator.Event
	// The melee being told, if any: its hex, the fire totals seen (one for
	// each side's fire in a round, rule 8.2.1) and the round.
	var melee adjudicator.Hex
	totals, round := 0, 0
	open := func(title string) { out = append(out, Step{Title: title}) }
	for i := range evs {
		ev := evs[i]
		if ev.Kind == "wait" {
			continue
		}
		cont := len(out) > 0 && prev != nil && sameThing(*prev, ev)
		if ev.Kind == "melee" && melee != 0 && len(ev.Hexes) > 0 && ev.Hexes[len(ev.Hexes)-1] == melee {
			cont = true // the melee picked (3.7) is fought now (8.2)
		}
		switch {
		case melee != 0 && ev.Kind == "melee-fire" && (round == 0 || totals >= 2*round):
			// A round is both sides' fire (8.2.1.1, 8.2.1.2), each ending
			// with its total; the next die rolled opens the next round.
			round++
			open(fmt.Sprintf("Melee at %s, round %d", melee, round))
			cont = true
		case melee != 0 && ev.Kind == "melee-round":
			totals++
		}
		if !cont {
			if title, starts := stepTitle(ev, prev, activations); starts {
				open(title)
				melee, totals, round = 0, 0, 0
				if (ev.Kind == "melee-picked" || ev.Kind == "melee") && len(ev.Hexes) > 0 {
					melee = ev.Hexes[len(ev.Hexes)-1]
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

// sameThing reports whether ev continues what prev began: the same kind on
// the same hexes told to different sides (one thing seen two ways, as the
// umpire reads it), or another unit firing in the same activation.
func sameThing(prev, ev adjudicator.Event) bool {
	if prev.Kind == ev.Kind && prev.Seen != ev.Seen && slices.Equal(prev.Hexes, ev.Hexes) {
		return true
	}
	// A fire activation reports each firing unit (from, target) and then
	// its total on the target alone.
	return ev.Kind == "fire" && prev.Kind == "fire" && len(prev.Hexes) == 2 &&
		len(ev.Hexes) > 0 && ev.Hexes[len(ev.Hexes)-1] == prev.Hexes[1]
}

// stepTitle returns the title of the step ev begins, or false when ev
// follows from the step before it.
func stepTitle(ev adjudicator.Event, prev *adjudicator.Event, activations map[adjudicator.Side]int) (string, bool) {
	at := ""
	if len(ev.Hexes) > 0 {
		at = " at " + ev.Hexes[len(ev.Hexes)-1].String()
	}
	switch ev.Kind {
	case "decision":
		return "Decision (rules 3.1, 3.2)", true
	case "weather":
		return "Weather (rule 3.3)", true
	case "airpower":
		if prev != nil && prev.Kind == "airpower" {
			return "", false
		}
		return "Airpower (rule 3.4)", true
	case "standing":
		return "Standing instructions", true
	case "move", "fire", "melee-declared", "air", "yamasaki", "skipped":
		activations[ev.Side]++
		return fmt.Sprintf("%s activation %d", sideTitle(ev.Side), activations[ev.Side]), true
	case "melee-lapsed":
		return "Melee" + at + " (not fought)", true
	case "melee-picked":
		return "Melee" + at + " (rule 3.7)", true
	case "melee":
		return "Melee" + at + " (rule 8.2)", true
	case "victory":
		return "Victory (rule 3.8)", true
	case "turn", "hide", "komandorski":
		if prev != nil && (prev.Kind == "turn" || prev.Kind == "hide" || prev.Kind == "komandorski") {
			return "", false
		}
		return "Turn track (rules 3.9, 12.1)", true
	}
	return "", false
}

// sideTitle names a side at the start of a title.
func sideTitle(s adjudicator.Side) string {
	switch s {
	case adjudicator.US:
		return "U.S."
	case adjudicator.JP:
		return "Japanese"
	case adjudicator.Umpire:
		return "Umpire"
	}
	return "Server"
}

// fightKinds are the kinds of events that tell of fighting in their hexes.
var fightKinds = map[string]bool{
	"fire": true, "air": true, "loss": true, "melee": true, "melee-picked": true,
	"melee-fire": true, "melee-round": true, "melee-end": true, "revealed": true,
	"advance": true, "retreat": true, "captured": true, "eliminated": true, "hero": true,
}

// foughtHexes returns, in ascending order, the hexes where the events tell
// of fighting: fire and air attacks on their targets, melee, losses,
// retreats and advances.
func foughtHexes(evs []adjudicator.Event) []adjudicator.Hex {
	seen := map[adjudicator.Hex]bool{}
	for _, ev := range evs {
		if !fightKinds[ev.Kind] || len(ev.Hexes) == 0 {
			continue
		}
		hs := ev.Hexes
		if ev.Kind == "fire" {
			hs = hs[len(hs)-1:] // the target, not the firer
		}
		for _, h := range hs {
			if h != 0 {
				seen[h] = true
			}
		}
	}
	return sortedHexes(seen)
}

func sortedHexes(set map[adjudicator.Hex]bool) []adjudicator.Hex {
	out := make([]adjudicator.Hex, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	slices.Sort(out)
	return out
}
