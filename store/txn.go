package store

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator"
)

// Txn is one game inside one write transaction of Transact (see the
// package documentation). Its methods must be called only from the
// function given to Transact, and must not call the DB.
type Txn struct {
	tx      *bolt.Tx
	w       *gameTx
	now     time.Time
	mail    *MailRef
	linked  uint64 // the entry that carries the mail's Message-ID, which its receipt names
	outcome string
	mails   []queued
	changed bool
	amended bool // a receipt of the ledger was rewritten
	spent   bool // a quota was counted (Spend)
}

// errUnchanged rolls back a write transaction that wrote nothing, rather
// than commit it: a commit costs an fsync even when empty, and the
// deadline timer looks at every game in a transaction of its own.
var errUnchanged = errors.New("store: nothing to write")

type queued struct {
	mail  Mail
	entry uint64
}

// Transact runs fn on game id in one write transaction. When mail is set
// it is the incoming mail being answered: a mail already in the ledger is
// refused with ErrProcessed before fn runs, and otherwise its receipt is
// written with what fn did (Txn.Outcome, the entry that carries its
// Message-ID, the mails fn queued) and returned. When fn returns an error
// nothing at all is written and Transact returns it; ErrNoGame when the
// game does not exist. A transaction that only queues mails and records
// its receipt leaves the game's buckets as they were, byte for byte.
func (db *DB) Transact(id string, mail *MailRef, fn func(t *Txn) error) (Receipt, error) {
	var r Receipt
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		w, err := openGame(tx, id)
		if err != nil {
			return err
		}
		if mail != nil {
			if old, ok := lookupReceipt(tx, *mail); ok {
				r = old
				return fmt.Errorf("%w: %s on %s: %s", ErrProcessed, old.MessageID, old.Time.Format(time.RFC3339), old.Outcome)
			}
		}
		t := &Txn{tx: tx, w: w, now: db.now().UTC(), mail: mail}
		if err := fn(t); err != nil {
			return err
		}
		var seq uint64
		if mail != nil {
			if seq, err = tx.Bucket(bLedger).NextSequence(); err != nil {
				return err
			}
		}
		var ids []uint64
		for _, q := range t.mails {
			got, err := queueMails(tx, id, []Mail{q.mail}, q.entry, seq, t.now)
			if err != nil {
				return err
			}
			ids = append(ids, got...)
		}
		if mail != nil {
			r = Receipt{Seq: seq, MessageID: mail.MessageID, ContentHash: mail.ContentHash, Game: id,
				Outcome: cmp.Or(t.outcome, "accepted"), Entry: t.linked, Mails: ids, Time: t.now}
			if err := putReceipt(tx, r); err != nil {
				return err
			}
		}
		if t.changed {
			return w.save()
		}
		if mail == nil && len(t.mails) == 0 && !t.amended && !t.spent {
			return errUnchanged
		}
		return nil
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return r, err
}

// Game returns a copy of the game's record as the transaction has it.
func (t *Txn) Game() Game {
	g := *t.w.g
	g.Players = slices.Clone(g.Players)
	g.Service = slices.Clone(g.Service)
	return g
}

// Now is the store's clock at the start of the transaction: the time its
// entries and receipt record.
func (t *Txn) Now() time.Time { return t.now }

// Position returns the JSON of the position in force, for the game's
// system to decode.
func (t *Txn) Position() ([]byte, error) { return t.w.snapshot(t.w.g.Current) }

// PositionAt returns the JSON of the position after entry seq (live or
// rolled back): what a mail queued then showed, to draw it again
// (Attachment.DrawnAt).
func (t *Txn) PositionAt(seq uint64) ([]byte, error) { return t.w.snapshotAt(seq) }

// Entry returns log entry seq as stored, with its events.
func (t *Txn) Entry(seq uint64) (*Entry, error) { return t.w.entry(seq) }

// Outcome sets what the receipt of the transaction's mail says became of
// it ("accepted" when not set).
func (t *Txn) Outcome(s string) { t.outcome = s }

// Queue adds mails to send when the transaction commits. Each is queued
// by the last entry the transaction appended before the call (or the
// game's last entry) and by the mail's receipt.
func (t *Txn) Queue(mails ...Mail) {
	for _, m := range mails {
		t.mails = append(t.mails, queued{mail: m, entry: t.w.g.Entries})
	}
}

