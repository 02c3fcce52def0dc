package referee

import (
	"cmp"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
	"slices"
	"strings"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// NewGame is what a game is created with (attu new).
type NewGame struct {
	// System names the game system the game is played by, one the
	// service hosts (Service.SystemNames); empty is the service's
	// default (Config.System).
	System string
	// ID is the game's short id, used in its address and subject tag
	// (empty draws one); Name its human-readable name.
	ID, Name string
	// Scenario, JPSetup and USSetup create the game by the rules of setup
	// (rule 12): the scenario ("campaign" or a short one of
	// wind.ScenarioNames) and each side's setup, "historic" or
	// "free" (empty: the scenario's default); the game then waits for the
	// Japanese setup or the U.S. landing. When all three are empty the
	// units are placed by Setup instead.
	Scenario, JPSetup, USSetup string
	Setup                      string // how the units are placed by hand otherwise (Setups); empty is "historic"
	// US, JP and Umpire are the players' addresses; the umpire is
	// optional. Bot ("bot") for US or JP has the server's stand-in play
	// that side (standin.go).
	US, JP, Umpire string
	// Deadline is the time allowed for each wait, unless Deadlines says
	// otherwise for its kind; Reminder how long before it the awaited
	// player is reminded; Settle how long each orders file is held before
	// it is applied; Absence the longest a player may move their
	// deadlines with "absent". Zero is the default (none for Settle).
	Deadline, Reminder, Settle, Absence time.Duration
	Deadlines                           map[adjudicator.WaitKind]time.Duration
	LateStandIn                         bool               // the stand-in writes the orders of a side whose deadline passed, not the default ones
	JSON                                bool               // report.json goes with every side's reports
	NoSheet                             []adjudicator.Side // the sides mailed no order sheet (each may mail "sheet on")
	Copies                              string             // how the umpire is mailed (CopiesDigest when empty, economy.go)
	Rules                               []string           // the optional rules chosen (see Rules)
	Seed                                []byte             // the dice seed, nil to draw one, as a real game does
}

// setupPick is the stream the setup draws from: SeedDraw over "setup"
// and a counter.
func setupPick(seed []byte) func(n int) int {
	var ctr uint64
	return func(n int) int {
		if n <= 1 {
			return 0
		}
		v := SeedDraw(seed, "setup", ctr)
		ctr++
		return int(v % uint64(n))
	}
}

// SeedDraw is the first 8 bytes, big-endian, of HMAC-SHA256 keyed with
// a secret seed (a game's, a tournament's) over label and n (8 bytes,
// big-endian).
func SeedDraw(seed []byte, label string, n uint64) uint64 {
	mac := hmac.New(sha256.New, seed)
	mac.Write(binary.BigEndian.AppendUint64([]byte(label), n))
	return binary.BigEndian.Uint64(mac.Sum(nil))
}

// Created is a game just created, with its tokens in clear: the only time
// they exist outside the welcome mails.
type Created struct {
	Game   *store.Game
	Tokens map[adjudicator.Side]string
}

// Create creates a game: the seed and its commitment, the units placed,
// a secret token per side (only its hash is stored), the first deadline
// and the welcome mails, in one transaction.
func (s *Service) Create(ng NewGame, now time.Time) (*Created, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.UTC()
	mailbox := bareAddress(s.cfg.Address)
	sys, err := s.SystemNamed(ng.System)
	if err != nil {
		return nil, err
	}
	open, addr, err := s.prepare(sys, &ng, mailbox)
	if err != nil {
		return nil, err
	}
	// The opening is drawn here as Create will draw it, with the game's
	// first dice, so that the welcome mails can show it.
	opening, _, err := open.Start(store.NewDice(ng.Seed, 1, 1, 0, adjudicator.WaitNone))
	if err != nil {
		return nil, err
	}
	bots := botSides(ng)
	rec := &record{Name: ng.Name, Mailbox: mailbox, Deadlines: ng.Deadlines, Settle: ng.Settle, Absence: ng.Absence, Bots: bots,
		LateStandIn: ng.LateStandIn, Copies: ng.Copies, DigestAt: now}
	if ng.JSON {
		rec.JSON = map[adjudicator.Side]bool{adjudicator.US: true, adjudicator.JP: true, adjudicator.Umpire: true}
	}
	for _, side := range ng.NoSheet {
		if rec.NoSheet == nil {
			rec.NoSheet = map[adjudicator.Side]bool{}
		}
		rec.NoSheet[side] = true
	}
	tokens := map[adjudicator.Side]string{}
	var players []store.NewPlayer
	for _, side := range sides {
		if addr[side] == "" && !slices.Contains(bots, side) {
			continue
		}
		tok, err := store.NewToken()
		if err != nil {
			return nil, err
		}
		tokens[side] = tok
		players = append(players, store.NewPlayer{Side: side, Address: addr[side], Token: tok})
	}
	setups := sys.Setups(opening, open)
	opts := store.GameOptions{USSetup: setups[adjudicator.US], JPSetup: setups[adjudicator.JP], Rules: ng.Rules,
		Deadline: cmp.Or(ng.Deadline, DefaultDeadline), Reminder: cmp.Or(ng.Reminder, DefaultReminder)}
	nw := store.NewGame{Scenario: open.Scenario, Options: opts, Players: players, Seed: ng.Seed, Start: open.Start, Rules: sys}
	for try := 0; ; try++ {
		nw.ID = cmp.Or(ng.ID, newGameID())
		created, err := s.create(nw, rec, opening, now)
		if errors.Is(err, store.ErrGameExists) && ng.ID == "" && try < 10 {
			continue
		}
		if err != nil {
			return nil, err
		}
		s.log.Info("game created", "game", nw.ID, "scenario", nw.Scenario, "setup", ng.Setup)
		if len(bots) > 0 {
			if created, err = s.botOpening(nw.ID, now); err != nil {
				return nil, err
			}
		}
		for _, side := range bots {
			delete(tokens, side)
		}
		return &Created{Game: created, Tokens: tokens}, nil
	}
}

// create writes the game nw with its first deadline and welcome mails,
// which show opening, the position after entry 1.
func (s *Service) create(nw store.NewGame, rec *record, opening adjudicator.Position, now time.Time) (*store.Game, error) {
	g := &store.Game{ID: nw.ID, System: nw.Rules.System(), Scenario: nw.Scenario, Options: nw.Options, Commitment: store.Commitment(nw.Seed), Wait: opening.Wait(),
		Created: now, Current: 1}
	for _, p := range nw.Players {
		g.Players = append(g.Players, store.Player{Side: p.Side, Address: p.Address})
	}
	g.Deadline = rec.deadline(g, g.Wait, now)
	for _, p := range nw.Players {
		if p.Address == "" {
			continue // the stand-in's side: no one to welcome
		}
		m, err := s.welcomeMail(g, rec, opening, p.Side, p.Token, nil)
		if err != nil {
			return nil, err
		}
		nw.Outbox = append(nw.Outbox, m)
	}
	b, err := json.Marshal(rec) // with what the welcome mails reported
	if err != nil {
		return nil, err
	}
	stored := *g
	stored.Status = store.Active // as the store creates it
	nw.Deadline, nw.Service, nw.Due = g.Deadline, b, nextDue(&stored, rec)
	return s.db.Create(nw)
}

// prepare checks ng against the rules of creation, those of its system
// sys and the service's, fills its defaults in (the seed drawn when nil) and returns
// how the game begins and each side's bare address ("" for none and for
// the stand-in's side).
func (s *Service) prepare(sys System, ng *NewGame, mailbox string) (*adjudicator.Creation, map[adjudicator.Side]string, error) {
	if ng.Seed == nil {
		var err error
		if ng.Seed, err = store.NewSeed(); err != nil {
			return nil, nil, err
		}
	}
	ch := adjudicator.Choices{Scenario: ng.Scenario, Place: ng.Setup, Rules: ng.Rules,
		Setups: map[adjudicator.Side]string{adjudicator.US: ng.USSetup, adjudicator.JP: ng.JPSetup}}
	seed := ng.Seed
	open, err := sys.Open(ch, func() func(int) int { return setupPick(seed) })
	if err != nil {
		return nil, nil, fmt.Errorf("referee: %w", err)
	}
	if open.Server != adjudicator.NoSide {
		// The rules have the server play that side (a solitaire game).
		if p := ng.player(open.Server); p != "" && !IsBot(p) {
			return nil, nil, fmt.Errorf("referee: in a solitaire game attu plays the %s: give no %s player", SideName(open.Server), SideName(open.Server))
		}
		ng.setPlayer(open.Server, Bot)
	}
	addr := map[adjudicator.Side]string{adjudicator.US: bareAddress(ng.US), adjudicator.JP: bareAddress(ng.JP), adjudicator.Umpire: bareAddress(ng.Umpire)}
	bots := botSides(*ng)
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		if slices.Contains(bots, side) {
			addr[side] = ""
		} else if !strings.Contains(addr[side], "@") {
			return nil, nil, fmt.Errorf("referee: the %s player needs a mail address", SideName(side))
		}
	}
	switch {
	case ng.Umpire != "" && !strings.Contains(addr[adjudicator.Umpire], "@"):
		return nil, nil, fmt.Errorf("referee: %q is not a mail address", ng.Umpire)
	case ng.ID != "" && !mail.ValidGameID(ng.ID):
		return nil, nil, fmt.Errorf("referee: game id %q: use up to 32 lower-case letters, digits and dashes", ng.ID)
	case !strings.Contains(mailbox, "@"):
		return nil, nil, fmt.Errorf("referee: the service needs the address of its mailbox (Config.Address) to create a game")
	case len(bots) > 1:
		return nil, nil, fmt.Errorf("referee: the stand-in plays one side at most: a person plays the other")
	case ng.Copies != "" && !slices.Contains(copyModes, ng.Copies):
		return nil, nil, fmt.Errorf("referee: the umpire's copies are %s, not %q", strings.Join(copyModes, ", "), ng.Copies)
	}
	return open, addr, nil
}

