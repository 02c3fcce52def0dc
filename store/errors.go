package store

import (
	"errors"
	"fmt"
	"github.com/attu-pbem/attu/adjudicator"
	"strings"
)

// Errors returned by the store, for errors.Is. A *RefusedError is for the
// player: nothing was written, and its Problems say why in words they can
// act on; it wraps ErrNotActive, ErrStale or ErrIllegal. Anything else is
// internal (a damaged file, a bug, a caller's mistake such as ErrToken),
// for the log and the operator, never for the player's reply.
var (
	ErrNoGame     = errors.New("store: no such game")               // returned when no game has the id asked for
	ErrGameExists = errors.New("store: a game with this id exists") // returned by Create when the id is taken
	// ErrNotActive is returned by SetStatus and End for an ended game, and
	// wrapped by Apply's refusal of a paused or ended one.
	ErrNotActive = errors.New("store: the game is not active")
	// ErrStale is wrapped in the *RefusedError of Apply when the orders do
	// not answer what the game waits for (adjudicator.State.CheckWait).
	ErrStale = errors.New("store: orders are not for the current wait")
	// ErrIllegal is wrapped in the *RefusedError of Apply when the rules
	// refuse the orders (an illegal move, invalid standing instructions).
	ErrIllegal   = errors.New("store: the rules refuse the orders")
	ErrProcessed = errors.New("store: mail already processed") // returned for a mail already in the ledger
	// ErrRollback is returned by Rollback when the target entry cannot be
	// returned to (unknown, rolled back itself, or not before the head).
	ErrRollback = errors.New("store: cannot roll back to that entry")
	// ErrSchema is returned by Open when the file was written by a newer
	// release than this one, or, opened read-only, by an older one.
	ErrSchema = errors.New("store: database schema is newer than this release")
	// ErrLocked is returned by Open when another process (the mail
	// daemon, usually) holds the file for longer than Options.Timeout.
	ErrLocked = errors.New("store: the database is in use by another process")
	ErrNoMail = errors.New("store: no such mail in the outbox") // returned by MarkSentAll and Retry for an unknown outbox id
	// ErrToken is returned by Apply for an order file that still carries a
	// side's token, or cannot be read to tell (see orders.Redact).
	ErrToken = errors.New("store: the order file still carries a token")
	// ErrUnsound is returned for a position the rules cannot reach
	// (adjudicator.State.Validate), by Create and Apply, which do not store
	// it, and by every read of a stored snapshot.
	ErrUnsound = errors.New("store: unsound position")
)

// RefusedError is orders refused, for the player who sent them: Err says
// which refusal it is, for errors.Is; Problems say why, each where the
// order file shows it when the orders know where they were written.
type RefusedError struct {
	Game     string
	Err      error
	Problems []Problem
}

func (e *RefusedError) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.String()
	}
	return fmt.Sprintf("game %s refuses the orders: %s", e.Game, strings.Join(msgs, "; "))
}

// Unwrap returns the sentinel saying which refusal it is.
func (e *RefusedError) Unwrap() error { return e.Err }

// Problem is one reason orders were refused (adjudicator.Problem).
type Problem = adjudicator.Problem
