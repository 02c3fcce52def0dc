package store

import (
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Shelves: records kept beside the games for the store's clients above the
// game service (the tournaments), as JSON values by key in a named bucket
// under "aside", unread by the store. A tournament's record commits with
// the game that changes it (Txn.Shelf), and a shelf's own transaction may
// queue mails no incoming mail or entry caused (a daily digest), which
// name their shelf (Mail.Shelf) in place of an entry or a receipt.

var bAside = []byte("aside")

// Shelf is one named bucket of records inside a transaction. Its methods
// must be called only from the function it was given to.
type Shelf struct {
	name  string
	b     *bolt.Bucket // nil: a read transaction on a shelf never written
	mails []Mail
	write bool
	own   bool // the shelf's own transaction (UpdateShelf), which queues its mails
}

// shelf opens the shelf name in tx, creating it in a write transaction.
func shelf(tx *bolt.Tx, name string) (*Shelf, error) {
	if name == "" {
		return nil, fmt.Errorf("store: a shelf needs a name")
	}
	s := &Shelf{name: name, write: tx.Writable()}
	if !s.write {
		s.b = shelfBucket(tx, name)
		return s, nil
	}
	top, err := tx.CreateBucketIfNotExists(bAside)
	if err == nil {
		s.b, err = top.CreateBucketIfNotExists([]byte(name))
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// UpdateShelf runs fn on the shelf name in one write transaction: what it
// puts and queues is written together, or nothing when fn fails.
func (db *DB) UpdateShelf(name string, fn func(s *Shelf) error) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		s, err := shelf(tx, name)
		if err != nil {
			return err
		}
		s.own = true
		if err := fn(s); err != nil {
			return err
		}
		for i := range s.mails {
			s.mails[i].Shelf = name
		}
		_, err = queueMails(tx, "", s.mails, 0, 0, db.now().UTC())
		return err
	})
}

// ViewShelf runs fn on the shelf name in a read transaction; a shelf never
// written reads as empty.
func (db *DB) ViewShelf(name string, fn func(s *Shelf) error) error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		s, err := shelf(tx, name)
		if err != nil {
			return err
		}
		return fn(s)
	})
}

// Shelf opens the shelf name inside the game's transaction, so that what
// is put there commits with the game; mails go through Txn.Queue.
func (t *Txn) Shelf(name string) (*Shelf, error) { return shelf(t.tx, name) }

// Get decodes the record under key into v; false when there is none.
func (s *Shelf) Get(key string, v any) (bool, error) {
	if s.b == nil {
		return false, nil
	}
	b := s.b.Get([]byte(key))
	if b == nil {
		return false, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("store: shelf %s, %s: %w", s.name, key, err)
	}
	return true, nil
}

// Put stores v as JSON under key. It fails in a read transaction.
func (s *Shelf) Put(key string, v any) error {
	if !s.write {
		return fmt.Errorf("store: shelf %s: read-only transaction", s.name)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.b.Put([]byte(key), b)
}

// Keys returns the shelf's keys that begin with prefix, in byte order.
func (s *Shelf) Keys(prefix string) []string {
	var out []string
	if s.b == nil {
		return nil
	}
	c := s.b.Cursor()
	for k, _ := c.Seek([]byte(prefix)); k != nil && len(k) >= len(prefix) && string(k[:len(prefix)]) == prefix; k, _ = c.Next() {
		out = append(out, string(k))
	}
	return out
}

// Queue adds mails to send when UpdateShelf's transaction commits, each
// naming the shelf (Mail.Shelf); in a game's transaction use Txn.Queue.
func (s *Shelf) Queue(mails ...Mail) error {
	if !s.own {
		return fmt.Errorf("store: shelf %s: mails are queued in a write transaction", s.name)
	}
	s.mails = append(s.mails, mails...)
	return nil
}

// shelfBucket is the bucket of shelf name; nil when it was never written.
func shelfBucket(tx *bolt.Tx, name string) *bolt.Bucket {
	if top := tx.Bucket(bAside); top != nil {
		return top.Bucket([]byte(name))
	}
	return nil
}
