package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The due index (bucket "due") holds one key per game whose Game.Due is
// set: the time, as 8 big-endian bytes of nanoseconds since 1970, and
// the game's id. It is written with the game's record (gameTx.save), so
// the two never disagree, and Due walks it in time order, as far as now,
// so that a look at what time brings reads the games it brings something
// to and no others. A host such as the game service keeps Game.Due at
// the earliest time anything may be due in the game; the store never
// judges that.

// dueKey is game id's key in the due index for the time at.
func dueKey(at time.Time, id string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano())), id...)
}

// saveDue moves game g's key in the due index from the time was to
// g.Due.
func saveDue(tx *bolt.Tx, g *Game, was time.Time) error {
	if g.Due.Equal(was) {
		return nil
	}
	b := tx.Bucket(bDue)
	if !was.IsZero() {
		if err := b.Delete(dueKey(was, g.ID)); err != nil {
			return err
		}
	}
	if g.Due.IsZero() {
		return nil
	}
	return b.Put(dueKey(g.Due, g.ID), nil)
}

// Due returns the ids of the games whose Game.Due is not after now,
// earliest first, reading the due index only.
func (db *DB) Due(now time.Time) ([]string, error) {
	return view(db, func(tx *bolt.Tx) (ids []string, err error) {
		end := binary.BigEndian.AppendUint64(nil, uint64(now.UnixNano()))
		c := tx.Bucket(bDue).Cursor()
		for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) <= 0; k, _ = c.Next() {
			ids = append(ids, string(k[8:]))
		}
		return ids, nil
	})
}

// SetDue sets when the host next has something to do in the game
// (Game.Due; zero for never), and the game's key in the due index with
// it.
func (t *Txn) SetDue(d time.Time) {
	d = d.UTC()
	if t.w.g.Due.Equal(d) {
		return
	}
	t.w.g.Due = d
	t.changed = true
}

// migrateDue builds the due index: every game that has not ended is due
// at once (at its creation), so that the host's first look puts each at
// its own time, and none is missed for want of one.
func migrateDue(tx *bolt.Tx) error {
	// Built afresh, whatever a file marked older than it is holds.
	if tx.Bucket(bDue) != nil {
		if err := tx.DeleteBucket(bDue); err != nil {
			return err
		}
	}
	if _, err := tx.CreateBucket(bDue); err != nil {
		return err
	}
	return eachGame("cannot be given its place in the due index: %w", func(gb *bolt.Bucket) error {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(gb.Get(kGame), &rec); err != nil {
			return err
		}
		var g struct {
			ID      string    `json:"id"`
			Status  Status    `json:"status"`
			Created time.Time `json:"created"`
		}
		if err := json.Unmarshal(gb.Get(kGame), &g); err != nil {
			return err
		}
		if g.Status == Ended {
			if _, ok := rec["due"]; !ok {
				return nil
			}
			delete(rec, "due")
		} else {
			rec["due"], _ = json.Marshal(g.Created.UTC())
		}
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := gb.Put(kGame, b); err != nil || g.Status == Ended {
			return err
		}
		return tx.Bucket(bDue).Put(dueKey(g.Created, g.ID), nil)
	})(tx)
}

// checkDue reports the keys of the due index that do not match the Due
// of their game, and the games whose Due has no key; due holds each
// game's Due as its record says.
func checkDue(tx *bolt.Tx, due map[string]time.Time) []error {
	var errs []error
	b := tx.Bucket(bDue)
	if b == nil {
		return []error{fmt.Errorf("bucket %s missing", bDue)}
	}
	keys := 0
	b.ForEach(func(k, _ []byte) error {
		keys++
		if len(k) < 9 {
			errs = append(errs, fmt.Errorf("due index: key %x is too short", k))
			return nil
		}
		id := string(k[8:])
		at, ok := due[id]
		if !ok || at.IsZero() || !bytes.Equal(k, dueKey(at, id)) {
			errs = append(errs, fmt.Errorf("due index: game %s at %s, its record says %v", id,
				time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))).UTC().Format(time.RFC3339Nano), at))
		}
		return nil
	})
	n := 0
	for _, at := range due {
		if !at.IsZero() {
			n++
		}
	}
	if n != keys {
		errs = append(errs, fmt.Errorf("due index: %d keys for %d games with a due time", keys, n))
	}
	return errs
}
