package referee

import (
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/templates"
	"go.yaml.in/yaml/v3"
	"strings"

	"github.com/attu-pbem/attu/store"
)

// System is a game system as the game service plays it: its rules as the
// store applies and audits them, and what the service asks of it besides,
// each in the host's types (positions, orders and events as the system's
// own values or their JSON). Package cmd/attu passes it in (Config.System).
type System interface {
	store.Rules
	// Date names game-turn turn ("May 11").
	Date(turn int) string
	// Waiting says what a game waiting for w waits for, as reader may
	// read it; NoSide reads it as the umpire and the log do.
	Waiting(w adjudicator.Wait, reader adjudicator.Side) string
	// Kinds lists every kind of orders a game can wait for.
	Kinds() []adjudicator.WaitKind
	// Empty returns orders that answer w and hold nothing.
	Empty(w adjudicator.Wait) adjudicator.Orders
	// Answers reports whether orders o answer w.
	Answers(w adjudicator.Wait, o adjudicator.Orders) bool
	// Read decodes an order file, its mistakes as orders.Errors; ReadDoc
	// decodes one already parsed (orders.Envelope.Doc).
	Read(raw []byte) (adjudicator.Orders, error)
	ReadDoc(doc *yaml.Node) (adjudicator.Orders, error)
	// Stale says why o does not answer what p waits for, nil when it
	// does.
	Stale(p adjudicator.Position, o adjudicator.Orders) *adjudicator.Problem
	// Check judges o against p without resolving it, each problem placed
	// in its file.
	Check(p adjudicator.Position, o adjudicator.Orders) []adjudicator.Problem
	// Accepted says in words what an accepted file answering wait w held,
	// to follow the acceptance's sentence, and whether it changed
	// standing instructions.
	Accepted(o adjudicator.Orders, w adjudicator.WaitKind) (held string, standing bool)
	// Defaults says in words what the default orders of a wait of kind k
	// are; false for a kind without them.
	Defaults(k adjudicator.WaitKind) (string, bool)
	// DefaultFile is the orders file the server writes for the side that
	// missed the deadline of what p waits for, headed by why.
	DefaultFile(game string, p adjudicator.Position, why string) ([]byte, adjudicator.Orders, error)
	// Immediate reports whether an orders file asks to be applied at once,
	// not held for the game's settle window.
	Immediate(o adjudicator.Orders) bool
	// StandIn is the orders file the server's stand-in writes for what p
	// waits for, its choices drawn from seed.
	StandIn(game string, p adjudicator.Position, seed uint64) ([]byte, adjudicator.Orders, error)
	// Report is one side's report, made only of what the side may see.
	Report(in templates.ReportFor) (*templates.SideReport, error)
	// Template is the order template of one side's report, for the side
	// awaited; false for none.
	Template(in templates.ReportFor) (name, body string, ok bool)
	// Picture draws the map as the side sees the position, outlining
	// what the events tell of.
	Picture(in templates.ReportFor) ([]byte, error)
	// Result is who won the game over in p and why; NoSide and nothing
	// while it runs or when it ended without a winner.
	Result(p adjudicator.Position) (adjudicator.Side, string)
	// LogParts shapes the log entries side may read, while the game waits
	// for w: each entry's events as side may see them, in words, and any
	// part of an entry the side reads as an entry of its own.
	LogParts(items []templates.LogItem, side adjudicator.Side, w adjudicator.Wait) ([]templates.LogPart, error)
	// ReplayPage draws the replay page of a game from what Replay made of
	// its export.
	ReplayPage(r *templates.Replay) ([]byte, error)
	// Open checks the choices a game is created with and says how it
	// begins, drawing what the rules leave to chance from a stream pick
	// returns, the same each time.
	Open(c adjudicator.Choices, pick func() func(n int) int) (*adjudicator.Creation, error)
	// Setups names each side's setup of the opening p of a game begun as
	// c says, for the game's record.
	Setups(p adjudicator.Position, c *adjudicator.Creation) map[adjudicator.Side]string
	// Decided reports whether the rules ended the game in p (a victory
	// or the last turn played), and Level names the victory's level and
	// its grade when the system ranks victories ("U.S. minor victory",
	// GradeMinor), empty and none when not.
	Decided(p adjudicator.Position) bool
	Level(p adjudicator.Position) (string, adjudicator.Grade)
	// Summary says in one line what a game in position p waits for, or
	// how it ended.
	Summary(p adjudicator.Position) string
	// Words are the system's title and its default orders in brief, for
	// the welcome and the reminders.
	Words() templates.Words
}

