package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
)

// Kind is what a log entry records.
type Kind string

// Kinds of log entries.
const (
	KindCreate   Kind = "create"   // the game was created; State is the opening position
	KindOrders   Kind = "orders"   // a side's orders were accepted and resolved, with every server step they led to
	KindRollback Kind = "rollback" // the umpire returned the game to entry To
	KindEnd      Kind = "end"      // the game ended; Note says how
	KindNote     Kind = "note"     // something that changes no position: a command, a missed deadline; Note says what, Side who
)

// Entry is one link of a game's hash-chained log (see the package
// documentation); Prev is the previous entry's hash, empty for entry 1.
type Entry struct {
	Seq  uint64    `json:"seq"`
	Prev string    `json:"prev"`
	Kind Kind      `json:"kind"`
	Time time.Time `json:"time"`
	// Turn, Wait and Side are the wait the entry answered or interrupted;
	// a note's Side is who gave its command (NoSide for the server).
	Turn int                  `json:"turn"`
	Wait adjudicator.WaitKind `json:"wait,omitempty"`
	Side adjudicator.Side     `json:"side,omitempty"`

	// KindCreate.
	Scenario   string `json:"scenario,omitempty"`
	Commitment string `json:"commitment,omitempty"`

	// KindOrders: the decoded orders (the JSON of the system's orders),
	// the SHA-256 of the redacted file (kept beside the log), its receipt
	// time and Message-ID.
	Orders    json.RawMessage `json:"orders,omitempty"`
	RawSHA256 string          `json:"raw_sha256,omitempty"`
	Received  time.Time       `json:"received,omitzero"`
	MessageID string          `json:"message_id,omitempty"`

	// Dice DiceFrom up to but excluding DiceTo were rolled by this entry
	// (KindCreate: by the opening, see NewGame.Start).
	DiceFrom uint64 `json:"dice_from,omitempty"`
	DiceTo   uint64 `json:"dice_to,omitempty"`
	// Events is what happened, the JSON of the system's events.
	Events json.RawMessage `json:"events,omitempty"`

	To      uint64 `json:"to,omitempty"`      // KindRollback: the entry returned to
	Note    string `json:"note,omitempty"`    // KindRollback, KindEnd, KindNote: why or what, in words
	Private bool   `json:"private,omitempty"` // a note only its Side and the umpire may read

	State string           `json:"state"` // SHA-256 of the JSON of the position after this entry
	Next  adjudicator.Wait `json:"next"`  // what the game then waits for

	// Secret is at least 128 random bits (crypto/rand.Text), hashed with
	// the rest, so that no entry can be found from its hash by trying every
	// candidate (see the package documentation, "Log").
	Secret string `json:"secret,omitempty"`
}

// Step is a side's orders to apply to a game, with what the caller adds
// that is not rules.
type Step struct {
	Orders   Orders    // decoded once, by the system, from Raw
	Raw      []byte    // the file as the player sent it, its token redacted (orders.Redact)
	Received time.Time // when it arrived
	// Mail is the mail that carried the orders; nil for orders given on
	// the command line or by the server for a missed deadline.
	Mail *MailRef
}

// Outcome is what an applied step produced, for the caller to answer it
// in the same transaction (Txn.Queue, Txn.SetDeadline). Its values are
// the step's own: changing them changes nothing stored.
type Outcome struct {
	Entry Entry    // the entry it chained
	State Position // the position after it, the step's own
}

