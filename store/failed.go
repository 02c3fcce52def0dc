package store

import (
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bFailedMail lists the incoming mails the daemon gave up on (FailedMail),
// made on first use like bMailboxes, so it needs no schema version.
var bFailedMail = []byte("failed-mail")

// FailedMail is an incoming mail whose handling failed every time, so the
// daemon stopped offering it: its sender may be waiting for an answer
// that never comes.
type FailedMail struct {
	Seq       uint64    `json:"seq"`
	Time      time.Time `json:"time"`
	Mailbox   string    `json:"mailbox"` // the mailbox it was read from
	UID       uint32    `json:"uid"`     // and its UID there, at the time
	MessageID string    `json:"message_id,omitempty"`
	From      string    `json:"from,omitempty"`
	Subject   string    `json:"subject,omitempty"`
	Error     string    `json:"error"` // the last failure, for the operator
}

// RecordFailed adds a mail the daemon gave up on to the list FailedMail
// reads; the store sets its Seq and, when zero, its Time.
func (db *DB) RecordFailed(f FailedMail) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bFailedMail)
		if err != nil {
			return err
		}
		if f.Seq, err = b.NextSequence(); err != nil {
			return err
		}
		if f.Time.IsZero() {
			f.Time = db.now().UTC()
		}
		v, err := json.Marshal(f)
		if err != nil {
			return err
		}
		return b.Put(u64(f.Seq), v)
	})
}

// FailedMail lists the mails the daemon gave up on since after (zero for
// all), oldest first.
func (db *DB) FailedMail(after time.Time) ([]FailedMail, error) {
	return view(db, func(tx *bolt.Tx) (out []FailedMail, err error) {
		if b := tx.Bucket(bFailedMail); b != nil {
			err = b.ForEach(func(_, v []byte) error {
				var f FailedMail
				if err := json.Unmarshal(v, &f); err != nil {
					return err
				}
				if f.Time.After(after) {
					out = append(out, f)
				}
				return nil
			})
		}
		return out, err
	})
}
