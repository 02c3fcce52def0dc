package referee

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// logPart is what the log answer shows as one entry: a whole entry of the
// log, or (entry nil, title set) the part of one that a filed order would
// have made an entry of its own.
type logPart struct {
	seq    uint64
	entry  *store.LogEntry
	title  templates.Entry
	events []wind.Event
}

// readLog shapes the Japanese player's log so that a U.S. standing
// decision (wind.Standing.Decision) reads as a decision the U.S.
// filed, and neither shows before the U.S. acts:
//
//   - The events after the wait for a U.S. decision, in the entry that
//     led to it, are the decision the standing instruction made: they are
//     shown as the entry of that decision, as the U.S. filing it would have
//     made one.
//   - While the game waits for the U.S. in a way veiled to the Japanese
//     (adjudicator.Wait.Veiled), the U.S. orders of the turn at the end of
//     the log, filed or standing, are left out: the report after the U.S.
//     actions brings them.
func readLog(parts []logPart, w adjudicator.Wait) []logPart {
	var out []logPart
	for _, p := range parts {
		i := slices.IndexFunc(p.events, func(ev wind.Event) bool {
			return ev.Kind == wind.EventWait && ev.Wait == wind.WaitUSDecision
		})
		if i < 0 || i == len(p.events)-1 {
			out = append(out, p)
			continue
		}
		made := logPart{seq: p.seq, events: p.events[i+1:], title: templates.Entry{
			Kind: string(store.KindOrders), Turn: p.events[i].Turn, Wait: wind.WaitUSDecision, Side: adjudicator.US}}
		p.events = p.events[:i+1]
		out = append(out, p, made)
	}
	if !wind.Veiled(w, adjudicator.JP) {
		return out
	}
	// Notes at the end (an umpire's extension) stay, in their order.
	var notes []logPart
	end := len(out)
	for ; end > 0; end-- {
		p := out[end-1]
		if p.entry != nil && p.entry.Kind == store.KindNote {
			notes = append([]logPart{p}, notes...)
		} else if !usOrders(p, w.Turn) {
			break
		}
	}
	return append(out[:end], notes...)
}

// usOrders reports whether p is U.S. orders of turn, filed or standing.
func usOrders(p logPart, turn int) bool {
	t := p.title
	if p.entry != nil {
		t = templates.Entry{Kind: string(p.entry.Kind), Turn: p.entry.Turn, Side: p.entry.Side}
	}
	return t.Kind == string(store.KindOrders) && t.Side == adjudicator.US && t.Turn == turn
}
