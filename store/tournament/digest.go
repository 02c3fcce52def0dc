package tournament

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

// digestDue returns when the last digest at or before now was due, in
// the umpire's time zone; zero before the first.
func (t *Tournament) digestDue(now time.Time) time.Time {
	loc := zone(t.File.Umpire.TimeZone)
	var h, m int
	fmt.Sscanf(t.File.Digest, "%d:%d", &h, &m)
	local := now.In(loc)
	due := time.Date(local.Year(), local.Month(), local.Day(), h, m, 0, 0, loc)
	if due.After(now) {
		due = time.Date(local.Year(), local.Month(), local.Day()-1, h, m, 0, 0, loc)
	}
	if due.Before(t.Created) {
		return time.Time{}
	}
	return due.UTC()
}

// digest mails the umpire's digest when one is due and was not sent:
// the record says when the last was due, and is written in the same
// transaction as the mail, so a restart sends none twice and a day the
// server was down is made up by one digest, not several. A digest the
// umpire asked for by mail is sent too, in reply to that mail.
func (d *Director) digest(s *referee.Service, id string, now time.Time) error {
	t, err := Load(s.DB(), id)
	if err != nil {
		return err
	}
	due := t.digestDue(now)
	daily := !due.IsZero() && due.After(t.Digest) && (t.Over.IsZero() || !t.Digest.After(t.Over))
	if !daily && len(t.Asked) == 0 {
		return nil
	}
	dg, err := d.digestOf(s, t, now)
	if err != nil {
		return err
	}
	return s.DB().UpdateShelf(ShelfName, func(sh *store.Shelf) error {
		var cur Tournament
		if _, err := sh.Get("t/"+id, &cur); err != nil {
			return err
		}
		var out []store.Mail
		if daily && due.After(cur.Digest) {
			cur.Digest = due
			d.log().Info("digest", "tournament", id, "due", due)
			out = append(out, store.Mail{MessageID: t.messageID("digest." + due.Format("20060102T1504")), To: []string{t.File.Umpire.Address},
				Subject: dg.Subject(), Text: dg.Text()})
		}
		// Only the requests this digest was made for are answered: one
		// that came in meanwhile waits for the next tick.
		for _, a := range cur.Asked {
			if !slices.Contains(t.Asked, a) {
				continue
			}
			asked := dg
			asked.Asked = true
			m := store.Mail{MessageID: t.messageID("digest.asked." + a.At.Format("20060102T150405.000000000")), To: []string{t.File.Umpire.Address},
				Subject: asked.Subject(), Text: asked.Text()}
			if a.MessageID != "" {
				m.InReplyTo, m.References = a.MessageID, []string{a.MessageID}
			}
			d.log().Info("digest asked", "tournament", id, "message_id", a.MessageID)
			out = append(out, m)
		}
		cur.Asked = slices.DeleteFunc(cur.Asked, func(a Ask) bool { return slices.Contains(t.Asked, a) })
		if len(out) == 0 {
			return nil // sent meanwhile
		}
		if err := sh.Put("t/"+id, &cur); err != nil {
			return err
		}
		return sh.Queue(out...)
	})
}

// Digest records the umpire's command "digest", sent to game tx.Game()
// (referee.Hook): the next Tick mails the digest in reply to messageID.
func (d *Director) Digest(tx *store.Txn, messageID string) (bool, error) {
	sh, t, err := gameTournament(tx, tx.Game().ID)
	if t == nil {
		return false, err
	}
	t.Asked = append(t.Asked, Ask{MessageID: messageID, At: tx.Now()})
	return true, sh.Put("t/"+t.ID(), t)
}

