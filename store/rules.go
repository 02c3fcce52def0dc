package store

import (
	"encoding/json"

	"github.com/attu-pbem/attu/adjudicator"
)

// Rules is a game system's rules as the store applies and audits them:
// Txn.Apply resolves every step through it and Audit replays the game
// through the same value, so they cannot disagree. The store keeps the
// system's positions, orders and events as the canonical JSON of its own
// values (encoding/json) and never looks inside them: only the system
// decodes them. Package cmd/attu passes each system's value in; the store
// names none.
type Rules interface {
	// System is the system's name, recorded with every game it creates
	// (Game.System).
	System() string
	// Faces is the number of faces of the die the rules roll, 2 to
	// MaxFaces. Every die of a game is rolled as one.
	Faces() int
	// Position reads a position from its JSON, as snapshots and exports
	// hold it, refusing one the rules cannot reach.
	Position(b []byte) (Position, error)
	// Orders reads orders from their JSON, as a log entry records them.
	Orders(b []byte) (Orders, error)
	// Resolve applies o to p, the step's own copy of the position, with
	// every server step they lead to, and returns the position it reaches
	// and what happened (the JSON of the system's events, nil for none),
	// or refuses them (adjudicator.Refusal: Apply answers ErrStale or
	// ErrIllegal), each problem placed in the order file when o knows
	// where it was written.
	Resolve(p Position, o Orders, d adjudicator.Dice) (Position, json.RawMessage, *adjudicator.Refusal)
	// Reread decodes an accepted order file again, for the audit, which
	// requires the orders the log recorded; nil when the system replays
	// the recorded orders only.
	Reread(raw []byte) (Orders, error)
	// Opening checks that an opening position could have come from the
	// dice its creation rolled, rolling them again through d; nil when
	// the system checks those dice against the seed only.
	Opening(p Position, d adjudicator.Dice) error
}

// SystemBefore is the system of the games and exports made before attu
// hosted several, which name none: War in the Wind's.
const SystemBefore = "war-in-the-wind"

// Position and Orders are a system's own values (adjudicator.Position,
// adjudicator.Orders), which the store keeps as their JSON.
type (
	Position = adjudicator.Position
	Orders   = adjudicator.Orders
)

// LuckRules and FireKind are what a system may say of its dice for the
// luck summary (adjudicator.LuckRules).
type (
	LuckRules = adjudicator.LuckRules
	FireKind  = adjudicator.FireKind
	// RankedKind is a kind of die judged by its mean face.
	RankedKind = adjudicator.RankedKind
)

// luckRules returns what r says of its dice for the luck summary.
func luckRules(r Rules) LuckRules {
	if lr, ok := r.(interface{ LuckRules() LuckRules }); ok {
		return lr.LuckRules()
	}
	return LuckRules{}
}
