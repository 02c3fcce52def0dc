package main

import (
	"encoding/json"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

// systemShow is side's report of a stored game of a system other than
// War in the Wind, as that system words it for the mail, and the picture
// of its map when asked for.
type systemShow struct {
	report *templates.SideReport
	png    []byte
}

// systemReport builds side's report of game g of system sys: its
// position in force and the events of its live log entries from entry
// from (the last entry when 0), the system keeping only what side may
// see, as the game service does for a mail.
func systemReport(db *store.DB, g *store.Game, sys referee.System, side adjudicator.Side, from uint64, picture bool) (*systemShow, error) {
	b, err := db.Position(g.ID)
	if err != nil {
		return nil, err
	}
	pos, err := sys.Position(b)
	if err != nil {
		return nil, err
	}
	if from == 0 {
		from = g.Entries
	}
	entries, err := db.Log(g.ID, from)
	if err != nil {
		return nil, err
	}
	var evs []json.RawMessage
	for _, e := range entries {
		var list []json.RawMessage
		if e.RolledBackBy == 0 && len(e.Events) > 0 && json.Unmarshal(e.Events, &list) == nil {
			evs = append(evs, list...)
		}
	}
	in := templates.ReportFor{
		Game:     templates.Game{ID: g.ID, Name: referee.GameName(*g), Deadline: g.Deadline, Head: g.Head, Commitment: g.Commitment},
		Position: pos, Side: side, Events: evs, Ended: g.Status == store.Ended,
	}
	rep, err := sys.Report(in)
	if err != nil {
		return nil, err
	}
	out := &systemShow{report: rep}
	if picture {
		if out.png, err = sys.Picture(in); err != nil {
			return nil, err
		}
	}
	return out, nil
}
