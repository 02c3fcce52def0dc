package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// staleEnvelope returns, for a file whose envelope names a wait or a turn
// the game is not waiting for, the problem saying what it waits for, at
// the wait: or turn: line; nil when the envelope answers the game's wait
// or cannot be read well enough to tell.
func (s *Service) staleEnvelope(g *store.Game, side adjudicator.Side, env orders.Envelope) (*store.Problem, error) {
	sys := s.sysOf(g)
	w := adjudicator.Wait{Side: side, Kind: adjudicator.WaitKind(env.Wait)}
	if env.Turn != "" {
		n, err := strconv.Atoi(env.Turn)
		if err != nil || n < 1 {
			return nil, nil
		}
		w.Turn = n
	}
	o := sys.Empty(w)
	if w.Kind != "" && !slices.Contains(sys.Kinds(), w.Kind) || sys.Answers(g.Wait, o) {
		return nil, nil
	}
	st, err := s.positionOf(g)
	if err != nil {
		return nil, err
	}
	p := sys.Stale(st, o)
	if p == nil {
		return nil, nil
	}
	at := env.WaitAt
	if w.Kind == "" || w.Kind == g.Wait.Kind {
		at = env.TurnAt
	}
	return &store.Problem{Line: at.Line, Col: at.Col, Msg: p.Msg}, nil
}

// ordersMail handles a message carrying an orders file from a player of g.
func (s *Service) ordersMail(g *store.Game, ref store.MailRef, m *Message, now time.Time) error {
	sys := s.sysOf(g)
	env, ok := orders.ReadEnvelope(m.Orders)
	if !ok {
		// Not even YAML: the player learns what is wrong with their own
		// file, which tells nothing about the game.
		_, err := sys.Read(m.Orders)
		return s.unproven(g, ref, m, "refused: not an orders file", s.unreadableMail(g, m, problemsOf(err)))
	}
	side, err := adjudicator.ParseSide(env.Side)
	switch {
	case err != nil || (side != adjudicator.US && side != adjudicator.JP):
		return s.unauthenticated(g, ref, m, "no player's side")
	case !registered(g, side, m.From):
		return s.unauthenticated(g, ref, m, "not the side's address")
	case !g.CheckToken(side, env.Token):
		return s.unauthenticated(g, ref, m, "wrong or missing token")
	}
	lg := s.log.With("message_id", ref.MessageID, "game", g.ID, "side", side.String())
	if env.Game != g.ID {
		return s.answer(g, ref, "refused: another game", s.refusedWhy(g, m, templates.RefusedSubject, templates.Notice{Kind: "why-other-game", Note: env.Game}))
	}
	if g.Status == store.Ended {
		return s.answer(g, ref, "refused: the game is over", s.refusedWhy(g, m, templates.OverSubject, why("over")))
	}
	o, err := sys.ReadDoc(env.Doc) // the file as the envelope's reader parsed it, not read again
	if err != nil {
		// A file written for another wait is judged by that wait's form,
		// whose mistakes would mislead: say what the game waits for.
		if p, err := s.staleEnvelope(g, side, env); err != nil {
			return err
		} else if p != nil {
			return s.answer(g, ref, "refused: stale", s.refusedMail(g, m, []store.Problem{*p}))
		}
		lg.Info("orders do not parse")
		return s.answer(g, ref, "refused: the file has mistakes", s.refusedMail(g, m, problemsOf(err)))
	}
	raw := orders.Redact(m.Orders)
	if g.Status == store.Paused {
		return s.answer(g, ref, "refused: paused", s.refusedWhy(g, m, templates.RefusedSubject, why("file-paused")))
	}
	// The game's record keeps the position's wait (store.Game.Wait), so
	// orders that answer it need not have the position read here: the
	// step checks them against it again (store.Txn.Apply).
	var st adjudicator.Position
	if !sys.Answers(g.Wait, o) {
		if st, err = s.positionOf(g); err != nil {
			return err
		}
		if p := sys.Stale(st, o); p != nil {
			if e := s.sameFile(g.ID, side, raw); e != nil {
				return s.answer(g, ref, "refused: already applied", s.refusedWhy(g, m, "already applied",
					templates.Notice{Kind: "why-already-applied", At: e.Time, Entry: e.Seq}))
			}
			return s.answer(g, ref, "refused: stale", s.refusedMail(g, m, []store.Problem{*p}))
		}
	}
	rec, err := loadRecord(*g)
	if err != nil {
		return err
	}
	if rec.Settle > 0 && !sys.Immediate(o) {
		if st == nil {
			if st, err = s.positionOf(g); err != nil {
				return err
			}
		}
		if ps := sys.Check(st, o); len(ps) > 0 {
			return s.answer(g, ref, "refused: illegal", s.refusedMail(g, m, ps))
		}
		return s.hold(g.ID, ref, m, side, raw, now)
	}
	return s.applyMail(g.ID, ref, m, o, raw, now)
}

