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

func (m MailRef) key() []byte { return []byte(m.MessageID + "\x00" + m.ContentHash) }

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
func (db *DB) Processed(m MailRef) (Receipt, bool, error) {
	var r Receipt
	var ok bool
	err := db.bolt.View(func(tx *bolt.Tx) error {
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
		seq, err := reserveReceipt(tx)
		if err != nil {
			return err
		}
		now := db.now().UTC()
		w := &gameTx{tx: tx}
		ids, err := w.queueFor(game, outbox, 0, seq, now)
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
// message (RFC 5322 3.6.4), so a second mail under it is a copy, whatever
// a relay did to its content.
func lookupReceipt(tx *bolt.Tx, m MailRef) (Receipt, bool) {
	var r Receipt
	idx := tx.Bucket(bLedgerIndex)
	seq := idx.Get(m.key())
	if seq == nil && m.MessageID != "" {
		prefix := []byte(m.MessageID + "\x00")
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

func reserveReceipt(tx *bolt.Tx) (uint64, error) { return tx.Bucket(bLedger).NextSequence() }

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

// Mail is an outgoing mail waiting in the outbox, or sent. The mail package
// turns it into a message; its Message-ID is fixed when it is queued so a
// resend after a crash is the same message.
type Mail struct {
	ID          uint64       `json:"id"`                // assigned when queued; outbox order
	Game        string       `json:"game,omitempty"`    //
	Entry       uint64       `json:"entry,omitempty"`   // the log entry that queued it
	Receipt     uint64       `json:"receipt,omitempty"` // the ledger receipt that queued it
	Shelf       string       `json:"shelf,omitempty"`   // the shelf whose own transaction queued it (UpdateShelf)
	MessageID   string       `json:"message_id"`
	From        string       `json:"from,omitempty"` // the game's own address; empty: the mailbox's
	InReplyTo   string       `json:"in_reply_to,omitempty"`
	References  []string     `json:"references,omitempty"`
	To          []string     `json:"to"`
	Subject     string       `json:"subject"`
	Text        string       `json:"text"`
	Attachments []Attachment `json:"attachments,omitempty"`

	Queued      time.Time `json:"queued"`
	Attempts    int       `json:"attempts,omitempty"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	Sent        time.Time `json:"sent,omitzero"`
}

// Attachment is a file attached to an outgoing mail.
type Attachment struct {
	Name string `json:"name"`
	Type string `json:"type"` // MIME type
	Data []byte `json:"data"`
}

func (w *gameTx) queue(mails []Mail, entry, receipt uint64, now time.Time) ([]uint64, error) {
	return w.queueFor(w.g.ID, mails, entry, receipt, now)
}

func (w *gameTx) queueFor(game string, mails []Mail, entry, receipt uint64, now time.Time) ([]uint64, error) {
	ob := w.tx.Bucket(bOutbox)
	var ids []uint64
	for _, m := range mails {
		id, err := ob.NextSequence()
		if err != nil {
			return nil, err
		}
		m.ID, m.Game, m.Entry, m.Receipt, m.Queued = id, game, entry, receipt, now
		if m.MessageID == "" {
			return nil, fmt.Errorf("store: queueing mail %q: no Message-ID", m.Subject)
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		if err := ob.Put(u64(id), b); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// Pending returns up to max unsent mails due at now, oldest first (max <= 0:
// all).
func (db *DB) Pending(now time.Time, max int) ([]Mail, error) {
	var out []Mail
	err := db.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bOutbox).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var m Mail
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("store: outbox mail %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if !m.Sent.IsZero() || m.NextAttempt.After(now) {
				continue
			}
			out = append(out, m)
			if max > 0 && len(out) == max {
				break
			}
		}
		return nil
	})
	return out, err
}

// Outbox returns every mail of a game (sent or not), in queue order; game
// empty means every mail.
func (db *DB) Outbox(game string) ([]Mail, error) {
	var out []Mail
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bOutbox).ForEach(func(k, v []byte) error {
			var m Mail
			if err := json.Unmarshal(v, &m); err != nil {
				return fmt.Errorf("store: outbox mail %d: %w", binary.BigEndian.Uint64(k), err)
			}
			if game == "" || m.Game == game {
				out = append(out, m)
			}
			return nil
		})
	})
	return out, err
}

// MarkSent records that mail id was handed to the SMTP server at t.
func (db *DB) MarkSent(id uint64, t time.Time) error {
	return db.editMail(id, func(m *Mail) { m.Sent = t.UTC(); m.Attempts++; m.LastError = "" })
}

// Retry records a failed attempt to send mail id and when to try again.
func (db *DB) Retry(id uint64, cause error, next time.Time) error {
	return db.editMail(id, func(m *Mail) {
		m.Attempts++
		m.NextAttempt = next.UTC()
		if cause != nil {
			m.LastError = cause.Error()
		}
	})
}

func (db *DB) editMail(id uint64, f func(*Mail)) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		ob := tx.Bucket(bOutbox)
		v := ob.Get(u64(id))
		if v == nil {
			return fmt.Errorf("%w: %d", ErrNoMail, id)
		}
		var m Mail
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("store: outbox mail %d: %w", id, err)
		}
		f(&m)
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		return ob.Put(u64(id), b)
	})
}
