package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Check verifies the whole file: bbolt's own page consistency, then the
// store's invariants (chained logs, snapshots, order files, dice, receipts,
// mails and their bodies, every snapshot sound by its game's rules, which
// must be among systems), and returns every problem found, joined. Run it
// while nothing writes to the file: bbolt's page check reads the free list
// without the lock a writer takes.
func (db *DB) Check(systems ...Rules) error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, fmt.Errorf("bbolt: %w", err))
		}
		if len(errs) == 0 { // invariants on a broken file would only add noise
			errs = checkTx(tx, systems)
		}
		return errors.Join(errs...)
	})
}

func checkTx(tx *bolt.Tx, systems []Rules) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	meta := tx.Bucket(bMeta)
	if meta == nil || len(meta.Get(kVersion)) != 8 || binary.BigEndian.Uint64(meta.Get(kVersion)) != SchemaVersion {
		bad("schema version missing or not %d", SchemaVersion)
		return errs
	}
	entries := map[string]map[uint64]*Entry{} // game → seq → entry
	due := map[string]time.Time{}             // game → Game.Due
	err := tx.Bucket(bGames).ForEachBucket(func(k []byte) error {
		w, err := openGame(tx, string(k))
		if err != nil {
			bad("%v", err)
			return nil
		}
		due[w.g.ID] = w.g.Due
		es := map[uint64]*Entry{}
		entries[w.g.ID] = es
		errs = append(errs, checkGame(w, es, systems)...)
		return nil
	})
	if err != nil {
		bad("%v", err)
	}
	errs = append(errs, checkDue(tx, due)...)
	mails := checkOutbox(tx, bad)
	for _, m := range mails {
		if m.Entry != 0 && entries[m.Game][m.Entry] == nil {
			bad("mail %d: game %s has no entry %d", m.ID, m.Game, m.Entry)
		}
		for _, a := range m.Attachments {
			if a.DrawnAt != 0 && entries[m.Game][a.DrawnAt] == nil {
				bad("mail %d: %s drawn at entry %d, which game %q does not have", m.ID, a.Name, a.DrawnAt, m.Game)
			}
		}
		if m.Entry == 0 && m.Receipt == 0 && m.Shelf == "" {
			bad("mail %d: queued by neither an entry nor a receipt", m.ID)
		}
		if m.Shelf != "" && shelfBucket(tx, m.Shelf) == nil {
			bad("mail %d: queued by shelf %q, which is not in the file", m.ID, m.Shelf)
		}
	}
	receipts := map[uint64]bool{}
	receipted := map[string]bool{} // game NUL entry
	index := tx.Bucket(bLedgerIndex)
	tx.Bucket(bLedger).ForEach(func(k, v []byte) error {
		var r Receipt
		if err := json.Unmarshal(v, &r); err != nil {
			bad("receipt %x: %v", k, err)
			return nil
		}
		receipts[r.Seq] = true
		if got := index.Get(MailRef{r.MessageID, r.ContentHash}.key()); got == nil || binary.BigEndian.Uint64(got) != r.Seq {
			bad("receipt %d: not in the ledger index", r.Seq)
		}
		if r.Entry != 0 {
			receipted[r.Game+"\x00"+fmt.Sprint(r.Entry)] = true
			e := entries[r.Game][r.Entry]
			if e == nil {
				bad("receipt %d (%s): game %s has no entry %d", r.Seq, r.MessageID, r.Game, r.Entry)
			} else if e.MessageID != r.MessageID {
				bad("receipt %d: entry %d carries Message-ID %q, not %q", r.Seq, r.Entry, e.MessageID, r.MessageID)
			}
		}
		for _, id := range r.Mails {
			if m, ok := mails[id]; !ok || m.Receipt != r.Seq {
				bad("receipt %d: mail %d missing from the outbox", r.Seq, id)
			}
		}
		return nil
	})
	if n := index.Stats().KeyN; n != len(receipts) {
		bad("ledger index has %d keys for %d receipts", n, len(receipts))
	}
	for id, m := range mails {
		if m.Receipt != 0 && !receipts[m.Receipt] {
			bad("mail %d: no receipt %d", id, m.Receipt)
		}
	}
	for game, es := range entries {
		for _, e := range es {
			if e.MessageID != "" && !receipted[game+"\x00"+fmt.Sprint(e.Seq)] {
				bad("game %s entry %d: mail %s has no receipt", game, e.Seq, e.MessageID)
			}
		}
	}
	return errs
}

