package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator"
)

// MailRef identifies a processed mail in the ledger: its Message-ID and the
// SHA-256 of its content (hex).
type MailRef struct {
	MessageID   string
	ContentHash string
}

// NewMailRef returns the ledger reference of a mail with the given
// Message-ID and raw content.
func NewMailRef(messageID string, content []byte) MailRef {
	sum := sha256.Sum256(content)
	return MailRef{MessageID: messageID, ContentHash: hex.EncodeToString(sum[:])}
}

// key is the mail's key in the ledger index: the SHA-256 of its
// Message-ID, then its content hash. A Message-ID has no length limit
// (RFC 5322 section 3.6.4) and a bbolt key has one (32 KiB), so the
// Message-ID is never a key itself.
func (m MailRef) key() []byte { return append(idPrefix(m.MessageID), m.ContentHash...) }

// idPrefix is the ledger index's prefix for a Message-ID.
func idPrefix(messageID string) []byte {
	sum := sha256.Sum256([]byte(messageID))
	return sum[:]
}

// Receipt is a ledger entry: what became of one incoming mail.
type Receipt struct {
	Seq         uint64    `json:"seq"`
	MessageID   string    `json:"message_id"`
	ContentHash string    `json:"content_hash"`
	Game        string    `json:"game,omitempty"`
	Outcome     string    `json:"outcome"`         // "accepted", or why not
	Entry       uint64    `json:"entry,omitempty"` // the log entry it produced
	Mails       []uint64  `json:"mails,omitempty"` // the outbox mails it produced
	Time        time.Time `json:"time"`
}

// Processed looks a mail up in the ledger.
func (db *DB) Processed(m MailRef) (r Receipt, ok bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		r, ok = lookupReceipt(tx, m)
		return nil
	})
	return r, ok, err
}

// Refuse records a mail that changes no game (refused orders, commands that
// only answer) with its outcome and queues the replies, in one transaction.
// game may be empty when the mail names no game. It returns ErrProcessed when
// the mail is already in the ledger.
func (db *DB) Refuse(m MailRef, game, outcome string, outbox []Mail) (Receipt, error) {
	var r Receipt
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if old, ok := lookupReceipt(tx, m); ok {
			r = old
			return fmt.Errorf("%w: %s: %s", ErrProcessed, old.MessageID, old.Outcome)
		}
		seq, err := tx.Bucket(bLedger).NextSequence()
		if err != nil {
			return err
		}
		now := db.now().UTC()
		ids, err := queueMails(tx, game, outbox, 0, seq, now)
		if err != nil {
			return err
		}
		r = Receipt{Seq: seq, MessageID: m.MessageID, ContentHash: m.ContentHash, Game: game,
			Outcome: outcome, Mails: ids, Time: now}
		return putReceipt(tx, r)
	})
	return r, err
}

// lookupReceipt finds a mail in the ledger by its Message-ID and content
// or, failing that, by its Message-ID alone: a Message-ID names one
// message (RFC 5322 3.6.4), whatever a relay did to its content.
func lookupReceipt(tx *bolt.Tx, m MailRef) (Receipt, bool) {
	var r Receipt
	idx := tx.Bucket(bLedgerIndex)
	seq := idx.Get(m.key())
	if seq == nil && m.MessageID != "" {
		prefix := idPrefix(m.MessageID)
		if k, v := idx.Cursor().Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) {
			seq = v
		}
	}
	if seq == nil {
		return r, false
	}
	if json.Unmarshal(tx.Bucket(bLedger).Get(seq), &r) != nil {
		// A receipt that cannot be read still proves the mail was processed.
		r = Receipt{Seq: binary.BigEndian.Uint64(seq), MessageID: m.MessageID, ContentHash: m.ContentHash, Outcome: "?"}
	}
	return r, true
}

