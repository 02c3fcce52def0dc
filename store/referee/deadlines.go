package referee

import (
	"errors"
	"fmt"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// applyDefault applies the default orders of the current wait in t, the
// reports headed by what heads writes.
func (s *Service) applyDefault(t *store.Txn, rec *record, now time.Time, heads head) error {
	return s.applyFile(t, rec, now, heads, func(g store.Game, st adjudicator.Position) ([]byte, adjudicator.Orders, error) {
		return s.sysOf(&g).DefaultFile(g.ID, st, "the default orders")
	})
}

// applyFile applies in t the orders file the server writes with file for
// the position in force, the reports headed by what heads writes.
func (s *Service) applyFile(t *store.Txn, rec *record, now time.Time, heads head, file func(store.Game, adjudicator.Position) ([]byte, adjudicator.Orders, error)) error {
	st, err := s.positionIn(t)
	if err != nil {
		return err
	}
	raw, o, err := file(t.Game(), st)
	if err != nil {
		return err
	}
	err = s.step(t, rec, store.Step{Orders: o, Raw: raw, Received: now}, now, nil, heads)
	return err
}

// Tick does everything that time brings, as of now: the stand-in's
// waits answered, held orders applied, takeback requests lapsed, the
// awaited player reminded, and at a deadline the default orders applied,
// the lateness recorded and every side told. Each is one transaction that
// checks again from what is stored that it is due, so Tick may be called
// as often as wanted, and after a restart. Paused and ended games are
// left alone. It looks only at the games the store's due index says are
// due by now (store.DB.Due), each of which the service keeps at the
// earliest time anything may be due in it (nextDue).
func (s *Service) Tick(now time.Time) (err error) {
	// The hook runs last, after the unlock below, so that it may call
	// the service.
	defer func() { err = errors.Join(err, s.tickHook(now)) }()
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.UTC()
	ids, err := s.db.Due(now)
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		g, err := s.db.Game(id)
		if err != nil {
			errs = append(errs, fmt.Errorf("game %s: %w", id, err))
			continue
		}
		if _, err := s.SystemOf(g); err != nil {
			// Left as it is, never played by another system's rules.
			s.log.Warn("tick: game left alone", "game", id, "system", g.SystemName(), "err", err)
			continue
		}
		for _, due := range []func(string, time.Time) error{s.botDue, s.settle, s.lapse, s.missed, s.remind, s.digest} {
			if err := due(id, now); err != nil {
				s.log.Error("tick", "game", id, "err", err)
				errs = append(errs, fmt.Errorf("game %s: %w", id, err))
				break
			}
		}
	}
	return errors.Join(errs...)
}

// nextDue is the earliest time anything of Tick may be due in game g,
// whose service record is rec; zero for never. It is no later than the
// first time one of botDue, settle, lapse, missed, remind and digest has
// something to do (each checks more): a wait of the stand-in's at once,
// held orders at the end of the settle window or at the deadline, a
// takeback request when it expires, the reminder and the deadline, and
// the umpire's digest.
func nextDue(g *store.Game, rec *record) time.Time {
	if g.Status != store.Active {
		return time.Time{}
	}
	var at time.Time
	earliest := func(t time.Time) {
		if !t.IsZero() && (at.IsZero() || t.Before(at)) {
			at = t
		}
	}
	open := g.Wait.Open()
	if open && rec.isBot(g.Wait.Side) {
		earliest(g.Created) // at once: any time already past
	}
	if h := rec.Held; h != nil {
		earliest(h.Due)
		earliest(g.Deadline)
	}
	if tb := rec.Takeback; tb != nil {
		earliest(tb.Expires)
	}
	if open && !g.Deadline.IsZero() {
		if !rec.Reminded {
			earliest(g.Deadline.Add(-reminder(g)))
		}
		earliest(g.Deadline)
	}
	if rec.copies() == CopiesDigest && rec.Reported[adjudicator.Umpire] < g.Current {
		earliest(rec.DigestAt.Add(DigestEvery))
	}
	return at
}

// transact runs fn on game id as store.DB.Transact does, and keeps the
// game's place in the due index (nextDue) in the same transaction, from
// what fn left of the game and its record.
func (s *Service) transact(id string, ref *store.MailRef, fn func(t *store.Txn) error) (store.Receipt, error) {
	return s.db.Transact(id, ref, func(t *store.Txn) error {
		if err := fn(t); err != nil {
			return err
		}
		g := t.Game()
		rec, err := loadRecord(g)
		if err != nil {
			return err
		}
		t.SetDue(nextDue(&g, rec))
		return nil
	})
}

// due runs fn in a transaction on a running game when when says it is
// due; fn must leave the transaction as it was when it has nothing to do.
func (s *Service) due(id string, fn func(t *store.Txn, g *store.Game, rec *record) error) error {
	_, err := s.transact(id, nil, func(t *store.Txn) error {
		g := t.Game()
		if g.Status != store.Active {
			return nil
		}
		if _, err := s.SystemOf(&g); err != nil {
			return err
		}
		rec, err := loadRecord(g)
		if err != nil {
			return err
		}
		return fn(t, &g, rec)
	})
	return err
}