// Apply resolves a step with the rules r — the ones Audit replays it
// with — and writes the log entry with its events, the dice, the
// snapshot and the next wait, whose deadline the caller sets. st.Mail,
// when set, is the transaction's own mail, or a held mail already in the
// ledger without an entry, whose receipt is amended to name the entry.
//
// Orders the game does not take come back as a *RefusedError, for the
// player: the game is paused or over (ErrNotActive), the orders do not
// answer its wait (ErrStale), or the rules refuse them (ErrIllegal). It
// leaves the transaction as it was, so the caller may answer the refusal
// in it; after any other error the caller must abort it, among them
// rules of another system than the game's (Game.SystemName).
func (t *Txn) Apply(st Step, r Rules) (*Outcome, error) {
	if st.Orders == nil || r == nil {
		return nil, fmt.Errorf("store: a step needs orders and rules")
	}
	if err := checkFaces(r.Faces()); err != nil {
		return nil, err
	}
	if err := checkRedacted(st.Raw); err != nil {
		return nil, err
	}
	w, tx := t.w, t.tx
	g := w.g
	o := st.Orders
	own := st.Mail != nil && t.mail != nil && *st.Mail == *t.mail
	var held Receipt
	if st.Mail != nil && !own {
		r, ok := lookupReceipt(tx, *st.Mail)
		switch {
		case !ok:
			return nil, fmt.Errorf("store: the held mail %s is not in the ledger", st.Mail.MessageID)
		case r.Entry != 0 || r.Game != g.ID:
			return nil, fmt.Errorf("%w: %s on %s: %s", ErrProcessed, r.MessageID, r.Time.Format(time.RFC3339), r.Outcome)
		}
		held = r
	}
	if own && t.linked != 0 {
		return nil, fmt.Errorf("store: the mail %s already produced entry %d", st.Mail.MessageID, t.linked)
	}
	if g.Status != Active {
		return nil, &RefusedError{Game: g.ID, Err: ErrNotActive, Problems: []Problem{{Msg: notActive(g)}}}
	}
	if r.System() != g.SystemName() {
		return nil, fmt.Errorf("store: game %s is played by the rules of %s, not by those of %s", g.ID, g.SystemName(), r.System())
	}
	s, err := w.position(r, g.Current)
	if err != nil {
		return nil, err
	}
	if sw := s.Wait(); sw != g.Wait {
		return nil, fmt.Errorf("the position in force waits for %s, the game's record for %s", sw, g.Wait)
	}
	seq := g.Entries + 1
	dice := NewDice(g.Seed, g.DiceNext, seq, g.Wait.Turn, g.Wait.Kind).WithFaces(r.Faces())
	next, events, refusal := r.Resolve(s, o, dice)
	if refusal != nil {
		err := ErrIllegal
		if refusal.Stale {
			err = ErrStale
		}
		return nil, &RefusedError{Game: g.ID, Err: err, Problems: refusal.Problems}
	}
	if next == nil {
		return nil, fmt.Errorf("the rules returned no position")
	}
	ob, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("encoding the orders: %w", err)
	}
	e := &Entry{Kind: KindOrders, Time: t.now, Turn: g.Wait.Turn, Wait: g.Wait.Kind, Side: o.Answering().Side,
		Orders: ob, RawSHA256: hashHex(st.Raw), Received: st.Received.UTC(), Events: events}
	if st.Mail != nil {
		e.MessageID = st.Mail.MessageID
	}
	if err := w.b.Bucket(bOrders).Put(u64(seq), st.Raw); err != nil {
		return nil, err
	}
	if err := w.append(e, dice, next); err != nil {
		return nil, err
	}
	t.changed = true
	g.Wait, g.Deadline = e.Next, time.Time{}
	switch {
	case own:
		t.linked = e.Seq
	case st.Mail != nil:
		held.Entry, held.Outcome = e.Seq, "accepted"
		if err := putReceipt(tx, held); err != nil {
			return nil, err
		}
	}
	return &Outcome{Entry: *e, State: next}, nil
}

// notActive says why a paused or ended game takes no orders.
func notActive(g *Game) string {
	if g.Status == Paused {
		return fmt.Sprintf("game %s is paused: the umpire resumes it", g.ID)
	}
	return fmt.Sprintf("game %s is %s and takes no more orders", g.ID, g.Status)
}

// Rollback returns the game to the position after entry to, a live entry
// before the head: it appends a rollback entry and marks every live entry
// after to as rolled back by it. The dice counter does not go back. The
// game becomes active, waits for what it waited for after entry to, and
// has no deadline until SetDeadline sets one.
func (t *Txn) Rollback(to uint64, note string) (*Entry, error) {
	w := t.w
	g := w.g
	marks := w.b.Bucket(bMarks)
	if to == 0 || to >= g.Entries || marks.Get(u64(to)) != nil {
		return nil, fmt.Errorf("%w: entry %d of %d (live entries only, before the last)", ErrRollback, to, g.Entries)
	}
	target, err := w.entry(to)
	if err != nil {
		return nil, err
	}
	base, err := w.base(target)
	if err != nil {
		return nil, err
	}
	e := &Entry{Kind: KindRollback, Time: t.now, Turn: g.Wait.Turn, Wait: g.Wait.Kind, Side: g.Wait.Side,
		To: to, Note: note, State: target.State, Next: target.Next}
	if err := w.append(e, nil, nil); err != nil {
		return nil, err
	}
	for seq := e.Seq - 1; seq > to; seq-- {
		if marks.Get(u64(seq)) == nil {
			if err := marks.Put(u64(seq), u64(e.Seq)); err != nil {
				return nil, err
			}
		}
	}
	t.changed = true
	g.Current = base
	g.Wait, g.Deadline, g.Status = target.Next, time.Time{}, Active
	return e, nil
}