// digestOf gathers the umpire's digest of t as of now (see the package
// documentation), each game read from the game service, which the umpire
// may see all of.
func (d *Director) digestOf(s *referee.Service, t *Tournament, now time.Time) (templates.Digest, error) {
	f := &t.File
	v := d.voice(t)
	dg := templates.Digest{Tournament: t.ID(), Name: f.Name, Time: now, Zone: zone(f.Umpire.TimeZone),
		Rounds: len(f.Rounds), Over: !t.Over.IsZero(), Auto: f.Advance == AdvanceAuto, Standings: t.standings(v, "", "")}
	if r := t.current(); r != nil {
		dg.Round = r.Number
	}
	late := map[string]map[string]int{} // player → game → missed
	who := func(g *Game, side adjudicator.Side) string {
		if side == adjudicator.US {
			return g.US
		}
		return g.JP
	}
	for _, r := range t.Rounds {
		for i := range r.Games {
			g := &r.Games[i]
			if res := g.Result; res != nil {
				if res.counts() {
					for side, n := range res.Late {
						if name := who(g, side); n > 0 {
							if late[name] == nil {
								late[name] = map[string]int{}
							}
							late[name][g.ID] += n
						}
					}
				}
				if res.Ended.After(t.Digest) {
					dg.Ended = append(dg.Ended, templates.DigestEnded{Game: g.ID, Round: r.Number, US: g.US, JP: g.JP,
						Result: resultText(g, v.rule) + ". " + upper(res.Words) + ".", Ended: res.Ended})
				}
				continue
			}
			dgm := templates.DigestGame{Game: g.ID, Round: r.Number, US: g.US, JP: g.JP}
			if !g.Created {
				dgm.Waiting = "its creation: attu creates it at the next tick"
				dg.Games = append(dg.Games, dgm)
				continue
			}
			w, err := s.Watch(g.ID)
			if err != nil {
				return dg, err
			}
			if w.Status == store.Ended {
				// Ended, not yet scored: the next tick scores it.
				dg.Ended = append(dg.Ended, templates.DigestEnded{Game: g.ID, Round: r.Number, US: g.US, JP: g.JP,
					Result: upper(w.Result) + " (to be scored at the next tick).", Ended: now})
				continue
			}
			dgm.Waiting = waiting(s, w)
			for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
				if n := w.Late[side]; n > 0 {
					dgm.Notes = append(dgm.Notes, fmt.Sprintf("%s has missed %s in this game so far", who(g, side), templates.Plural(n, "deadline")))
				}
			}
			if w.Wait.Open() {
				name := who(g, w.Wait.Side)
				dgm.From = fmt.Sprintf("%s, the %s player (%s)", name, referee.SideName(w.Wait.Side), w.Players[w.Wait.Side])
				if p, ok := f.player(name); ok {
					dgm.Zone = zone(p.TimeZone)
				}
				dgm.Deadline = w.Deadline
			}
			if w.Status == store.Paused {
				dgm.Notes = append(dgm.Notes, "paused by the umpire: no deadline runs")
				dg.Umpire = append(dg.Umpire, fmt.Sprintf("%s is paused: resume it when the matter is settled.", g.ID))
			}
			if w.Held != adjudicator.NoSide {
				dgm.Notes = append(dgm.Notes, fmt.Sprintf("%s's orders are held for the settle window until %s",
					who(g, w.Held), templates.DeadlineText(w.HeldDue, dg.Zone)))
			}
			for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
				if until, ok := w.Absent[side]; ok && until.After(now) {
					dgm.Notes = append(dgm.Notes, fmt.Sprintf("%s is away until %s", who(g, side), templates.DeadlineText(until, dg.Zone)))
				}
			}
			if w.TakebackBy != adjudicator.NoSide {
				dg.Umpire = append(dg.Umpire, fmt.Sprintf("%s: %s (%s) asks to take back the last step; %s may agree until %s.",
					g.ID, who(g, w.TakebackBy), referee.SideName(w.TakebackBy), who(g, w.TakebackBy.Enemy()), templates.DeadlineText(w.TakebackExpires, dg.Zone)))
			}
			if w.Stuck {
				dg.Umpire = append(dg.Umpire, fmt.Sprintf("%s: %s let the deadline of %s pass, and that wait has no default orders: extend the deadline or roll back.",
					g.ID, who(g, w.Wait.Side), waiting(s, w)))
			}
			dg.Games = append(dg.Games, dgm)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(late)) {
		var games []string
		total := 0
		for g, n := range late[name] {
			total += n
			games = append(games, fmt.Sprintf("%s (%d)", g, n))
		}
		sort.Strings(games)
		dg.Late = append(dg.Late, templates.DigestLate{Player: name, Missed: total, Where: strings.Join(games, ", ")})
	}
	sort.SliceStable(dg.Late, func(i, j int) bool { return dg.Late[i].Missed > dg.Late[j].Missed })
	sort.SliceStable(dg.Ended, func(i, j int) bool { return dg.Ended[i].Ended.Before(dg.Ended[j].Ended) })
	return dg, nil
}

// upper capitalises the first letter of s.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Status is what attu tournament status prints: the standings, or with
// verbose the umpire's digest as of now.
func (d *Director) Status(s *referee.Service, id string, verbose bool, now time.Time) (string, error) {
	t, err := Load(s.DB(), id)
	if err != nil {
		return "", err
	}
	if !verbose {
		return t.standings(d.voice(t), "", "").Text(), nil
	}
	dg, err := d.digestOf(s, t, now.UTC())
	if err != nil {
		return "", err
	}
	return dg.Text(), nil
}

// waiting says what game w waits for, in its system's words, or that
// the server does not host its system.
func waiting(s *referee.Service, w *referee.Watch) string {
	if sys, err := s.SystemNamed(w.System); err == nil {
		return sys.Waiting(w.Wait, adjudicator.NoSide)
	}
	return w.Waiting
}
