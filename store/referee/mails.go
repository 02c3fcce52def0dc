package referee

// The glue between the service and package templates, which words every
// mail. A report is built only from what its side may see: its View and
// Outlook and the events Redact keeps for it, never the position itself.

import (
	"bytes"
	"cmp"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// notice is one line of the next reports: what happened outside the
// rules, recorded in the log as a note.
type notice struct {
	Text string           `json:"text"`
	For  adjudicator.Side `json:"for,omitempty"` // the one player who may read it besides the umpire; NoSide: everyone
}

// UnmarshalJSON reads a notice, or a plain string as records written
// before notices had readers kept them.
func (n *notice) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*n = notice{}
		return json.Unmarshal(b, &n.Text)
	}
	type plain notice
	return json.Unmarshal(b, (*plain)(n))
}

// noticesFor are the notices side may read.
func (r *record) noticesFor(side adjudicator.Side) []string {
	var out []string
	for _, n := range r.Notices {
		if n.For == adjudicator.NoSide || side == adjudicator.Umpire || n.For == side {
			out = append(out, n.Text)
		}
	}
	return out
}

// reportFor is what side's report of the position st after the events
// evs is made of; the system keeps of them only what the side may see.
func (s *Service) reportFor(g *store.Game, rec *record, st adjudicator.Position, side adjudicator.Side, evs []json.RawMessage) templates.ReportFor {
	return templates.ReportFor{
		Game:     templates.Game{ID: g.ID, Name: rec.Name, Deadline: g.Deadline, Head: g.Head, Commitment: g.Commitment, StandIn: slices.Clone(rec.Bots)},
		Position: st, Side: side, Events: evs, Ended: g.Status == store.Ended, Address: s.gameAddress(g),
	}
}

// reportAttachments are the files of a report to side: the order
// template for the side awaited, the map picture when picture, queued to
// be drawn from entry at (with its events when events), and the report
// for programs when json.
func reportAttachments(a *templates.SideReport, side adjudicator.Side, at uint64, events, picture, json bool) []store.Attachment {
	var out []store.Attachment
	if a.TemplateName != "" {
		out = append(out, store.Attachment{Name: a.TemplateName, Type: "application/yaml", Data: []byte(a.Template)})
	}
	if picture {
		out = append(out, store.Attachment{Name: "map.png", Type: "image/png", Redrawable: true, DrawnAt: at, DrawnEvents: events, DrawnFor: side, Dropped: true})
	}
	if json {
		out = append(out, store.Attachment{Name: "report.json", Type: "application/json", Data: a.JSON})
	}
	return out
}

// reportMail is side's report as a mail of the given kind, with its
// picture, telling the events evs, headed by before and the notices side
// may read; false when the side has no player. st is the position in
// force in g. It counts as the side's last report (economy.go).
func (s *Service) reportMail(g *store.Game, rec *record, st adjudicator.Position, side adjudicator.Side, evs []json.RawMessage,
	kind, subject, before string) (store.Mail, bool, error) {
	out, err := s.reportMails(g, rec, st, false, []reportReq{{side: side, kind: kind, subject: subject, before: before, evs: evs, always: true}})
	if err != nil {
		return store.Mail{}, false, err
	}
	return out[0].mail, out[0].ok, nil
}

// reportReq asks reportMails for one side's report: the mail's kind, its
// subject (empty: the report's own), what comes before the report, the
// events it tells, and whether it carries the picture even when the side
// saw the same position in its last one.
type reportReq struct {
	side                  adjudicator.Side
	kind, subject, before string
	evs                   []json.RawMessage
	always                bool
	reply                 *Message // the mail it answers, when not the step's
	notes                 []string // lines for its notices besides the game's
}

// reportDone is the answer to one reportReq; ok is false when the side
// has no player.
type reportDone struct {
	side adjudicator.Side
	mail store.Mail
	ok   bool
}

// reportMails is reportMail for several sides at once, in the order of
// reqs, each made by sideReport, each counted as its side's last report;
// drawn says whether the pictures outline the events of the entry in force.
func (s *Service) reportMails(g *store.Game, rec *record, st adjudicator.Position, drawn bool, reqs []reportReq) ([]reportDone, error) {
	out := make([]reportDone, len(reqs))
	for i, q := range reqs {
		out[i].side = q.side
		if p, ok := g.Player(q.side); !ok || p.Address == "" {
			continue
		}
		a, err := s.sysOf(g).Report(s.reportFor(g, rec, st, q.side, q.evs))
		if err != nil {
			return nil, err
		}
		subject, before := cmp.Or(q.subject, a.Subject), q.before
		if before != "" {
			before += "\n"
		}
		lines := slices.Concat(rec.Unread[q.side], rec.noticesFor(q.side), q.notes)
		text := before + templates.Notices{Paused: g.Status == store.Paused, Lines: lines}.Text() + a.Text
		key := a.PictureKey
		picture, json := q.always || key != rec.Pictured[q.side], rec.JSON[q.side]
		name, page, sheet := a.SheetName, a.Sheet, a.SheetName != "" && !rec.NoSheet[q.side]
		// The side awaited gets the order sheet after the order template,
		// in place of the picture: the same map, hex ids and all, with the
		// template's choices on it, and a mail no heavier.
		picture = picture && !sheet
		text += templates.Attached{Picture: picture || sheet, JSON: json}.Text()
		m, ok := s.toSide(g, q.side, q.kind, subject, text)
		m.Attachments = reportAttachments(a, q.side, g.Current, drawn, picture, json)
		if sheet {
			m.Attachments = slices.Insert(m.Attachments, 1, store.Attachment{Name: name, Type: "text/html", Data: page})
		}
		if !picture && !sheet {
			key = ""
		}
		rec.reported(q.side, g.Current, st.Wait().Turn, key)
		out[i].mail, out[i].ok = m, ok
	}
	return out, nil
}

