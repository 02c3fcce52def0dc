package referee

import (
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/templates"
	"go.yaml.in/yaml/v3"

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
}

// System returns the game system the service plays.
func (s *Service) System() System { return s.sys }

// position reads the position b a store read returned (with its error) by
// the service's system; a position the rules cannot reach is never played
// on (store.ErrUnsound).
func (s *Service) position(b []byte, err error) (adjudicator.Position, error) {
	if err != nil {
		return nil, err
	}
	p, err := s.sys.Position(b)
	if err != nil {
		return nil, fmt.Errorf("referee: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", store.ErrUnsound, err)
	}
	return p, nil
}