// applyMail applies the orders o of the file raw in one transaction with
// the mail m that carried them; orders the step refuses are answered,
// within the sender's budget.
func (s *Service) applyMail(id string, ref store.MailRef, m *Message, o adjudicator.Orders, raw []byte, now time.Time) error {
	lg := s.log.With("message_id", ref.MessageID, "game", id, "side", o.Answering().Side.String())
	_, err := s.transact(id, &ref, func(t *store.Txn) error {
		rec, err := loadRecord(t.Game())
		if err != nil {
			return err
		}
		err = s.step(t, rec, store.Step{Orders: o, Raw: raw, Received: now, Mail: &ref}, now, m, nil)
		var refused *store.RefusedError
		if errors.As(err, &refused) {
			lg.Info("orders refused", "err", refused)
			t.Outcome("refused: " + refused.Err.Error())
			gm := t.Game()
			if ok, note, err := s.budget(t.Spend, &gm, m.From, true); err != nil || !ok {
				t.Queue(note...)
				return err
			}
			t.Queue(s.refusedMail(&gm, m, refused.Problems))
			return nil
		}
		return err
	})
	if err == nil {
		lg.Info("orders applied")
	}
	return err
}

// registered reports whether address is side's in g.
func registered(g *store.Game, side adjudicator.Side, address string) bool {
	p, ok := g.Player(side)
	return ok && sameAddress(p.Address, address)
}

// problemsOf turns the orders package's errors into problems for a reply.
func problemsOf(err error) []store.Problem {
	var errs orders.Errors
	if !errors.As(err, &errs) {
		return []store.Problem{{Msg: why("unreadable").Text()}}
	}
	out := make([]store.Problem, len(errs))
	for i, e := range errs {
		out[i] = store.Problem{Line: e.Line, Col: e.Col, Msg: e.Msg}
	}
	return out
}

// sameFile returns the entry in force that applied side's file raw
// (redacted), if any: the same orders sent again under a new Message-ID.
func (s *Service) sameFile(id string, side adjudicator.Side, raw []byte) *store.LogEntry {
	log, err := s.db.Log(id, 1)
	if err != nil {
		return nil
	}
	sum := sha256.Sum256(raw)
	h := hex.EncodeToString(sum[:])
	for i := len(log) - 1; i >= 0; i-- {
		if e := log[i]; e.Kind == store.KindOrders && e.RolledBackBy == 0 && e.Side == side && e.RawSHA256 == h {
			return &e
		}
	}
	return nil
}

// hold keeps a legal orders file for the settle window: it is applied when
// the window closes, at once with "go", or replaced by a newer file.
func (s *Service) hold(id string, ref store.MailRef, m *Message, side adjudicator.Side, raw []byte, now time.Time) error {
	_, err := s.transact(id, &ref, func(t *store.Txn) error {
		g := t.Game()
		rec, err := loadRecord(g)
		if err != nil {
			return err
		}
		replaced := ""
		if old := rec.Held; old != nil {
			if err := t.Amend(old.ref(), "replaced by "+ref.MessageID); err != nil {
				return err
			}
			replaced = old.MessageID
		}
		due := now.Add(rec.Settle)
		rec.Held = &held{Side: side, Raw: raw, MessageID: ref.MessageID, Content: ref.ContentHash, Received: now, Due: due}
		t.Outcome("held until " + due.Format(time.RFC3339))
		h := templates.Held{Game: g.ID, Waiting: s.sysOf(&g).Waiting(g.Wait, adjudicator.NoSide), Due: due, Replaced: replaced != ""}
		t.Queue(s.answerMail(&g, m, "held", h.Subject(), h.Text()))
		return rec.save(t)
	})
	if err == nil {
		s.log.Info("orders held", "message_id", ref.MessageID, "game", id, "side", side.String())
	}
	return err
}

// applyHeld applies the held file in t.
func (s *Service) applyHeld(t *store.Txn, rec *record, now time.Time) error {
	sys := s.sysIn(t)
	h := rec.Held
	o, err := sys.Read(h.Raw)
	if err != nil {
		return fmt.Errorf("referee: the held file of %s: %w", h.MessageID, err)
	}
	ref := h.ref()
	err = s.step(t, rec, store.Step{Orders: o, Raw: h.Raw, Received: h.Received, Mail: &ref}, now, nil, nil)
	var refused *store.RefusedError
	if errors.As(err, &refused) {
		// The game moved on since the file was judged (the umpire forced
		// or rolled back): the file is dropped and its sender told.
		if err := t.Amend(ref, "dropped: "+refused.Error()); err != nil {
			return err
		}
		g := t.Game()
		if m, ok := s.toSide(&g, h.Side, "refused", templates.HeldRefusedSubject, dropped(sys, &g, refused.Problems, h.Raw)); ok {
			m.InReplyTo = h.MessageID
			t.Queue(m)
		}
		rec.Held = nil
		return rec.save(t)
	}
	return err
}