// settle applies held orders whose window closed, or whose deadline came
// first.
func (s *Service) settle(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		h := rec.Held
		if h == nil || now.Before(h.Due) && (g.Deadline.IsZero() || now.Before(g.Deadline)) {
			return nil
		}
		return s.applyHeld(t, rec, now)
	})
}

// lapse closes a takeback request nobody agreed to in time.
func (s *Service) lapse(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		tb := rec.Takeback
		if tb == nil || now.Before(tb.Expires) {
			return nil
		}
		n := templates.Notice{Kind: "takeback-lapsed", Side: tb.By, At: tb.Expires}
		if _, err := t.Note(adjudicator.NoSide, n.Text(), false); err != nil {
			return err
		}
		rec.Takeback = nil
		rec.notice(n)
		for _, side := range []adjudicator.Side{tb.By, tb.By.Enemy()} {
			s.notify(t, g, side, templates.PlayerNotice{Game: g.ID, Reader: side, Notice: n})
		}
		return rec.save(t)
	})
}

// missed applies the default orders of a wait whose deadline passed.
func (s *Service) missed(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		w := g.Wait
		if !w.Open() || g.Deadline.IsZero() || now.Before(g.Deadline) {
			return nil
		}
		what, ok := s.sysOf(g).Defaults(w.Kind)
		if !ok && !rec.LateStandIn {
			if rec.NoDefault {
				return nil
			}
			rec.NoDefault = true
			n := templates.Notice{Kind: "deadline-no-default", Side: w.Side, Turn: w.Turn, Wait: w.Kind, At: g.Deadline}
			if _, err := t.Note(adjudicator.NoSide, n.Text(), false); err != nil {
				return err
			}
			s.notify(t, g, adjudicator.Umpire, templates.PlayerNotice{Game: g.ID, Reader: adjudicator.Umpire, Notice: n})
			return rec.save(t)
		}
		rec.Late[w.Side]++
		apply := s.applyDefault
		if rec.LateStandIn {
			what, apply = standInWhat, s.applyStandIn
		}
		n := templates.Notice{Kind: "deadline-missed", Side: w.Side, Turn: w.Turn, Wait: w.Kind, At: g.Deadline,
			Applied: what, Missed: rec.Late[w.Side]}
		if _, err := t.Note(adjudicator.NoSide, n.Text(), false); err != nil {
			return err
		}
		rec.notice(n)
		s.log.Info("deadline missed", "game", id, "side", w.Side.String(), "wait", string(w.Kind))
		dp := templates.DeadlinePassed{Game: g.ID, Side: w.Side, Deadline: g.Deadline,
			Applied: what, Missed: rec.Late[w.Side]}
		told := rec.Reported[adjudicator.Umpire]
		err := apply(t, rec, now, func(side adjudicator.Side, after *store.Game) string {
			// Each reader learns of both waits only what it may: the
			// Japanese are not told whether the U.S. decides or acts.
			dp.Waiting, dp.Next = s.sysOf(g).Waiting(w, side), s.sysOf(g).Waiting(after.Wait, side)
			return dp.Text()
		})
		if err != nil || rec.Reported[adjudicator.Umpire] != told {
			// The umpire's report of the step, headed as the players'
			// are, told of it.
			return err
		}
		// The umpire's copies (a digest, one report a turn) brought no
		// report of this step: a missed deadline is told at once anyway,
		// as the umpire's welcome promises.
		after := t.Game()
		s.notify(t, &after, adjudicator.Umpire, templates.PlayerNotice{Game: g.ID, Reader: adjudicator.Umpire, Notice: n})
		return nil
	})
}

// remind mails the awaited player once, Reminder before the deadline.
func (s *Service) remind(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		w := g.Wait
		if !w.Open() || rec.Reminded || g.Deadline.IsZero() || now.Before(g.Deadline.Add(-reminder(g))) || !now.Before(g.Deadline) {
			return nil
		}
		st, err := s.positionIn(t)
		if err != nil {
			return err
		}
		// The reminder carries the order template again, made from the
		// awaited side's own report.
		name, body, hasTemplate := s.sysOf(g).Template(s.reportFor(g, rec, st, w.Side, nil))
		r := templates.Reminder{Game: g.ID, Side: w.Side, Waiting: s.sysOf(g).Waiting(w, adjudicator.NoSide), Deadline: g.Deadline, Words: s.sysOf(g).Words(),
			Left: g.Deadline.Sub(now), Template: name}
		if m, ok := s.toSide(g, w.Side, "reminder", r.Subject(), r.Text()); ok {
			if hasTemplate {
				m.Attachments = []store.Attachment{{Name: name, Type: "application/yaml", Data: []byte(body)}}
			}
			t.Queue(m)
		}
		rec.Reminded = true
		return rec.save(t)
	})
}
