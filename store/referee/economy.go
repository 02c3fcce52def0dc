package referee

// Mail economy: a mailbox's sending quota, and each reader's attention,
// are spent only where they buy something. After a step a player gets a
// report when the game waits for it; the player whose file it was gets a
// few lines of acknowledgement when no report follows at once; anybody
// else gets nothing, and what happened rides in their next report. A
// report carries the picture only when the position its reader sees
// has changed since the last picture it got, and report.json only for
// a reader who asked (command "json on"). The umpire chooses how they
// are mailed: a copy of every report, one report a turn, or a daily
// digest (the default); what needs the umpire (a missed deadline, a
// takeback request) comes at once whatever the choice.

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// How the umpire of a game is mailed (record.Copies, command "copies").
const (
	CopiesDigest = "digest" // the default: one report a day, when something happened
	CopiesTurn   = "turn"   // one report a game turn
	CopiesEvery  = "every"  // a copy of every report the players get
)

// copyModes are the umpire's choices, for checks and help.
var copyModes = []string{CopiesDigest, CopiesTurn, CopiesEvery}

// DigestEvery is how often the umpire's digest comes at most.
const DigestEvery = 24 * time.Hour

// cmdJSON turns report.json on or off in the reports to the caller.
func cmdJSON(c *call) error {
	if len(c.args) != 1 || c.args[0] != "on" && c.args[0] != "off" {
		return refuse("json-how", templates.Notice{})
	}
	if c.rec.JSON == nil {
		c.rec.JSON = map[adjudicator.Side]bool{}
	}
	c.rec.JSON[c.side] = c.args[0] == "on"
	c.say("you-json", templates.Notice{Note: c.args[0]})
	return c.rec.save(c.t)
}

// cmdSheet turns the order sheet on or off in the reports to the caller:
// off, a report that asks for orders carries the order template alone.
func cmdSheet(c *call) error {
	if len(c.args) != 1 || c.args[0] != "on" && c.args[0] != "off" {
		return refuse("sheet-how", templates.Notice{})
	}
	if c.rec.NoSheet == nil {
		c.rec.NoSheet = map[adjudicator.Side]bool{}
	}
	if c.args[0] == "off" {
		c.rec.NoSheet[c.side] = true
	} else {
		delete(c.rec.NoSheet, c.side)
	}
	c.say("you-sheet", templates.Notice{Note: c.args[0]})
	return c.rec.save(c.t)
}

// cmdCopies sets how the umpire is mailed.
func cmdCopies(c *call) error {
	if len(c.args) != 1 || !slices.Contains(copyModes, c.args[0]) {
		return refuse("copies-how", templates.Notice{})
	}
	c.rec.Copies = c.args[0]
	c.say("you-copies", templates.Notice{Note: c.args[0]})
	return c.rec.save(c.t)
}

// copies returns the umpire's mail mode, the digest when none was chosen.
func (r *record) copies() string {
	if r.Copies == "" {
		return CopiesDigest
	}
	return r.Copies
}

// What a side gets after a step.
type delivery int

const (
	deliverNothing delivery = iota
	deliverAck              // a few lines: the file was accepted
	deliverReport
)

// afterStep says what side gets after a step that leaves the game at
// wait w in turn turn; filer is the side whose mailed file the step
// applied (NoSide for none).
func (r *record) afterStep(side adjudicator.Side, w adjudicator.Wait, filer adjudicator.Side, turn int) delivery {
	switch {
	case side == adjudicator.Umpire && r.copies() == CopiesEvery,
		side == adjudicator.Umpire && r.copies() == CopiesTurn && turn != r.UmpireTurn:
		return deliverReport
	case side == adjudicator.Umpire:
		return deliverNothing
	case w.Open() && w.Side == side:
		return deliverReport
	case side == filer:
		return deliverAck
	}
	return deliverNothing
}

// reported records that side got a report of the position after entry
// at, in turn turn, whose picture shows key ("" when it carried none).
func (r *record) reported(side adjudicator.Side, at uint64, turn int, key string) {
	if r.Reported == nil {
		r.Reported = map[adjudicator.Side]uint64{}
	}
	r.Reported[side] = at
	if key != "" {
		if r.Pictured == nil {
			r.Pictured = map[adjudicator.Side]string{}
		}
		r.Pictured[side] = key
	}
	if side == adjudicator.Umpire {
		r.UmpireTurn = turn
	}
	delete(r.Unread, side)
}