// migrateLedgerKeys rekeys the ledger index from Message-ID, NUL,
// content hash to MailRef.key, taking each new key from the receipt it
// points to or, when that cannot be read, from the old key.
func migrateLedgerKeys(tx *bolt.Tx) error {
	idx, ledger := tx.Bucket(bLedgerIndex), tx.Bucket(bLedger)
	type pair struct{ k, v []byte }
	var keys []pair
	err := idx.ForEach(func(k, v []byte) error {
		var r Receipt
		n := len(k) - 2*sha256.Size
		switch {
		case json.Unmarshal(ledger.Get(v), &r) == nil:
			keys = append(keys, pair{MailRef{r.MessageID, r.ContentHash}.key(), bytes.Clone(v)})
		case n >= 1 && k[n-1] == 0:
			keys = append(keys, pair{MailRef{string(k[:n-1]), string(k[n:])}.key(), bytes.Clone(v)})
		default:
			return fmt.Errorf("ledger index key %q: no receipt, and not a Message-ID and a content hash", k)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := tx.DeleteBucket(bLedgerIndex); err != nil {
		return err
	}
	if idx, err = tx.CreateBucket(bLedgerIndex); err != nil {
		return err
	}
	for _, p := range keys {
		if err := idx.Put(p.k, p.v); err != nil {
			return err
		}
	}
	return nil
}

func putReceipt(tx *bolt.Tx, r Receipt) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := tx.Bucket(bLedger).Put(u64(r.Seq), b); err != nil {
		return err
	}
	return tx.Bucket(bLedgerIndex).Put(MailRef{r.MessageID, r.ContentHash}.key(), u64(r.Seq))
}

// Mail is an outgoing mail in the outbox; its Message-ID is fixed when it
// is queued, so a resend after a crash is the same message.
type Mail struct {
	ID          uint64       `json:"id"` // assigned when queued; outbox order
	Game        string       `json:"game,omitempty"`
	Entry       uint64       `json:"entry,omitempty"`   // the log entry that queued it
	Receipt     uint64       `json:"receipt,omitempty"` // the ledger receipt that queued it
	Shelf       string       `json:"shelf,omitempty"`   // the shelf whose own transaction queued it (UpdateShelf)
	MessageID   string       `json:"message_id"`
	From        string       `json:"from,omitempty"` // the game's own address; empty: the mailbox's
	InReplyTo   string       `json:"in_reply_to,omitempty"`
	References  []string     `json:"references,omitempty"`
	To          []string     `json:"to"`
	Subject     string       `json:"subject"`
	Text        string       `json:"text,omitempty"`        // kept with the attachment bodies, under TextSHA256
	TextSHA256  string       `json:"text_sha256,omitempty"` // set by the store when queued
	Attachments []Attachment `json:"attachments,omitempty"`
	Class       Class        `json:"class,omitempty"` // set by the game service when it queues the mail

	Queued      time.Time `json:"queued"`
	Attempts    int       `json:"attempts,omitempty"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	Sent        time.Time `json:"sent,omitzero"`
}

// Class says which mails go first when the sending quota lets only some of
// those due go (Pending): a player waiting for a report or for the word that
// their orders were taken must not wait behind a stream of answers that
// anybody can draw from attu by writing from the player's address.
type Class uint8

const (
	// ClassNormal is a report, an acknowledgement, a notice: the zero
	// value, which a mail queued before classes existed reads as.
	ClassNormal Class = iota
	// ClassAnswer is an answer to a command or a refusal: it goes after
	// every ClassNormal mail due with it.
	ClassAnswer
)

// Attachment is a file attached to an outgoing mail; the store fills in
// SHA256 and Size when the mail is queued.
type Attachment struct {
	Name   string `json:"name"`
	Type   string `json:"type"`   // MIME type
	Data   []byte `json:"-"`      // the body, kept apart from the mail's record; nil once Dropped
	SHA256 string `json:"sha256"` // of the body, lower-case hex
	Size   int    `json:"size"`   // of the body, in bytes
	// Redrawable says the body (the map picture) can be drawn again from
	// the log: from the position after entry DrawnAt (0 in a mail queued
	// before schema 7, whose body is then kept) and, with DrawnEvents,
	// that entry's events, as side DrawnFor sees them (NoSide in a mail
	// queued before the store recorded it). Such a body is kept only until
	// its mail is sent, then Dropped. It may also be queued without its
	// body (ToDraw) and drawn when the mail is sent.
	Redrawable  bool             `json:"redrawable,omitempty"`
	DrawnAt     uint64           `json:"drawn_at,omitempty"`
	DrawnEvents bool             `json:"drawn_events,omitempty"`
	DrawnFor    adjudicator.Side `json:"drawn_for,omitempty"`
	Dropped     bool             `json:"dropped,omitempty"`
}

// ToDraw says a was queued without its body, which the game service draws
// when the mail is sent (see Redrawable).
func (a *Attachment) ToDraw() bool {
	return a.Dropped && a.SHA256 == "" && a.dropOnceSent() && a.DrawnFor != adjudicator.NoSide
}

// dropOnceSent says the store drops a's body once its mail is sent: it
// can be drawn again, and from what is recorded.
func (a *Attachment) dropOnceSent() bool { return a.Redrawable && a.DrawnAt != 0 }

// queueMails puts mails in the outbox, of game (empty for none), queued by
// entry or receipt at now, and returns their ids.
func queueMails(tx *bolt.Tx, game string, mails []Mail, entry, receipt uint64, now time.Time) ([]uint64, error) {
	ob := tx.Bucket(bOutbox)
	var ids []uint64
	for _, m := range mails {
		id, err := ob.NextSequence()
		if err != nil {
			return nil, err
		}
		m.ID, m.Game, m.Entry, m.Receipt, m.Queued = id, game, entry, receipt, now
		m.Attempts, m.NextAttempt, m.LastError, m.Sent = 0, time.Time{}, "", time.Time{}
		if m.MessageID == "" {
			return nil, fmt.Errorf("store: queueing mail %q: no Message-ID", m.Subject)
		}
		storeBodies(tx, &m)
		if err := putMail(tx, &m); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Pending returns up to max unsent mails due at now (max <= 0: all), with
// their attachments' bodies: the ClassNormal ones first, then the
// ClassAnswer ones, each class oldest first, so that when the sending
// quota lets only max go, reports leave before answers.
func (db *DB) Pending(now time.Time, max int) ([]Mail, error) {
	return view(db, func(tx *bolt.Tx) ([]Mail, error) {
		var due [2][]uint64 // by class: ClassNormal, ClassAnswer
		c := tx.Bucket(bOutboxPending).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			m, err := getMail(tx, binary.BigEndian.Uint64(k), false)
			if err != nil {
				return nil, err
			}
			if m.Sent.IsZero() && !m.NextAttempt.After(now) {
				i := min(int(m.Class), len(due)-1)
				due[i] = append(due[i], m.ID)
			}
			if max > 0 && len(due[ClassNormal]) >= max {
				break // the answers would not be reached
			}
		}
		ids := append(due[ClassNormal], due[ClassAnswer]...)
		if max > 0 && len(ids) > max {
			ids = ids[:max]
		}
		out := make([]Mail, 0, len(ids))
		for _, id := range ids {
			m, err := getMail(tx, id, true)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
		}
		return out, nil
	})
}

// Outbox returns every mail of a game (sent or not), in queue order, with
// the bodies still kept; game empty means every mail.
func (db *DB) Outbox(game string) ([]Mail, error) {
	return view(db, func(tx *bolt.Tx) ([]Mail, error) { return outboxOf(tx, game) })
}

func outboxOf(tx *bolt.Tx, game string) ([]Mail, error) {
	var out []Mail
	err := tx.Bucket(bOutbox).ForEach(func(k, v []byte) error {
		if game != "" && !mailOf(v, game) {
			return nil
		}
		m, err := decodeMail(tx, binary.BigEndian.Uint64(k), v, true)
		if err != nil {
			return err
		}
		if game != "" && m.Game != game {
			return nil
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

// Mail returns one mail of the outbox, with its text and the bodies still
// kept; ErrNoMail when there is none under id.
func (db *DB) Mail(id uint64) (Mail, error) {
	return view(db, func(tx *bolt.Tx) (Mail, error) { return getMail(tx, id, true) })
}

// MarkSentAll records that the mails ids were handed to the SMTP server
// at t, all or none, and drops the bodies of their redrawable attachments
// (Attachment.Redrawable), kept as their hashes and drawn again from the
// log when wanted. Marking a mail sent twice changes nothing the second
// time.
func (db *DB) MarkSentAll(ids []uint64, t time.Time) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		for _, id := range ids {
			m, err := getMail(tx, id, false)
			if err != nil {
				return err
			}
			if !m.Sent.IsZero() {
				continue
			}
			m.Sent, m.LastError = t.UTC(), ""
			m.Attempts++
			if err := dropDrawn(tx, &m); err != nil {
				return err
			}
			if err := putMail(tx, &m); err != nil {
				return err
			}
		}
		return nil
	})
}

// Retry records a failed attempt to send mail id and when to try again.
func (db *DB) Retry(id uint64, cause error, next time.Time) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		m, err := getMail(tx, id, false)
		if err != nil {
			return err
		}
		m.Attempts++
		m.NextAttempt = next.UTC()
		if cause != nil {
			m.LastError = cause.Error()
		}
		return putMail(tx, &m)
	})
}

// NextAttempt returns when the earliest unsent mail falls due: its next
// attempt, or when it was queued for a mail not tried yet. ok is false
// when every mail is sent.
func (db *DB) NextAttempt() (next time.Time, ok bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bOutboxPending).ForEach(func(k, _ []byte) error {
			m, err := getMail(tx, binary.BigEndian.Uint64(k), false)
			if err != nil || !m.Sent.IsZero() {
				return err
			}
			due := m.NextAttempt
			if due.IsZero() {
				due = m.Queued
			}
			if !ok || due.Before(next) {
				next, ok = due, true
			}
			return nil
		})
	})
	return next, ok, err
}