// ErrUnhosted is returned for a game of a system the service does not
// host (Config.System and Config.Others): it is never played by another
// system's rules, and nothing of it changes.
var ErrUnhosted = errors.New("referee: the game's system is not hosted here")

// RulesPlayer is what a system may say of a side its own rules play
// (War in the Wind's solitaire Japanese of rule 13), for the welcome: the
// side in position p and, in the system's words, what that means; NoSide
// when a person or the stand-in plays each side.
type RulesPlayer interface {
	RulesPlay(p adjudicator.Position) (adjudicator.Side, string)
}

// System returns the service's default system, the one new games are
// created by when they name none.
func (s *Service) System() System { return s.sys }

// Systems returns every system the service hosts, the default first.
func (s *Service) Systems() []System { return append([]System{s.sys}, s.cfg.Others...) }

// SystemNames lists the names of the systems the service hosts, the
// default first.
func (s *Service) SystemNames() []string {
	var out []string
	for _, sys := range s.Systems() {
		out = append(out, sys.System())
	}
	return out
}

// SystemNamed returns the hosted system of that name (empty: the
// default), or an error wrapping ErrUnhosted that lists the hosted ones.
func (s *Service) SystemNamed(name string) (System, error) {
	if name == "" {
		return s.sys, nil
	}
	if sys, ok := s.systems[name]; ok {
		return sys, nil
	}
	return nil, fmt.Errorf("%w: no game system %q; this server hosts %s", ErrUnhosted, name, strings.Join(s.SystemNames(), ", "))
}

// SystemOf returns the system game g is played by, or an error wrapping
// ErrUnhosted when the service does not host it.
func (s *Service) SystemOf(g *store.Game) (System, error) {
	sys, ok := s.systems[g.SystemName()]
	if !ok {
		return nil, fmt.Errorf("%w: game %s is played by the rules of %s, which this server does not host (it hosts %s)",
			ErrUnhosted, g.ID, g.SystemName(), strings.Join(s.SystemNames(), ", "))
	}
	return sys, nil
}

// sysOf is the system of game g, which the entry points (handle, run,
// due, Create) have checked the service hosts (SystemOf); nil for an
// unhosted one, never another system's rules.
func (s *Service) sysOf(g *store.Game) System {
	if sys, err := s.SystemOf(g); err == nil {
		return sys
	}
	return nil
}

// positionIn reads the position in force in t; positionOf the one of
// game g as stored.
func (s *Service) positionIn(t *store.Txn) (adjudicator.Position, error) {
	g := t.Game()
	b, err := t.Position()
	return s.position(&g, b, err)
}

func (s *Service) positionOf(g *store.Game) (adjudicator.Position, error) {
	b, err := s.db.Position(g.ID)
	return s.position(g, b, err)
}

// position reads the position b a store read of game g returned (with
// its error) by the game's system; a position the rules cannot reach is
// never played on (store.ErrUnsound), nor a game of a system the service
// does not host (ErrUnhosted).
func (s *Service) position(g *store.Game, b []byte, err error) (adjudicator.Position, error) {
	if err != nil {
		return nil, err
	}
	sys, err := s.SystemOf(g)
	if err != nil {
		return nil, err
	}
	p, err := sys.Position(b)
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrUnsound, err)
	}
	return p, nil
}

// sysIn is the system of the game of t (sysOf).
func (s *Service) sysIn(t *store.Txn) System {
	g := t.Game()
	return s.sysOf(&g)
}