// head writes what comes above side's report after a step, from the
// game's record after it; empty for nothing.
type head func(side adjudicator.Side, g *store.Game) string

// step applies orders in t, then what follows: the next deadline, the
// reports to every side headed by what heads writes (for the sender of
// the file, its acceptance), a takeback lapsed, and the end when the rules
// end the game. in is the message that carried the orders, nil for the
// server's or held ones. A *store.RefusedError leaves t untouched.
func (s *Service) step(t *store.Txn, rec *record, st store.Step, now time.Time, in *Message, heads head) error {
	sys := s.sysIn(t)
	if !rec.botting {
		rec.accepted = nil // none is held across transactions
	}
	out, err := t.Apply(st, sys)
	if err != nil {
		return err
	}
	if h := rec.Held; h != nil && (st.Mail == nil || *st.Mail != h.ref()) {
		if err := t.Amend(h.ref(), "dropped: other orders were applied"); err != nil {
			return err
		}
	}
	rec.Held, rec.Reminded, rec.NoDefault = nil, false, false
	if tb := rec.Takeback; tb != nil {
		n := templates.Notice{Kind: "takeback-moved-on", Side: tb.By}
		if _, err := t.Note(adjudicator.NoSide, n.Text(), false); err != nil {
			return err
		}
		rec.notice(n)
		rec.Takeback = nil
	}
	over := out.Entry.Next.Over()
	g := t.Game()
	if !over {
		t.SetDeadline(rec.deadline(&g, g.Wait, now))
		g = t.Game()
	}
	state, events := out.State, splitEvents(out.Entry.Events)
	turn, filer := state.Wait().Turn, adjudicator.NoSide
	if st.Mail != nil {
		// The player whose file it was reads first that it was accepted
		// and what comes next: above its report when one follows at once,
		// else in a few lines of their own.
		side := st.Orders.Answering().Side
		filer = side
		held, standing := sys.Accepted(st.Orders, out.Entry.Wait)
		a := templates.Accepted{Game: g.ID, Side: side, Turn: out.Entry.Turn, Wait: out.Entry.Wait,
			Date: sys.Date(out.Entry.Turn), Held: held, Standing: standing, Next: sys.Waiting(g.Wait, side),
			Awaited: !over && g.Wait.Open() && g.Wait.Side == side, Over: over, Head: g.Head}
		switch {
		case over || rec.afterStep(side, g.Wait, side, turn) != deliverAck:
		case rec.isBot(g.Wait.Side):
			// The stand-in answers at once, in this transaction: the
			// acceptance heads the player's next report, or comes on its
			// own after the stand-in's turn (flushAccepted).
			rec.accepted = &pendingAccept{a: a, in: in}
		default:
			s.queueAccepted(t, &g, a, in)
		}
		others := heads
		heads = func(to adjudicator.Side, g *store.Game) string {
			if to == side {
				return a.Text()
			}
			if others != nil {
				return others(to, g)
			}
			return ""
		}
	}
	if over {
		return s.finish(t, rec, state, events, sys.Summary(state), in, heads)
	}
	deliver := func(side adjudicator.Side) bool { return rec.afterStep(side, g.Wait, filer, turn) == deliverReport }
	if err := s.queueReports(t, &g, rec, state, events, in, heads, deliver); err != nil {
		return err
	}
	rec.Notices = nil
	if err := rec.save(t); err != nil {
		return err
	}
	if err := s.botPlays(t, rec, now); err != nil {
		return err
	}
	if p := rec.accepted; p != nil && !rec.botting {
		// The stand-in's turn is over and the player got no report.
		rec.accepted = nil
		if g := t.Game(); g.Status != store.Ended {
			s.queueAccepted(t, &g, p.a, p.in)
		}
	}
	return nil
}

// pendingAccept is the acceptance of a player's file held while the
// stand-in answers the next waits in the same transaction.
type pendingAccept struct {
	a  templates.Accepted
	in *Message
}

// queueAccepted mails a's player its acceptance on its own, a few lines
// in reply to in.
func (s *Service) queueAccepted(t *store.Txn, g *store.Game, a templates.Accepted, in *Message) {
	a.Alone = true
	if m, ok := s.toSide(g, a.Side, "accepted", a.Subject(), a.Text()); ok {
		t.Queue(reply(m, in))
	}
}

