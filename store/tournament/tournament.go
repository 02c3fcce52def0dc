package tournament

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

// ShelfName is the store shelf the tournaments are kept on (see the
// package documentation, "Storage").
const ShelfName = "tournaments"

// Errors for errors.Is.
var (
	ErrNoTournament = errors.New("tournament: no such tournament")               // returned when no tournament has the id asked for
	ErrExists       = errors.New("tournament: a tournament with this id exists") // returned by New when the id is taken
	ErrNoRound      = errors.New("tournament: every round has begun")            // returned by Next when every round has begun
)

// Tournament is a tournament's record.
type Tournament struct {
	File    File      `json:"file"`
	Created time.Time `json:"created"`
	Mailbox string    `json:"mailbox"` // the games' address, and its mails'
	Rounds  []Round   `json:"rounds"`
	Digest  time.Time `json:"digest,omitzero"` // when the last umpire's digest was due
	Over    time.Time `json:"over,omitzero"`   // when the last game of the last round ended
	Asked   []Ask     `json:"asked,omitempty"` // the umpire's "digest" mails not answered yet
	Seed    []byte    `json:"seed"`            // the secret the sides are drawn from, told at the end
}

// Ask is the umpire's mail asking for the digest, answered at the next tick.
type Ask struct {
	MessageID string    `json:"message_id,omitempty"` // the request's, for the answer's In-Reply-To
	At        time.Time `json:"at"`
}

// Round is one round: its games, and the player with a bye.
type Round struct {
	Number   int       `json:"number"`
	Scenario string    `json:"scenario"`
	Started  time.Time `json:"started"`
	Games    []Game    `json:"games"`
	Bye      string    `json:"bye,omitempty"`
}

// Game is one game of a round, by its players' names.
type Game struct {
	ID      string  `json:"id"`
	US      string  `json:"us"`
	JP      string  `json:"jp"`
	Created bool    `json:"created,omitempty"` // by the game service, its welcome mails queued
	Result  *Result `json:"result,omitempty"`
}

// Result is how a game ended (referee.Ending), as the tournament scores it.
type Result struct {
	Winner adjudicator.Side `json:"winner,omitempty"`
	How    string           `json:"how"`
	Level  string           `json:"level,omitempty"`
	// Grade is how decisive the victory is (referee.Ending.Grade); a
	// result recorded before grades were has none, and its Level's words
	// say it (grade).
	Grade adjudicator.Grade        `json:"grade,omitempty"`
	Void  bool                     `json:"void,omitempty"`
	Words string                   `json:"words"`
	Turn  int                      `json:"turn"`
	Ended time.Time                `json:"ended"`
	Late  map[adjudicator.Side]int `json:"late,omitempty"`
}

// counts reports whether a game counts in the standings and lateness.
func (r *Result) counts() bool { return r != nil && !r.Void }

// ID is the tournament's id.
func (t *Tournament) ID() string { return t.File.ID }

// finished reports whether every game of round r has a result.
func (r *Round) finished() bool {
	return !slices.ContainsFunc(r.Games, func(g Game) bool { return g.Result == nil })
}

// game finds a game of the tournament.
func (t *Tournament) game(id string) (*Round, *Game) {
	for i := range t.Rounds {
		for j := range t.Rounds[i].Games {
			if t.Rounds[i].Games[j].ID == id {
				return &t.Rounds[i], &t.Rounds[i].Games[j]
			}
		}
	}
	return nil, nil
}

// current is the last round begun, nil before the first.
func (t *Tournament) current() *Round {
	if len(t.Rounds) == 0 {
		return nil
	}
	return &t.Rounds[len(t.Rounds)-1]
}

// Director runs the tournaments of a database as the game service's Hook
// (referee.Config.Hook; see the package documentation). It keeps nothing
// in memory: everything is on the store's shelf.
type Director struct {
	// Games and Others are the game systems a tournament's games may be
	// played by, as cmd/attu passes them (War in the Wind's is
	// templates/wind.Rules); each tournament's file names its own
	// (File.System).
	Games  Games
	Others []Games
	// Rand draws the tournament's seed and, when set, each game's (tests
	// replay a tournament so); nil: crypto/rand, and the service draws the
	// games' seeds.
	Rand   io.Reader
	Logger *slog.Logger // receives the log; nil discards it
}

