package referee

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// The stand-in (package adjudicator/wind/standin) plays a side the server
// holds: one created with "bot" for its address (attu new -jp bot), or
// handed over by the umpire (replace jp bot; back with replace jp
// ADDRESS). Such a side has no address and is mailed nothing; the record
// lists it (record.Bots). Whenever a step leaves the game waiting for it,
// the service writes the stand-in's orders as an ordinary order file and
// applies it in the same transaction, until the game waits for a person
// or ends. A solitaire game (rule 13) is one whose Japanese are the
// stand-in's. The stand-in decides from its side's View and Outlook only,
// with choices drawn from the game's seed and the entry its file becomes
// (botSeed), so an audit can replay them once the seed is revealed.

// Bot is the word that names the stand-in where a player's address is
// given.
const Bot = "bot"

// IsBot reports whether addr names the stand-in rather than a person.
func IsBot(addr string) bool { return strings.EqualFold(strings.TrimSpace(addr), Bot) }

// maxBotSteps bounds the steps the stand-in takes in one go; a refit turn
// is at most a decision, refit orders and actions in a row.
const maxBotSteps = 16

func (r *record) isBot(side adjudicator.Side) bool { return slices.Contains(r.Bots, side) }

// setBot records whether the stand-in plays side.
func (r *record) setBot(side adjudicator.Side, on bool) {
	r.Bots = slices.DeleteFunc(r.Bots, func(s adjudicator.Side) bool { return s == side })
	if on {
		r.Bots = append(r.Bots, side)
		slices.Sort(r.Bots)
	}
}

// botSeed is the stand-in's seed for the file that becomes log entry
// entry: SeedDraw over "standin" and the entry number.
func botSeed(seed []byte, entry uint64) uint64 { return SeedDraw(seed, "standin", entry) }

// botPlays answers in t every wait of the stand-in's side until the game
// waits for a person, ends or is paused (the flag stops the recursion).
func (s *Service) botPlays(t *store.Txn, rec *record, now time.Time) error {
	if rec.botting || len(rec.Bots) == 0 {
		return nil
	}
	rec.botting = true
	defer func() { rec.botting = false }()
	for range maxBotSteps {
		g := t.Game()
		if g.Status != store.Active || !g.Wait.Open() || !rec.isBot(g.Wait.Side) {
			return nil
		}
		err := s.applyStandIn(t, rec, now, nil)
		var refused *store.RefusedError
		if errors.As(err, &refused) {
			// Trim judged the file on this very position, so this does not
			// happen; should it, the default orders stand, as for a
			// missed deadline.
			s.log.Error("the stand-in's orders refused", "game", g.ID, "err", refused)
			err = s.applyDefault(t, rec, now, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// botSides are the sides ng gives the stand-in.
func botSides(ng NewGame) []adjudicator.Side {
	var out []adjudicator.Side
	if IsBot(ng.US) {
		out = append(out, adjudicator.US)
	}
	if IsBot(ng.JP) {
		out = append(out, adjudicator.JP)
	}
	return out
}

// botOpening has the stand-in answer the first waits of a game just
// created (the Japanese setup of 12.4), and returns the game after them.
func (s *Service) botOpening(id string, now time.Time) (*store.Game, error) {
	_, err := s.transact(id, nil, func(t *store.Txn) error {
		rec, err := loadRecord(t.Game())
		if err != nil {
			return err
		}
		return s.botPlays(t, rec, now)
	})
	if err != nil {
		return nil, fmt.Errorf("referee: the stand-in's opening orders: %w", err)
	}
	return s.db.Game(id)
}

// replaceBot hands side to the stand-in ("replace jp bot") as cmdReplace
// hands it to a person; if the game waits for that side, the stand-in
// answers at once.
func (c *call) replaceBot(side adjudicator.Side) error {
	if c.rec.isBot(side.Enemy()) {
		return refuse("bot-both", templates.Notice{Other: side.Enemy()})
	}
	token, err := store.NewToken()
	if err != nil {
		return err
	}
	old, _ := c.g.Player(side)
	c.t.SetPlayer(side, "", token)
	c.rec.setBot(side, true)
	n := templates.Notice{Kind: "replace-bot", Other: side}
	if err := c.note(n); err != nil {
		return err
	}
	c.handedOver(side, old.Address, "", n)
	c.say("you-replace-bot", templates.Notice{Other: side})
	if err := c.rec.save(c.t); err != nil {
		return err
	}
	if c.g.Status != store.Active {
		return nil
	}
	err = c.s.botPlays(c.t, c.rec, c.now)
	c.refresh()
	return err
}

// botDue has the stand-in answer a wait of its side that no step led to:
// after a rollback to a position where it is to play, or a game resumed.
func (s *Service) botDue(id string, now time.Time) error {
	return s.due(id, func(t *store.Txn, g *store.Game, rec *record) error {
		if !g.Wait.Open() || !rec.isBot(g.Wait.Side) {
			return nil
		}
		return s.botPlays(t, rec, now)
	})
}

// standInWhat names the stand-in's orders where a notice names the
// orders applied for a missed deadline.
const standInWhat = "orders written by attu's stand-in"

// applyStandIn applies in t the stand-in's orders for the current wait,
// the reports headed by what heads writes: for a stand-in's side, or for
// a late side's one wait (NewGame.LateStandIn).
func (s *Service) applyStandIn(t *store.Txn, rec *record, now time.Time, heads head) error {
	return s.applyFile(t, rec, now, heads, func(g store.Game, st adjudicator.Position) ([]byte, adjudicator.Orders, error) {
		return s.sysOf(&g).StandIn(g.ID, st, botSeed(g.Seed, g.Entries+1))
	})
}
