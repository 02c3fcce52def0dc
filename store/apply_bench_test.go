package store

import "testing"

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