// Games is what a tournament asks of the game system its games are
// played by: the kinds of wait its deadline policy may name, its
// scenarios and how a round mail names one, the setups by the rules a
// round may choose, its words for the optional rules of a round, and its
// words for the levels of victory the standings score.
type Games interface {
	System() string // the system's name (store.Rules.System)
	Kinds() []adjudicator.WaitKind
	Scenarios() []string
	ScenarioName(name string) string
	RuleSetups() []string
	// Option reads one optional rule as a tournament file's rules: write
	// it (key: value, but settle) for a round of scenario: the optional
	// rules of the game it stands for (none when its value is off), or why the
	// file may not write it; an empty scenario judges the words alone.
	Option(key, value, scenario string) ([]string, error)
	// LevelWords are how the standings speak of a victory's level (a
	// result's Level and Grade): rule, what a level is cited by, in
	// brackets after it ("rule 14.0"; empty: nothing), and decides, the
	// clause naming what grades a victory major, minor or marginal ("the
	// victory point chits decide a game (rule 14.0)"), given whether the
	// file sets any optional rule; empty when nothing does, and the
	// scoring line then leaves those points unsaid.
	LevelWords(optional bool) (rule, decides string)
}

// hosted are the systems the director's tournaments may be played by.
func (d *Director) hosted() []Games {
	var out []Games
	if d.Games != nil {
		out = append(out, d.Games)
	}
	return append(out, d.Others...)
}

// games is the system of tournament t's games.
func (d *Director) games(t *Tournament) (Games, error) {
	g, err := gamesNamed(d.hosted(), t.File.System)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: system: %w", t.ID(), err)
	}
	return g, nil
}

// voice is how a tournament's mails speak of its system's games.
type voice struct {
	scenario func(string) string // a scenario's name (Games.ScenarioName)
	rule     string              // Games.LevelWords
	decides  string              // Games.LevelWords
}

// voice is how the mails of t speak: as its system does, or when the
// system is not hosted, naming a scenario by its name and a level by its
// words alone.
func (d *Director) voice(t *Tournament) voice {
	g, err := d.games(t)
	if err != nil {
		v := voice{scenario: func(name string) string { return name }}
		if t.File.Rules.any() {
			v.decides = "the rules grade a victory"
		}
		return v
	}
	v := voice{scenario: g.ScenarioName}
	v.rule, v.decides = g.LevelWords(t.File.Rules.any())
	return v
}

func (d *Director) log() *slog.Logger {
	if d.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return d.Logger.With("pkg", "tournament")
}

