package referee

// Hooks: how a client above the service — a tournament (package
// store/tournament) — follows its games without the service knowing what a
// tournament is. The hook sees a game only through the store's transaction
// and the views below, and changes nothing of how it is played.

import (
	"cmp"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// Hook follows the service's games for a client above them. Each method
// must be idempotent: after a crash it may be called again for an event.
type Hook interface {
	// Ended is called inside the transaction that ends game t.Game(),
	// after its final reports: what it writes through t commits with the
	// end or not at all. It must not call the service or the DB.
	Ended(t *store.Txn, e Ending) error
	// Standings answers side's command "standings" in game t.Game();
	// empty when the game is no part of what the hook follows.
	Standings(t *store.Txn, side adjudicator.Side) (string, error)
	// Digest takes the umpire's command "digest" of the game t.Game(), to
	// answer the mail messageID after a Tick; false as for Standings.
	Digest(t *store.Txn, messageID string) (bool, error)
	// NextRound begins the next round at the umpire's command "next" to
	// game t.Game(), in t, and returns the answer; why says why not, and
	// both are empty when the game is no part of what the hook follows.
	NextRound(t *store.Txn) (answer, why string, err error)
	// Tick is called at the end of every Service.Tick, outside the
	// service's lock, so it may call the service (Create, Watch).
	Tick(s *Service, now time.Time) error
}

// How a game ended (Ending.How).
const (
	EndedByRules      = "rules"
	EndedByConcession = "concession"
	EndedByUmpire     = "umpire"
)

// Ending is how a game ended, for a hook to score it.
type Ending struct {
	Game string
	// Winner is the side that won; NoSide for a draw, or when the umpire
	// ended the game naming neither a winner nor a draw (Void).
	Winner adjudicator.Side
	Void   bool
	How    string                   // EndedByRules, EndedByConcession or EndedByUmpire
	Level  string                   // "U.S. minor victory" and such when the chits decided (14.0)
	Grade  adjudicator.Grade        // how decisive that victory is, by the system's table
	Result string                   // in the final report's words
	Turn   int                      // the turn the game ended in
	Time   time.Time                // when it ended
	Late   map[adjudicator.Side]int // each side's missed deadlines
}

// EndingOf reads how the game of t ended: by the rules; by a player's
// concession; or by the umpire, the first word of whose result ("end us",
// "end jp", "end draw") names the winner or a draw, anything else leaving
// the game void. It fails when the game has not ended.
func EndingOf(sys System, t *store.Txn) (Ending, error) {
	g := t.Game()
	if g.Status != store.Ended {
		return Ending{}, fmt.Errorf("referee: game %s has not ended", g.ID)
	}
	rec, err := loadRecord(g)
	if err != nil {
		return Ending{}, err
	}
	b, err := t.Position()
	if err != nil {
		return Ending{}, err
	}
	st, err := sys.Position(b)
	if err != nil {
		return Ending{}, err
	}
	log, err := t.Log()
	if err != nil {
		return Ending{}, err
	}
	e := Ending{Game: g.ID, Result: rec.Result, Turn: st.Wait().Turn, Late: maps.Clone(rec.Late)}
	// The end entry in force, and the entry in force before it.
	var end, before *store.LogEntry
	for i := len(log) - 1; i >= 0 && before == nil; i-- {
		switch le := &log[i]; {
		case le.RolledBackBy != 0:
		case end != nil:
			before = le
		case le.Kind == store.KindEnd:
			end = le
		}
	}
	if end == nil {
		return Ending{}, fmt.Errorf("referee: game %s has no end entry", g.ID)
	}
	e.Time, e.Result = end.Time, cmp.Or(e.Result, end.Note)
	switch {
	case sys.Decided(st):
		e.How = EndedByRules
		e.Level, e.Grade = sys.Level(st)
		e.Winner, _ = sys.Result(st)
	case before != nil && before.Kind == store.KindNote && (before.Side == adjudicator.US || before.Side == adjudicator.JP):
		e.How, e.Winner = EndedByConcession, before.Side.Enemy()
	default:
		e.How = EndedByUmpire
		e.Winner, e.Void = umpireResult(e.Result)
	}
	return e, nil
}

// umpireResult reads the winner from the umpire's words ("ended by the
// umpire: jp, the U.S. player left"); true when they name no result.
func umpireResult(result string) (adjudicator.Side, bool) {
	_, words, _ := strings.Cut(result, ":")
	f := strings.Fields(strings.ToLower(words))
	if len(f) == 0 {
		return adjudicator.NoSide, true
	}
	switch strings.Trim(f[0], ".,;:!") {
	case "us", "u.s", "usa":
		return adjudicator.US, false
	case "jp", "japan", "japanese":
		return adjudicator.JP, false
	case "draw":
		return adjudicator.NoSide, false
	}
	return adjudicator.NoSide, true
}

// ended tells the hook that the game of t ended, inside t.
func (s *Service) ended(t *store.Txn) error {
	if s.cfg.Hook == nil {
		return nil
	}
	e, err := EndingOf(s.sysIn(t), t)
	if err != nil {
		return err
	}
	return s.cfg.Hook.Ended(t, e)
}

// tickHook runs the hook's Tick after the service's own.
func (s *Service) tickHook(now time.Time) error {
	if s.cfg.Hook == nil {
		return nil
	}
	if err := s.cfg.Hook.Tick(s, now.UTC()); err != nil {
		s.log.Error("tick hook", "err", err)
		return err
	}
	return nil
}

// cmdStandings answers "standings" with the hook's table; a game of no
// tournament says so.
func cmdStandings(c *call) error {
	c.text = "This game is not part of a tournament: there are no standings.\n"
	if c.s.cfg.Hook == nil {
		return nil
	}
	text, err := c.s.cfg.Hook.Standings(c.t, c.side)
	c.text = cmp.Or(text, c.text)
	return err
}

// cmdDigest passes the umpire's "digest" to the hook, which answers it
// after the next Tick; a game of no tournament says so at once.
func cmdDigest(c *call) error {
	c.text = "This game is not part of a tournament: there is no digest.\n"
	if c.s.cfg.Hook == nil {
		return nil
	}
	id := ""
	if c.in != nil {
		id = c.in.MessageID
	}
	switch ok, err := c.s.cfg.Hook.Digest(c.t, id); {
	case err != nil || !ok:
		return err
	case c.in == nil:
		// From the command line the umpire reads the answer at once; by
		// mail the digest itself is the answer.
		c.text = "The digest goes to you by mail at the daemon's next tick; attu tournament status -v prints it now.\n"
	default:
		c.text = ""
	}
	return nil
}

// cmdNext passes the umpire's "next" to the hook, answered with the new
// round's pairings; a game of no tournament, or a tournament with no
// round left, refuses it.
func cmdNext(c *call) error {
	var text, why string
	var err error
	if c.s.cfg.Hook != nil {
		text, why, err = c.s.cfg.Hook.NextRound(c.t)
	}
	switch {
	case err != nil:
		return err
	case text == "":
		return refuse("tournament", templates.Notice{Note: cmp.Or(why, "this game is not part of a tournament")})
	}
	// The round is the tournament's record, not this game's.
	c.text, c.noted = text, true
	return nil
}

// Watch is one game as the umpire's digest shows it: its status, and what
// waits on people besides the deadline.
type Watch struct {
	GameStatus
	Players map[adjudicator.Side]string    // the sides' addresses
	Absent  map[adjudicator.Side]time.Time // until when each side said it is away
	// Held is the side whose file waits out the settle window until
	// HeldDue; TakebackBy asked to take back the last step, open until
	// TakebackExpires (NoSide for none).
	Held            adjudicator.Side
	HeldDue         time.Time
	TakebackBy      adjudicator.Side
	TakebackExpires time.Time
	Stuck           bool // the deadline passed at a wait without default orders: the umpire decides
}

// Watch returns what the umpire's digest says of game id.
func (s *Service) Watch(id string) (*Watch, error) {
	gs, g, rec, err := s.gameStatus(id)
	if err != nil {
		return nil, err
	}
	w := &Watch{GameStatus: gs, Players: map[adjudicator.Side]string{}, Absent: rec.Absent, Stuck: rec.NoDefault}
	for _, p := range g.Players {
		w.Players[p.Side] = p.Address
	}
	if h := rec.Held; h != nil {
		w.Held, w.HeldDue = h.Side, h.Due
	}
	if tb := rec.Takeback; tb != nil {
		w.TakebackBy, w.TakebackExpires = tb.By, tb.Expires
	}
	return w, nil
}
