package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bMailboxes holds, for each mailbox the mail daemon reads, how far it has
// read (MailboxPosition). Made on first use, it needs no schema version: a
// file without it reads as "nothing read yet", and an earlier release
// ignores it.
var bMailboxes = []byte("mailboxes")

// MailboxPosition is how far the mail daemon has read one IMAP mailbox:
// its UIDVALIDITY and the last UID whose mail the store has committed
// (RFC 3501 section 2.3.1.1). It is a cache: losing it only makes the
// daemon offer old mail again, which the ledger recognises and ignores.
type MailboxPosition struct {
	UIDValidity uint32
	LastUID     uint32
}

// MailboxPosition returns how far mailbox (a name the caller chooses) has
// been read; the zero position when it never was.
func (db *DB) MailboxPosition(mailbox string) (MailboxPosition, error) {
	return view(db, func(tx *bolt.Tx) (MailboxPosition, error) {
		var v []byte
		if b := tx.Bucket(bMailboxes); b != nil {
			v = b.Get([]byte(mailbox))
		}
		switch {
		case v == nil:
			return MailboxPosition{}, nil
		case len(v) != 8:
			return MailboxPosition{}, fmt.Errorf("store: the position of mailbox %q is %d bytes, want 8", mailbox, len(v))
		}
		return MailboxPosition{binary.BigEndian.Uint32(v[:4]), binary.BigEndian.Uint32(v[4:])}, nil
	})
}

// SetMailboxPosition records how far mailbox has been read.
func (db *DB) SetMailboxPosition(mailbox string, p MailboxPosition) error {
	var v [8]byte
	binary.BigEndian.PutUint32(v[:4], p.UIDValidity)
	binary.BigEndian.PutUint32(v[4:], p.LastUID)
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bMailboxes)
		if err != nil {
			return err
		}
		return b.Put([]byte(mailbox), v[:])
	})
	if err != nil {
		return fmt.Errorf("store: saving the position of mailbox %q: %w", mailbox, err)
	}
	return nil
}