// welcomeMail is the mail that carries a side's secret token, once; the
// side's first report, of st, follows it in the same mail, telling evs
// (those of the side handed back from the stand-in: what it saw while the
// stand-in played; nil for a new side).
func (s *Service) welcomeMail(g *store.Game, rec *record, st adjudicator.Position, side adjudicator.Side, token string, evs []json.RawMessage) (store.Mail, error) {
	w := templates.Welcome{Game: g.ID, Name: rec.Name, Scenario: g.Scenario, Side: side, Address: s.gameAddress(g),
		Token: token, Commitment: g.Commitment, Deadline: g.Options.Deadline, Reminder: g.Options.Reminder, Settle: rec.Settle,
		Waiting: s.sysOf(g).Waiting(g.Wait, side), Awaited: g.Wait.Open() && g.Wait.Side == side, StandIn: slices.Clone(rec.Bots)}
	w.Words = s.sysOf(g).Words()
	if rp, ok := s.sysOf(g).(RulesPlayer); ok {
		w.RulesSide, w.RulesPlay = rp.RulesPlay(st)
	}
	if p, ok := g.Player(adjudicator.Umpire); ok && side != adjudicator.Umpire {
		w.Umpire = p.Address
	}
	if side == adjudicator.Umpire {
		w.Copies = rec.copies()
		for _, p := range g.Players {
			if p.Side != adjudicator.Umpire {
				addr := cmp.Or(p.Address, "attu's stand-in ("+Bot+")") // the stand-in's side has no address
				w.Players = append(w.Players, templates.PlayerAddress{Side: p.Side, Address: addr})
			}
		}
	}
	m, _, err := s.reportMail(g, rec, st, side, evs, "welcome-"+side.String(), w.Subject(), w.Text())
	return m, err
}

// refused is the refusal of an authenticated player's file: each problem
// at its line and column with the player's own line quoted, and those at
// no line as the reason; nothing else tells of the position.
func refused(game, subject string, why templates.Notice, ps []store.Problem, file []byte) templates.Refused {
	r := templates.Refused{Game: game, Subject: subject, File: file, Why: why.Kind}
	var reasons []string
	if why.Kind != "" {
		reasons = append(reasons, why.Text())
	}
	for _, p := range ps {
		if p.Line == 0 {
			reasons = append(reasons, p.Msg)
			continue
		}
		r.Errors = append(r.Errors, templates.LineError{Line: p.Line, Col: max(p.Col, 1), Msg: p.Msg})
	}
	for i, m := range reasons {
		if m != "" && m[len(m)-1] != '.' {
			reasons[i] = m + "."
		}
	}
	r.Reason = strings.Join(reasons, " ")
	return r
}

// help is the answer to "help" for side.
func (s *Service) help(g *store.Game, side adjudicator.Side) templates.Help {
	return templates.Help{Game: g.ID, Address: s.gameAddress(g), Umpire: side == adjudicator.Umpire, Tokenless: s.cfg.Answers}
}

// final is the last report's head: the result, the seed revealed, how
// to check every die, and the luck of the dice; the side's report
// follows it.
func final(sys System, g *store.Game, name string, st adjudicator.Position, result, export string, luck *store.Luck) templates.Final {
	var buf bytes.Buffer
	luck.WriteText(&buf)
	winner, victory := sys.Result(st)
	turn := st.Wait().Turn
	f := templates.Final{Game: g.ID, Name: name, Winner: winner, Victory: victory, Turn: turn, Date: sys.Date(turn),
		Seed: hex.EncodeToString(g.Seed), Commitment: g.Commitment, Head: g.Head, Export: export, Luck: buf.String()}
	// A game the rules ended has their words, a draw's too; the umpire's
	// end and a concession have the result as written.
	if f.Victory == "" || f.Winner == adjudicator.NoSide && !sys.Decided(st) {
		f.Victory = result
	}
	return f
}

func why(k string) templates.Notice { return templates.Notice{Kind: "why-" + k} }

// dropped tells a player that held orders could not be applied once the
// settle window closed.
func dropped(sys System, g *store.Game, ps []store.Problem, file []byte) string {
	r := refused(g.ID, "", why("dropped"), ps, file)
	r.Waiting = sys.Waiting(g.Wait, adjudicator.NoSide)
	return r.Text()
}