// player is the address ng gives side.
func (ng *NewGame) player(side adjudicator.Side) string {
	if side == adjudicator.US {
		return ng.US
	}
	return ng.JP
}

// setPlayer gives side the address addr.
func (ng *NewGame) setPlayer(side adjudicator.Side, addr string) {
	if side == adjudicator.US {
		ng.US = addr
	} else {
		ng.JP = addr
	}
}

// newGameID draws a short game id: five letters and digits.
func newGameID() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	var b [5]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

// GameStatus is one game as attu status lists it.
type GameStatus struct {
	ID, Name string
	Status   store.Status
	System   string // the name of the system the game is played by
	// Wait is what the game waits for; Waiting says it in words.
	Wait     adjudicator.Wait
	Waiting  string
	Deadline time.Time
	Late     map[adjudicator.Side]int
	Result   string
}

// Games lists every game with what it waits for and until when.
func (s *Service) Games() ([]GameStatus, error) {
	ids, err := s.db.Games()
	if err != nil {
		return nil, err
	}
	var out []GameStatus
	for _, id := range ids {
		gs, _, _, err := s.gameStatus(id)
		if err != nil {
			return nil, err
		}
		out = append(out, gs)
	}
	return out, nil
}

// gameStatus is what game id waits for and until when, with the game and
// the service's record of it.
func (s *Service) gameStatus(id string) (GameStatus, *store.Game, *record, error) {
	g, err := s.db.Game(id)
	if err != nil {
		return GameStatus{}, nil, nil, err
	}
	rec, err := loadRecord(*g)
	if err != nil {
		return GameStatus{}, nil, nil, err
	}
	var waiting string
	switch sys, err := s.SystemOf(g); {
	case g.Status == store.Ended:
		waiting = "nothing: " + rec.Result
	case err != nil:
		waiting = "nothing here: played by the rules of " + g.SystemName() + ", which this server does not host"
	default:
		st, err := s.positionOf(g)
		if err != nil {
			return GameStatus{}, nil, nil, err
		}
		waiting = sys.Summary(st)
	}
	return GameStatus{ID: id, Name: rec.Name, System: g.SystemName(), Status: g.Status, Wait: g.Wait, Waiting: waiting,
		Deadline: g.Deadline, Late: rec.Late, Result: rec.Result}, g, rec, nil
}

// Check judges an orders file against the game it names as the server
// would, token aside, without applying it: it returns the problems found
// (none: the file would be applied), or an error when it names no game.
func (s *Service) Check(raw []byte) (game string, problems []store.Problem, err error) {
	env, ok := orders.ReadEnvelope(raw)
	if ok {
		game = env.Game
	}
	sys := s.sys // reads a file that names no game, to say what is wrong with it
	g, gerr := s.db.Game(game)
	if gerr == nil {
		if sys, err = s.SystemOf(g); err != nil {
			return game, nil, err
		}
	}
	o, perr := sys.Read(raw)
	if perr != nil {
		return game, problemsOf(perr), nil
	}
	if gerr != nil {
		return game, nil, gerr
	}
	if g.Status != store.Active {
		return game, []store.Problem{{Msg: fmt.Sprintf("the game is %s and takes no orders", g.Status)}}, nil
	}
	st, err := s.positionOf(g)
	if err != nil {
		return game, nil, err
	}
	if p := sys.Stale(st, o); p != nil {
		return game, []store.Problem{*p}, nil
	}
	return game, sys.Check(st, o), nil
}