// keepUnread saves the notices side may read for its next report.
func (r *record) keepUnread(side adjudicator.Side) {
	if ns := r.noticesFor(side); len(ns) > 0 {
		if r.Unread == nil {
			r.Unread = map[adjudicator.Side][]string{}
		}
		r.Unread[side] = append(r.Unread[side], ns...)
	}
}

// eventsSince returns the events of the entries in force after entry
// since, up to the last, from the log; with since 0 (a side of a game
// recorded before reports were counted) those of the last entry alone.
func eventsSince(log []store.LogEntry, since uint64) []json.RawMessage {
	var out []json.RawMessage
	if since == 0 && len(log) > 0 {
		since = log[len(log)-1].Seq - 1
	}
	for _, e := range log {
		if e.Seq > since && e.RolledBackBy == 0 {
			out = append(out, splitEvents(e.Events)...)
		}
	}
	return out
}

// splitEvents returns the events of an entry, each the JSON of one. They
// were written by the system's own encoding, so a list that does not read
// back is a broken file, which store.DB.Check reports; it reads as no
// events here.
func splitEvents(b json.RawMessage) []json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	var out []json.RawMessage
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// logSince reads of the log in t what eventsSince needs to tell each of
// sides what happened since its last report: the entries after the
// oldest of those reports, or the last entry alone for a side that has
// had none.
func logSince(t *store.Txn, rec *record, sides ...adjudicator.Side) ([]store.LogEntry, error) {
	last := t.Game().Entries
	from := last
	for _, side := range sides {
		if r := rec.Reported[side]; r > 0 {
			from = min(from, r+1)
		}
	}
	return t.LogFrom(from)
}

// digest mails the umpire of game id, when it chose the digest, its
// report of what happened since its last one: at most once a
// DigestEvery, and only when something happened.
func (s *Service) digest(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		if rec.copies() != CopiesDigest || now.Sub(rec.DigestAt) < DigestEvery || rec.Reported[adjudicator.Umpire] >= g.Current {
			return nil
		}
		st, err := s.positionIn(t)
		if err != nil {
			return err
		}
		log, err := logSince(t, rec, adjudicator.Umpire)
		if err != nil {
			return err
		}
		held, err := heldBack(t, rec.DigestAt, now)
		if err != nil {
			return err
		}
		subject := templates.DigestSubject(st.Wait().Turn, s.sysOf(g).Date(st.Wait().Turn), s.sysOf(g).Waiting(g.Wait, adjudicator.NoSide))
		out, err := s.reportMails(g, rec, st, false, []reportReq{{side: adjudicator.Umpire, kind: "digest-umpire", subject: subject,
			evs: eventsSince(log, rec.Reported[adjudicator.Umpire]), always: true, notes: held}})
		if err != nil || !out[0].ok {
			return err
		}
		rec.DigestAt = now
		t.Queue(out[0].mail)
		return rec.save(t)
	})
}

// lateAfter is how long a mail may wait to be sent before the umpire's
// digest tells of it.
const lateAfter = 15 * time.Minute

// heldBack is the digest's line about the game's mails queued since the
// last digest that waited more than lateAfter to be sent (the operator's
// sending quota, a mail server out of reach), or still wait; none when
// every mail went in time.
func heldBack(t *store.Txn, since, now time.Time) ([]string, error) {
	ms, err := t.Outbox()
	if err != nil {
		return nil, err
	}
	n, longest := 0, time.Duration(0)
	for _, m := range ms {
		if m.Queued.Before(since) {
			continue
		}
		wait := now.Sub(m.Queued)
		if !m.Sent.IsZero() {
			wait = m.Sent.Sub(m.Queued)
		}
		if wait > lateAfter {
			n, longest = n+1, max(longest, wait)
		}
	}
	if n == 0 {
		return nil, nil
	}
	return []string{templates.Notice{Kind: "mail-late", Missed: n, Duration: longest}.Text()}, nil
}
