package store

import (
	"testing"
	"time"
)

// The list of mail given up on survives a reopen and reads oldest first,
// from a time on.
func TestFailedMail(t *testing.T) {
	db, path := openTestDB(t)
	if l, err := db.FailedMail(time.Time{}); err != nil || len(l) != 0 {
		t.Fatalf("a new file lists %v, %v", l, err)
	}
	t0 := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for i, id := range []string{"a@x.test", "b@x.test"} {
		if err := db.RecordFailed(FailedMail{Time: t0.Add(time.Duration(i) * time.Hour), Mailbox: "attu@mx INBOX",
			UID: uint32(i + 7), MessageID: id, Error: "key too large"}); err != nil {
			t.Fatal(err)
		}
	}
	closeChecked(t, db)
	db = mustOpen(t, path)
	defer closeChecked(t, db)
	all, err := db.FailedMail(time.Time{})
	if err != nil || len(all) != 2 || all[0].MessageID != "a@x.test" || all[1].Seq != 2 || all[1].UID != 8 {
		t.Fatalf("%+v %v", all, err)
	}
	if later, _ := db.FailedMail(t0); len(later) != 1 || later[0].MessageID != "b@x.test" {
		t.Errorf("after the first: %+v", later)
	}
}