func checkGame(w *gameTx, es map[uint64]*Entry, systems []Rules) []error {
	var errs []error
	g := w.g
	var rules Rules
	for _, r := range systems {
		if r.System() == g.SystemName() {
			rules = r
		}
	}
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("game %s: "+format, append([]any{g.ID}, args...)...))
	}
	for _, name := range [][]byte{bLog, bMarks, bOrders, bDice, bSnapshots} {
		if w.b.Bucket(name) == nil {
			bad("bucket %s missing", name)
			return errs
		}
	}
	var prev string
	var seq uint64
	w.b.Bucket(bLog).ForEach(func(k, v []byte) error {
		seq++
		e := new(Entry)
		if err := json.Unmarshal(v, e); err != nil {
			bad("entry %d: %v", seq, err)
			return nil
		}
		es[e.Seq] = e
		if binary.BigEndian.Uint64(k) != seq || e.Seq != seq {
			bad("entry %d stored as %d under key %x", seq, e.Seq, k)
		}
		if e.Prev != prev {
			bad("entry %d: chain broken (prev %.12s, want %.12s)", seq, e.Prev, prev)
		}
		prev = hashHex(v)
		switch e.Kind {
		case KindCreate, KindOrders:
			snap, err := w.snapshot(seq)
			if err != nil {
				bad("entry %d: %v", seq, err)
				break
			}
			if hashHex(snap) != e.State {
				bad("entry %d: snapshot does not match the state hash", seq)
			}
			if rules == nil {
				bad("entry %d: no rules of %s to read its snapshot with", seq, g.SystemName())
			} else if s, err := rules.Position(snap); err != nil {
				bad("entry %d: snapshot: %v", seq, err)
			} else if err := s.Validate(); err != nil {
				bad("entry %d: snapshot: %v: %w", seq, ErrUnsound, err)
			}
		}
		if e.Kind == KindOrders {
			raw := w.b.Bucket(bOrders).Get(k)
			if raw == nil || hashHex(raw) != e.RawSHA256 {
				bad("entry %d: order file missing or altered", seq)
			} else if err := checkRedacted(raw); err != nil {
				bad("entry %d: %v", seq, err)
			}
		}
		return nil
	})
	if seq != g.Entries || prev != g.Head {
		bad("record says %d entries, head %.12s; log has %d, head %.12s", g.Entries, g.Head, seq, prev)
	}
	w.b.Bucket(bSnapshots).ForEach(func(k, _ []byte) error {
		if es[binary.BigEndian.Uint64(k)] == nil {
			bad("snapshot %x without an entry", k)
		}
		return nil
	})
	w.b.Bucket(bOrders).ForEach(func(k, _ []byte) error {
		if e := es[binary.BigEndian.Uint64(k)]; e == nil || e.Kind != KindOrders {
			bad("order file %x without an orders entry", k)
		}
		return nil
	})
	w.b.Bucket(bMarks).ForEach(func(k, v []byte) error {
		by := es[binary.BigEndian.Uint64(v)]
		if by == nil || by.Kind != KindRollback || es[binary.BigEndian.Uint64(k)] == nil {
			bad("mark %x → %x does not name a rollback", k, v)
		}
		return nil
	})
	if c := w.b.Bucket(bSnapshots).Get(u64(g.Current)); c == nil {
		bad("current position %d has no snapshot", g.Current)
	}
	var die uint64
	w.b.Bucket(bDice).ForEach(func(k, v []byte) error {
		die++
		var r Roll
		if err := json.Unmarshal(v, &r); err != nil {
			bad("die %d: %v", die, err)
			return nil
		}
		if binary.BigEndian.Uint64(k) != die || r.Seq != die {
			bad("die %d stored as %d", die, r.Seq)
		}
		if e := es[r.Entry]; e == nil || r.Seq < e.DiceFrom || r.Seq >= e.DiceTo {
			bad("die %d: not in the range of entry %d", die, r.Entry)
		}
		return nil
	})
	if g.DiceNext != die+1 {
		bad("dice counter at %d after %d dice", g.DiceNext, die)
	}
	for _, e := range es {
		if e.DiceTo != 0 && (e.DiceTo <= e.DiceFrom || e.DiceTo > die+1) {
			bad("entry %d: dice %d..%d not in the dice log", e.Seq, e.DiceFrom, e.DiceTo)
		}
	}
	return errs
}