// Load reads a tournament's record.
func Load(db *store.DB, id string) (*Tournament, error) {
	var t Tournament
	err := db.ViewShelf(ShelfName, func(s *store.Shelf) error {
		ok, err := s.Get("t/"+id, &t)
		if err == nil && !ok {
			err = fmt.Errorf("%w: %q", ErrNoTournament, id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// List returns the ids of the tournaments of db.
func List(db *store.DB) ([]string, error) {
	var ids []string
	err := db.ViewShelf(ShelfName, func(s *store.Shelf) error {
		for _, k := range s.Keys("t/") {
			ids = append(ids, strings.TrimPrefix(k, "t/"))
		}
		return nil
	})
	return ids, err
}

// New records the tournament of file f and creates its first round's games
// through the service; a crash midway leaves games that Tick creates later.
func (d *Director) New(s *referee.Service, f *File, mailbox string, now time.Time) (*Tournament, error) {
	now = now.UTC()
	t := &Tournament{File: *f, Created: now, Mailbox: mailbox, Seed: make([]byte, store.SeedSize)}
	if _, err := d.games(t); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(cmp.Or(d.Rand, rand.Reader), t.Seed); err != nil {
		return nil, fmt.Errorf("tournament: drawing the seed: %w", err)
	}
	if err := d.plan(t, now); err != nil {
		return nil, err
	}
	err := s.DB().UpdateShelf(ShelfName, func(sh *store.Shelf) error {
		if ok, err := sh.Get("t/"+f.ID, &Tournament{}); err != nil || ok {
			return errors.Join(err, fmt.Errorf("%w: %q", ErrExists, f.ID))
		}
		if err := sh.Queue(t.roundMail(d.voice(t), 0, 0, t.current())); err != nil {
			return err
		}
		return t.save(sh)
	})
	if err != nil {
		return nil, err
	}
	d.log().Info("tournament created", "tournament", f.ID, "players", len(f.Players), "rounds", len(f.Rounds))
	return t, d.create(s, t.ID(), now)
}

// save writes the record and the index of its games.
func (t *Tournament) save(sh *store.Shelf) error {
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if err := sh.Put("g/"+g.ID, t.ID()); err != nil {
				return err
			}
		}
	}
	return sh.Put("t/"+t.ID(), t)
}

// Next begins the next round at the umpire's word, even while games of
// the current one are played (Swiss pairs on the standings so far).
func (d *Director) Next(s *referee.Service, id string, now time.Time) (*Round, error) {
	now = now.UTC()
	var r *Round
	err := s.DB().UpdateShelf(ShelfName, func(sh *store.Shelf) error {
		var t Tournament
		if ok, err := sh.Get("t/"+id, &t); err != nil || !ok {
			return errors.Join(err, fmt.Errorf("%w: %q", ErrNoTournament, id))
		}
		m, err := d.next(sh, &t, now)
		if err != nil {
			return err
		}
		r = t.current()
		return sh.Queue(m)
	})
	if err != nil {
		return nil, err
	}
	return r, d.create(s, id, now)
}

// next pairs and saves t's next round, its games created later, and
// returns the umpire's mail with its pairings.
func (d *Director) next(sh *store.Shelf, t *Tournament, now time.Time) (store.Mail, error) {
	ended, playing := 0, 0
	if prev := t.current(); prev != nil {
		for _, g := range prev.Games {
			if g.Result == nil {
				playing++
			}
		}
		if playing == 0 {
			ended = prev.Number
		}
	}
	if err := d.plan(t, now); err != nil {
		return store.Mail{}, err
	}
	return t.roundMail(d.voice(t), ended, playing, t.current()), t.save(sh)
}

// NextRound begins the next round at the umpire's mail "next" to game
// tx.Game() (referee.Hook), in its transaction: the next Tick creates the
// games, and the round's mail is the answer.
func (d *Director) NextRound(tx *store.Txn) (string, string, error) {
	sh, t, err := gameTournament(tx, tx.Game().ID)
	if t == nil {
		return "", "", err
	}
	m, err := d.next(sh, t, tx.Now())
	if errors.Is(err, ErrNoRound) {
		return "", fmt.Sprintf("every round of tournament %s has begun", t.File.Name), nil
	}
	return m.Text, "", err
}

// plan pairs the next round and adds it, its games not yet created.
func (d *Director) plan(t *Tournament, now time.Time) error {
	n := len(t.Rounds) + 1
	f := &t.File
	if n > len(f.Rounds) {
		return ErrNoRound
	}
	rf := f.Rounds[n-1]
	var pairs []pair
	if f.Pairing == Swiss && n > 1 {
		var ranked []string
		for _, row := range t.Table() {
			ranked = append(ranked, row.Player)
		}
		met, byes := map[[2]string]bool{}, map[string]bool{}
		for _, r := range t.Rounds {
			if r.Bye != "" {
				byes[r.Bye] = true
			}
			for _, g := range r.Games {
				met[[2]string{g.US, g.JP}] = true
			}
		}
		pairs = swiss(ranked, met, byes)
	} else {
		var names []string
		for _, p := range f.Players {
			names = append(names, p.Name)
		}
		if f.Pairing == Swiss {
			// Round 1 of a Swiss: the top half of the list meets the
			// bottom half.
			half := (len(names) + 1) / 2
			for i := range half {
				b := ""
				if i+half < len(names) {
					b = names[i+half]
				}
				pairs = append(pairs, pair{names[i], b})
			}
		} else {
			pairs = roundRobin(names, n)
		}
	}
	r := Round{Number: n, Scenario: rf.Scenario, Started: now}
	k := 0
	add := func(us, jp string) {
		k++
		r.Games = append(r.Games, Game{ID: fmt.Sprintf("%s-r%d-%d", f.ID, n, k), US: us, JP: jp})
	}
	for _, p := range pairs {
		if p.b == "" {
			r.Bye = p.a
			continue
		}
		if f.Sides == SidesBoth {
			add(p.a, p.b)
			add(p.b, p.a)
			continue
		}
		add(drawSides(t.Seed, fmt.Sprintf("%s-r%d-%d", f.ID, n, k+1), p))
	}
	t.Rounds = append(t.Rounds, r)
	return nil
}

// create creates through the service every game of tournament id planned
// and not created yet (one that exists was created before a crash).
func (d *Director) create(s *referee.Service, id string, now time.Time) error {
	t, err := Load(s.DB(), id)
	if err != nil {
		return err
	}
	games, err := d.games(t)
	if err != nil {
		return err
	}
	f := &t.File
	for _, r := range t.Rounds {
		rf := f.Rounds[r.Number-1]
		for _, g := range r.Games {
			if g.Created {
				continue
			}
			us, _ := f.player(g.US)
			jp, _ := f.player(g.JP)
			ng := referee.NewGame{System: cmp.Or(f.System, store.SystemBefore), ID: g.ID, Name: fmt.Sprintf("%s, round %d: %s v %s", f.Name, r.Number, g.US, g.JP),
				Scenario: rf.Scenario, JPSetup: rf.JPSetup, USSetup: rf.USSetup,
				US: us.Address, JP: jp.Address, Umpire: f.Umpire.Address,
				Deadline: duration(f.Deadlines.Each), Reminder: duration(f.Deadlines.Reminder),
				Absence: duration(f.Deadlines.Absence), Settle: duration(f.Rules.Settle)}
			for k, v := range f.Deadlines.Waits {
				if ng.Deadlines == nil {
					ng.Deadlines = map[adjudicator.WaitKind]time.Duration{}
				}
				ng.Deadlines[adjudicator.WaitKind(k)] = duration(v)
			}
			var errs []error
			if ng.Rules, errs = f.Rules.options(games, rf.Scenario); len(errs) > 0 {
				return fmt.Errorf("tournament %s: creating %s: %w", id, g.ID, errors.Join(errs...))
			}
			if d.Rand != nil {
				ng.Seed = make([]byte, store.SeedSize)
				if _, err := io.ReadFull(d.Rand, ng.Seed); err != nil {
					return err
				}
			}
			_, err := s.Create(ng, now)
			if err != nil && !errors.Is(err, store.ErrGameExists) {
				return fmt.Errorf("tournament %s: creating %s: %w", id, g.ID, err)
			}
			if err := s.DB().UpdateShelf(ShelfName, func(sh *store.Shelf) error {
				var t Tournament
				if _, err := sh.Get("t/"+id, &t); err != nil {
					return err
				}
				if _, tg := t.game(g.ID); tg != nil {
					tg.Created = true
				}
				return sh.Put("t/"+id, &t)
			}); err != nil {
				return err
			}
			d.log().Info("game created", "tournament", id, "game", g.ID, "us", g.US, "jp", g.JP)
		}
	}
	return nil
}

// Ended records how a game of a tournament ended and mails every player
// and the umpire the standings, in the transaction that ended it
// (referee.Hook). A game of no tournament, or one already recorded, is
// left alone.
func (d *Director) Ended(tx *store.Txn, e referee.Ending) error {
	sh, t, err := gameTournament(tx, e.Game)
	if t == nil {
		return err
	}
	id := t.ID()
	r, g := t.game(e.Game)
	if g == nil || g.Result != nil {
		return nil
	}
	g.Result = &Result{Winner: e.Winner, How: e.How, Level: e.Level, Grade: e.Grade, Void: e.Void, Words: e.Result, Turn: e.Turn,
		Ended: e.Time, Late: e.Late}
	if len(t.Rounds) == len(t.File.Rounds) && !slices.ContainsFunc(t.Rounds, func(r Round) bool { return !r.finished() }) {
		t.Over = e.Time
	}
	v := d.voice(t)
	after := fmt.Sprintf("Game %s of round %d ended: %s.", g.ID, r.Number, resultText(g, v.rule))
	for _, m := range t.standingsMails(v, after, g.ID) {
		tx.Queue(m)
	}
	// The game ended the round in play: the next one is paired at once
	// when the file says auto (its games created at the next tick), and
	// the umpire is told either way; the final standings tell the last.
	if n := r.Number; r.finished() && n == len(t.Rounds) && n < len(t.File.Rounds) {
		rm := t.roundMail(v, n, 0, nil)
		if t.File.Advance == AdvanceAuto {
			if err := d.plan(t, e.Time); err != nil {
				return err
			}
			rm = t.roundMail(v, n, 0, t.current())
		}
		tx.Queue(rm)
	}
	if err := t.save(sh); err != nil {
		return err
	}
	d.log().Info("game scored", "tournament", id, "game", e.Game, "winner", e.Winner.String())
	return nil
}

// Standings answers a player's "standings" in the game's transaction
// (referee.Hook): the table as it stands, the asker's line marked.
func (d *Director) Standings(tx *store.Txn, side adjudicator.Side) (string, error) {
	g := tx.Game()
	_, t, err := gameTournament(tx, g.ID)
	if t == nil {
		return "", err
	}
	reader := ""
	if p, ok := g.Player(side); ok {
		reader = t.nameOf(p.Address)
	}
	return t.standings(d.voice(t), "", reader).Text(), nil
}

// gameTournament returns the shelf and the tournament of game, nil (and
// no error) when it belongs to none.
func gameTournament(tx *store.Txn, game string) (*store.Shelf, *Tournament, error) {
	sh, err := tx.Shelf(ShelfName)
	if err != nil {
		return nil, nil, err
	}
	var id string
	if ok, err := sh.Get("g/"+game, &id); err != nil || !ok {
		return nil, nil, err
	}
	var t Tournament
	if ok, err := sh.Get("t/"+id, &t); err != nil || !ok {
		return nil, nil, err
	}
	return sh, &t, nil
}

// nameOf is the player with address.
func (t *Tournament) nameOf(address string) string {
	for _, p := range t.File.Players {
		if mail.SameAddress(p.Address, address) {
			return p.Name
		}
	}
	return ""
}

// standingsMails are the standings for every player, each with their own
// line marked, and for the umpire, in v's words.
func (t *Tournament) standingsMails(v voice, after, game string) []store.Mail {
	var out []store.Mail
	subject := fmt.Sprintf("attu tournament %s: standings after game %s", t.File.Name, game)
	if !t.Over.IsZero() {
		subject = fmt.Sprintf("attu tournament %s: final standings", t.File.Name)
	}
	for i, p := range append([]Person{t.File.Umpire}, t.File.Players...) {
		reader := p.Name
		if i == 0 {
			reader = ""
		}
		out = append(out, store.Mail{MessageID: t.messageID(fmt.Sprintf("standings.%s.%d", game, i)), To: []string{p.Address},
			Subject: subject, Text: t.standings(v, after, reader).Text()})
	}
	return out
}

// roundMail tells the umpire that round ended ended (0: the next began
// with playing games of it still in play) and how round next is paired,
// in v's words.
func (t *Tournament) roundMail(v voice, ended, playing int, next *Round) store.Mail {
	rm := templates.RoundMail{Tournament: t.ID(), Name: t.File.Name, Ended: ended, Playing: playing, Rounds: len(t.File.Rounds),
		Auto: t.File.Advance == AdvanceAuto, Standings: t.standings(v, "", "")}
	what := fmt.Sprintf("round.%d.ended", ended)
	if next != nil {
		p := &templates.RoundPairing{Number: next.Number, Bye: next.Bye,
			Scenario: v.scenario(next.Scenario)}
		for _, g := range next.Games {
			p.Games = append(p.Games, templates.RoundGame{Game: g.ID, US: g.US, JP: g.JP})
		}
		rm.Next = p
		what = fmt.Sprintf("round.%d", next.Number)
	}
	return store.Mail{MessageID: t.messageID(what), To: []string{t.File.Umpire.Address}, Subject: rm.Subject(), Text: rm.Text()}
}

// messageID is a stable Message-ID for a tournament mail.
func (t *Tournament) messageID(what string) string {
	host := "attu.invalid"
	if _, h, ok := strings.Cut(t.Mailbox, "@"); ok && h != "" {
		host = h
	}
	return fmt.Sprintf("<attu.tournament.%s.%s@%s>", t.ID(), what, host)
}

// standings fills the standings mail's template in v's words.
func (t *Tournament) standings(v voice, after, reader string) templates.Standings {
	f := &t.File
	st := templates.Standings{Tournament: t.ID(), Name: f.Name, Rounds: len(f.Rounds), After: after, Reader: reader,
		Final: !t.Over.IsZero(), TieBreaks: f.TieBreaks}
	if f.Sides != SidesBoth && len(t.Seed) > 0 {
		st.Commitment = store.Commitment(t.Seed)
		if st.Final {
			st.Seed = hex.EncodeToString(t.Seed)
		}
	}
	if r := t.current(); r != nil {
		st.Round = r.Number
	}
	for _, row := range t.Table() {
		sr := templates.StandingsRow{Place: row.Place, Shared: row.Shared, Player: row.Player, Played: row.Played,
			Won: row.Won, Drawn: row.Drawn, Lost: row.Lost, Byes: row.Byes, Points: row.Points}
		for i, tb := range f.TieBreaks {
			sr.Breaks = append(sr.Breaks, breakText(tb, row.Breaks[i]))
		}
		st.Rows = append(st.Rows, sr)
	}
	for _, r := range t.Rounds {
		for i := range r.Games {
			g := &r.Games[i]
			st.Results = append(st.Results, templates.StandingsResult{Round: r.Number, Game: g.ID, US: g.US, JP: g.JP,
				Result: resultText(g, v.rule), Over: g.Result != nil})
		}
		if r.Bye != "" {
			st.Results = append(st.Results, templates.StandingsResult{Round: r.Number, US: r.Bye, Result: "a bye", Over: true})
		}
	}
	p := f.Scoring.Points()
	st.Scoring = fmt.Sprintf("A win scores %d, a draw %d, a loss %d, a bye %d.", p.Win, p.Draw, p.Loss, p.Bye)
	if v.decides != "" {
		st.Scoring += fmt.Sprintf(" When %s, the winner and the loser score %d and %d for a major victory, %d and %d for a minor one, %d and %d for a marginal one.",
			v.decides, p.Major[0], p.Major[1], p.Minor[0], p.Minor[1], p.Marginal[0], p.Marginal[1])
	}
	for _, tb := range f.TieBreaks {
		st.TieBreakNotes = append(st.TieBreakNotes, tb+": "+TieBreaks[tb])
	}
	return st
}

// Tick does what time brings to every tournament (referee.Hook): games
// planned but not created are created, a game that ended without being
// scored (by a service without the hook) is scored, the next round begins
// when a round is over and the file says auto, and the umpire's digest
// goes out when due or asked for. Everything is decided from the record,
// so calling it again does nothing more.
func (d *Director) Tick(s *referee.Service, now time.Time) error {
	ids, err := List(s.DB())
	if err != nil {
		return err
	}
	var errs []error
	for _, id := range ids {
		if err := d.tick(s, id, now.UTC()); err != nil {
			errs = append(errs, fmt.Errorf("tournament %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

func (d *Director) tick(s *referee.Service, id string, now time.Time) error {
	if err := d.create(s, id, now); err != nil {
		return err
	}
	t, err := Load(s.DB(), id)
	if err != nil {
		return err
	}
	for _, r := range t.Rounds {
		for _, g := range r.Games {
			if g.Result != nil || !g.Created {
				continue
			}
			gm, err := s.DB().Game(g.ID)
			if err != nil {
				return err
			}
			if gm.Status != store.Ended {
				continue
			}
			sys, err := s.SystemOf(gm)
			if err != nil {
				return err
			}
			if _, err := s.DB().Transact(g.ID, nil, func(tx *store.Txn) error {
				e, err := referee.EndingOf(sys, tx)
				if err != nil {
					return err
				}
				return d.Ended(tx, e)
			}); err != nil {
				return err
			}
		}
	}
	if t, err = Load(s.DB(), id); err != nil {
		return err
	}
	if r := t.current(); r != nil && r.finished() && len(t.Rounds) < len(t.File.Rounds) && t.File.Advance == AdvanceAuto {
		if _, err := d.Next(s, id, now); err != nil && !errors.Is(err, ErrNoRound) {
			return err
		}
	}
	return d.digest(s, id, now)
}
