package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bQuotas holds what each Quota has counted: its key → the JSON list of
// the times it was spent within its window. It is made on first use,
// like bMailboxes, so it needs no schema version: a release that does
// not know it leaves it alone.
var bQuotas = []byte("quotas")

// Quota caps how often something may happen: at most Limit times in any
// Window (a sliding window, not a calendar one), counted under Key. The
// game service caps with quotas the answers a forged sender can draw
// from attu; they are kept in the database, so a restart forgets none.
type Quota struct {
	Key    string
	Limit  int
	Window time.Duration
}

// errSpent rolls back a Spend that found a quota used up: nothing to write.
var errSpent = errors.New("store: quota spent")

// Spend counts one use of every quota in qs at the store's clock when
// each of them has room left, and reports whether they all had; when one
// has none, nothing is counted, and nothing is written.
func (db *DB) Spend(qs ...Quota) (bool, error) {
	var ok bool
	err := db.bolt.Update(func(tx *bolt.Tx) (err error) {
		if ok, err = spend(tx, db.now().UTC(), qs); err == nil && !ok {
			err = errSpent
		}
		return err
	})
	if errors.Is(err, errSpent) {
		return false, nil
	}
	return ok, err
}

// Spend is DB.Spend inside the transaction, at its time: a use counted
// only if the transaction commits.
func (t *Txn) Spend(qs ...Quota) (bool, error) {
	ok, err := spend(t.tx, t.now, qs)
	t.spent = t.spent || ok
	return ok, err
}

func spend(tx *bolt.Tx, now time.Time, qs []Quota) (bool, error) {
	b, err := tx.CreateBucketIfNotExists(bQuotas)
	if err != nil {
		return false, err
	}
	spent := make([][]time.Time, len(qs))
	for i, q := range qs {
		if spent[i], err = quotaTimes(b, q, now); err != nil {
			return false, err
		}
		if len(spent[i]) >= q.Limit {
			return false, nil
		}
	}
	for i, q := range qs {
		v, err := json.Marshal(append(spent[i], now))
		if err != nil {
			return false, err
		}
		if err := b.Put([]byte(q.Key), v); err != nil {
			return false, err
		}
	}
	return true, nil
}

// Spent returns how many times q was spent in the window ending at the
// store's clock.
func (db *DB) Spent(q Quota) (int, error) {
	return view(db, func(tx *bolt.Tx) (int, error) {
		b := tx.Bucket(bQuotas)
		if b == nil {
			return 0, nil
		}
		ts, err := quotaTimes(b, q, db.now().UTC())
		return len(ts), err
	})
}

// quotaTimes returns the times q was spent within its window before now.
// A time after now (a clock set back) still counts: the cap holds.
func quotaTimes(b *bolt.Bucket, q Quota, now time.Time) ([]time.Time, error) {
	v := b.Get([]byte(q.Key))
	if v == nil {
		return nil, nil
	}
	var all []time.Time
	if err := json.Unmarshal(v, &all); err != nil {
		return nil, fmt.Errorf("store: quota %q: %w", q.Key, err)
	}
	var in []time.Time
	for _, t := range all {
		if t.After(now.Add(-q.Window)) {
			in = append(in, t)
		}
	}
	return in, nil
}