// queueReports queues to each side that deliver names (nil: every side)
// its report of the position st, telling what happened since its last
// report, headed by what heads writes (nil: nothing); the others keep
// their notices for their next report. evs are the events of the entry
// in force, which a picture outlines.
func (s *Service) queueReports(t *store.Txn, g *store.Game, rec *record, st adjudicator.Position, evs []json.RawMessage, in *Message, heads head,
	deliver func(adjudicator.Side) bool) error {
	var to []adjudicator.Side
	for _, side := range sides {
		if deliver != nil && !deliver(side) {
			if p, ok := g.Player(side); ok && p.Address != "" {
				rec.keepUnread(side)
			}
			continue
		}
		to = append(to, side)
	}
	log, err := logSince(t, rec, to...)
	if err != nil {
		return err
	}
	var reqs []reportReq
	for _, side := range to {
		q := reportReq{side: side, kind: "report-" + side.String(), evs: eventsSince(log, rec.Reported[side])}
		if heads != nil {
			q.before = heads(side, g)
		}
		if p := rec.accepted; p != nil && p.a.Side == side {
			// The acceptance held while the stand-in played heads the
			// report that follows it, in reply to the player's file.
			q.before, q.reply, rec.accepted = strings.TrimSpace(p.a.Text()+"\n"+q.before), p.in, nil
		}
		reqs = append(reqs, q)
	}
	return s.queueReportMails(t, g, rec, st, len(evs) > 0, reqs, in, nil)
}

// queueReportMails queues the reports reqs ask for, each threaded to in
// when it goes to in's sender, its attachments led by first.
func (s *Service) queueReportMails(t *store.Txn, g *store.Game, rec *record, st adjudicator.Position, drawn bool, reqs []reportReq,
	in *Message, first []store.Attachment) error {
	ms, err := s.reportMails(g, rec, st, drawn, reqs)
	if err != nil {
		return err
	}
	for i, r := range ms {
		if !r.ok {
			continue
		}
		m, from := r.mail, in
		if reqs[i].reply != nil {
			from = reqs[i].reply
		}
		if from != nil && registered(g, r.side, from.From) {
			m = reply(m, from)
		}
		if first != nil {
			m.Attachments = append(slices.Clone(first), m.Attachments...)
		}
		t.Queue(m)
	}
	return nil
}

// finish ends the game in t and queues the final reports with the seed,
// the dice luck, the export and the replay page, each headed by what
// heads writes and threaded to in, the mail that ended the game.
func (s *Service) finish(t *store.Txn, rec *record, st adjudicator.Position, evs []json.RawMessage, result string, in *Message, heads head) error {
	sys := s.sysIn(t)
	if _, err := t.End(result); err != nil {
		return err
	}
	rec.Result, rec.Held, rec.Takeback = result, nil, nil
	x, err := t.Export(false)
	if err != nil {
		return err
	}
	// A system may carry what the audit needs besides the log (Island
	// War: an operator's scenario file).
	if c, ok := sys.(interface{ Carry(*store.Export) error }); ok {
		if err := c.Carry(x); err != nil {
			return err
		}
	}
	// What the final reports carry is made from the export once each:
	// its luck (for the reports and the page), its JSON as attu export
	// writes it, gzip-compressed, and the replay page, one replay of the game. The record
	// is the store's own, so it is not audited again.
	luck := x.Luck(sys)
	bundle, err := x.GzipJSON()
	if err != nil {
		return err
	}
	page := s.replayAttachments(sys, x, rec.Name, luck)
	g := t.Game()
	export := "attu-" + g.ID + ".json.gz"
	log, err := logSince(t, rec, sides...)
	if err != nil {
		return err
	}
	reqs := make([]reportReq, len(sides))
	for i, side := range sides {
		f := final(sys, &g, rec.Name, st, result, export, luck)
		before := f.Text()
		if heads != nil {
			if h := heads(side, &g); h != "" {
				before = h + "\n" + before
			}
		}
		reqs[i] = reportReq{side: side, kind: "final-" + side.String(), subject: f.Subject(), before: before,
			evs: eventsSince(log, rec.Reported[side]), always: true}
	}
	first := append([]store.Attachment{{Name: export, Type: "application/gzip", Data: bundle}}, page...)
	if err := s.queueReportMails(t, &g, rec, st, len(evs) > 0, reqs, in, first); err != nil {
		return err
	}
	rec.Notices = nil
	s.log.Info("game over", "game", g.ID, "result", result)
	if err := rec.save(t); err != nil {
		return err
	}
	return s.ended(t)
}
