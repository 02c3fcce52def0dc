package store

import (
	"os"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// usedBytes is how much of the file the pages in use reach (bbolt grows the
// file itself in powers of two).
func usedBytes(db *DB) int64 {
	var n int64
	db.bolt.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	return n
}

// A 20-turn game, with a 6 KB report to each of three readers after every
// orders file, fits in well under 5 MB.
func TestTwentyTurnGameSize(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 20).playTurns(t, 20)
	g, _ := db.Game("g1")
	mails, _ := db.Outbox("g1")
	used := usedBytes(db)
	closeChecked(t, db)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("20 turns: %d entries, %d dice, %d mails: file %.2f MB, %.2f MB in use", g.Entries, g.DiceNext-1, len(mails), float64(fi.Size())/(1<<20), float64(used)/(1<<20))
	if fi.Size() >= 5<<20 {
		t.Errorf("20 turns take %d bytes", fi.Size())
	}
}

// BenchmarkApply measures one committed step (an orders file from a mail,
// with dice, events, snapshot, ledger receipt and three reports), fsync
// included.
func BenchmarkApply(b *testing.B) {
	db, _ := openTestDB(b)
	createTestGame(b, db, "g1")
	d := newDriver(db, "g1", 21)
	b.ResetTimer()
	for range b.N {
		if _, err := d.step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyNoSync is the same without fsync: the cost of the work
// itself, apart from the disk.
func BenchmarkApplyNoSync(b *testing.B) {
	db, err := Open(b.TempDir()+"/nosync.db", &Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { closeChecked(b, db) })
	createTestGame(b, db, "g1")
	d := newDriver(db, "g1", 22)
	b.ResetTimer()
	for range b.N {
		if _, err := d.step(); err != nil {
			b.Fatal(err)
		}
	}
}