// base returns the entry whose snapshot holds the position after e.
func (w *gameTx) base(e *Entry) (uint64, error) {
	for {
		prev := e.Seq - 1 // an end or a note is at its predecessor's position
		switch e.Kind {
		case KindCreate, KindOrders:
			return e.Seq, nil
		case KindRollback:
			prev = e.To
		case KindEnd, KindNote:
		default:
			return 0, fmt.Errorf("store: entry %d: unknown kind %q", e.Seq, e.Kind)
		}
		var err error
		if e, err = w.entry(prev); err != nil {
			return 0, err
		}
	}
}

// End ends the game: it appends an end entry saying how (note). The seed
// may then be revealed (Export does).
func (t *Txn) End(note string) (*Entry, error) {
	w := t.w
	g := w.g
	if g.Status == Ended {
		return nil, fmt.Errorf("%w: it has already ended", ErrNotActive)
	}
	last, err := w.entry(g.Entries)
	if err != nil {
		return nil, err
	}
	e := &Entry{Kind: KindEnd, Time: t.now, Turn: g.Wait.Turn, Wait: g.Wait.Kind, Side: g.Wait.Side,
		Note: note, State: last.State, Next: adjudicator.Wait{Turn: g.Wait.Turn, Kind: adjudicator.WaitEnded}}
	if err := w.append(e, nil, nil); err != nil {
		return nil, err
	}
	t.changed = true
	g.Status, g.Wait, g.Deadline = Ended, e.Next, time.Time{}
	return e, nil
}

// LogEntry is an entry as read back, with the rollback entry that undid
// it (0 while it is live).
type LogEntry struct {
	*Entry
	RolledBackBy uint64
}

// Log returns a game's log entries from seq from (1 for all), in order.
func (db *DB) Log(id string, from uint64) ([]LogEntry, error) {
	return inGame(db, id, func(w *gameTx) ([]LogEntry, error) { return w.log(from) })
}

func (w *gameTx) log(from uint64) ([]LogEntry, error) {
	var out []LogEntry
	marks := w.b.Bucket(bMarks)
	c := w.b.Bucket(bLog).Cursor()
	for k, v := c.Seek(u64(from)); k != nil; k, v = c.Next() {
		e := new(Entry)
		if err := json.Unmarshal(v, e); err != nil {
			return nil, fmt.Errorf("store: game %s: entry %d: %w", w.g.ID, binary.BigEndian.Uint64(k), err)
		}
		le := LogEntry{Entry: e}
		if m := marks.Get(k); m != nil {
			le.RolledBackBy = binary.BigEndian.Uint64(m)
		}
		out = append(out, le)
	}
	return out, nil
}

// Entry returns log entry seq of a game as stored, with its events.
func (db *DB) Entry(id string, seq uint64) (*Entry, error) {
	return inGame(db, id, func(w *gameTx) (*Entry, error) { return w.entry(seq) })
}

// PositionAt returns the JSON of the position after entry seq (any live or
// rolled-back entry), for the game's system to decode.
func (db *DB) PositionAt(id string, seq uint64) ([]byte, error) {
	return inGame(db, id, func(w *gameTx) ([]byte, error) { return w.snapshotAt(seq) })
}

// snapshotAt returns the JSON of the position after entry seq, live or
// rolled back.
func (w *gameTx) snapshotAt(seq uint64) ([]byte, error) {
	e, err := w.entry(seq)
	if err != nil {
		return nil, err
	}
	base, err := w.base(e)
	if err != nil {
		return nil, err
	}
	return w.snapshot(base)
}

// validSecret reports whether s can hold the 128 random bits of an entry's
// secret: 26 characters or more of the base32 alphabet of crypto/rand.Text.
func validSecret(s string) bool {
	return len(s) >= 26 && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") == ""
}

// encodeEntry returns an entry's canonical JSON.
func encodeEntry(e *Entry) ([]byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	return Canonical(b)
}
