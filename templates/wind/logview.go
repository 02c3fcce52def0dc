package wind

import (
	"encoding/json"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	rules "github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/templates"
)

// logPart is what the log answer shows as one entry: a whole entry of the
// log (title nil), or the part of one that a filed order would have made
// an entry of its own (title set).
type logPart struct {
	seq    uint64
	entry  templates.Entry
	title  *templates.Entry
	events []rules.Event
}

// LogParts shapes the log as side reads it while the game waits for w:
// each entry's events as side may see them, in words; for the Japanese,
// readLog's shape.
func (Rules) LogParts(items []templates.LogItem, side adjudicator.Side, w adjudicator.Wait) ([]templates.LogPart, error) {
	parts := make([]logPart, 0, len(items))
	for _, it := range items {
		evs := make([]rules.Event, len(it.Events))
		for i, b := range it.Events {
			if err := json.Unmarshal(b, &evs[i]); err != nil {
				return nil, err
			}
		}
		parts = append(parts, logPart{seq: it.Seq, entry: it.Entry, events: rules.VisibleEvents(evs, side)})
	}
	if side == adjudicator.JP {
		parts = readLog(parts, w)
	}
	out := make([]templates.LogPart, len(parts))
	for i, p := range parts {
		out[i] = templates.LogPart{Seq: p.seq, Made: p.title}
		for _, ev := range p.events {
			out[i].Events = append(out[i].Events, EventText(ev))
		}
	}
	return out, nil
}

// readLog shapes the Japanese player's log so that a U.S. standing
// decision (rules.Standing.Decision) reads as a decision the U.S.
// filed, and neither shows before the U.S. acts:
//
//   - The events after the wait for a U.S. decision, in the entry that
//     led to it, are the decision the standing instruction made: they are
//     shown as the entry of that decision, as the U.S. filing it would have
//     made one.
//   - While the game waits for the U.S. in a way veiled to the Japanese
//     (rules.Veiled), the U.S. orders of the turn at the end of the log,
//     filed or standing, are left out: the report after the U.S. actions
//     brings them.
func readLog(parts []logPart, w adjudicator.Wait) []logPart {
	var out []logPart
	for _, p := range parts {
		i := slices.IndexFunc(p.events, func(ev rules.Event) bool {
			return ev.Kind == rules.EventWait && ev.Wait == rules.WaitUSDecision
		})
		if i < 0 || i == len(p.events)-1 {
			out = append(out, p)
			continue
		}
		made := logPart{seq: p.seq, events: p.events[i+1:], title: &templates.Entry{
			Kind: kindOrders, Turn: p.events[i].Turn, Wait: rules.WaitUSDecision, Side: adjudicator.US}}
		p.events = p.events[:i+1]
		out = append(out, p, made)
	}
	if !rules.Veiled(w, adjudicator.JP) {
		return out
	}
	// Notes at the end (an umpire's extension) stay, in their order.
	var notes []logPart
	end := len(out)
	for ; end > 0; end-- {
		p := out[end-1]
		if p.title == nil && p.entry.Kind == kindNote {
			notes = append([]logPart{p}, notes...)
		} else if !usOrders(p, w.Turn) {
			break
		}
	}
	return append(out[:end], notes...)
}

// The kinds of log entry the log's shape looks at (store.Kind).
const (
	kindOrders = "orders"
	kindNote   = "note"
)

// usOrders reports whether p is U.S. orders of turn, filed or standing.
func usOrders(p logPart, turn int) bool {
	t := p.entry
	if p.title != nil {
		t = *p.title
	}
	return t.Kind == kindOrders && t.Side == adjudicator.US && t.Turn == turn
}