// Note appends an entry of kind note, which changes no position: side
// is who gave the command (NoSide for the server); with fromMail the
// entry carries the transaction's mail's Message-ID.
func (t *Txn) Note(side adjudicator.Side, text string, fromMail bool) (*Entry, error) {
	return t.note(side, text, fromMail, false)
}

// Aside is Note for a note only side and the umpire may read
// (Entry.Private).
func (t *Txn) Aside(side adjudicator.Side, text string, fromMail bool) (*Entry, error) {
	return t.note(side, text, fromMail, true)
}

func (t *Txn) note(side adjudicator.Side, text string, fromMail, private bool) (*Entry, error) {
	w := t.w
	g := w.g
	last, err := w.entry(g.Entries)
	if err != nil {
		return nil, err
	}
	e := &Entry{Kind: KindNote, Time: t.now, Turn: g.Wait.Turn, Wait: g.Wait.Kind, Side: side,
		Note: text, Private: private, State: last.State, Next: g.Wait}
	if fromMail {
		if t.mail == nil || t.linked != 0 {
			return nil, fmt.Errorf("store: a note from a mail needs the transaction's mail, once")
		}
		e.MessageID = t.mail.MessageID
	}
	if err := w.append(e, nil, nil); err != nil {
		return nil, err
	}
	if fromMail {
		t.linked = e.Seq
	}
	t.changed = true
	return e, nil
}

// SetStatus pauses or resumes the game; End ends it.
func (t *Txn) SetStatus(s Status) error {
	if s != Active && s != Paused {
		return fmt.Errorf("store: SetStatus: %q (use End to end a game)", s)
	}
	if t.w.g.Status == Ended {
		return fmt.Errorf("%w: it has ended", ErrNotActive)
	}
	t.w.g.Status = s
	t.changed = true
	return nil
}

// SetDeadline sets the deadline of the current wait (zero for none).
func (t *Txn) SetDeadline(d time.Time) {
	t.w.g.Deadline = d
	t.changed = true
}

// SetPlayer sets a side's address and, when token is not empty, its token
// (only its hash is kept).
func (t *Txn) SetPlayer(s adjudicator.Side, address, token string) {
	g := t.w.g
	t.changed = true
	for i := range g.Players {
		if g.Players[i].Side == s {
			g.Players[i].Address = address
			if token != "" {
				g.Players[i].TokenHash = HashToken(token)
			}
			return
		}
	}
	g.Players = append(g.Players, Player{Side: s, Address: address, TokenHash: HashToken(token)})
}

// SetService replaces the game service's own record of the game
// (Game.Service).
func (t *Txn) SetService(b json.RawMessage) {
	t.w.g.Service = slices.Clone(b)
	t.changed = true
}

// Amend changes what the receipt of an earlier mail of this game says
// became of it, when that mail produced no entry: orders held for the
// settle window and then replaced by newer ones.
func (t *Txn) Amend(m MailRef, outcome string) error {
	r, ok := lookupReceipt(t.tx, m)
	if !ok || r.Game != t.w.g.ID || r.Entry != 0 {
		return fmt.Errorf("store: no receipt without an entry for %s in game %s", m.MessageID, t.w.g.ID)
	}
	r.Outcome = outcome
	t.amended = true
	return putReceipt(t.tx, r)
}

// Outbox returns the mails of the game, sent or not, in queue order.
func (t *Txn) Outbox() ([]Mail, error) { return outboxOf(t.tx, t.w.g.ID) }

// Log returns the game's entries, as DB.Log does.
func (t *Txn) Log() ([]LogEntry, error) { return t.w.log(1) }

// LogFrom returns the game's entries from seq from on, as DB.Log does:
// what a step needs of the log, without reading all of it.
func (t *Txn) LogFrom(from uint64) ([]LogEntry, error) { return t.w.log(max(from, 1)) }

// Export returns the game as DB.Export does, as the transaction has it.
func (t *Txn) Export(reveal bool) (*Export, error) {
	x, err := t.w.export(t.now, reveal)
	if err != nil {
		return nil, fmt.Errorf("store: export %s: %w", t.w.g.ID, err)
	}
	return x, nil
}
