package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// A quota allows Limit uses in any Window, a sliding one: the uses come
// back one by one as the window moves past them. Every quota of a Spend
// must have room, else none is counted. What was counted is in the file:
// a database opened again counts on.
func TestQuota(t *testing.T) {
	clk := time.Date(2026, 5, 11, 8, 0, 0, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "attu.db")
	open := func() *DB {
		db, err := Open(path, &Options{NoSync: true, Now: func() time.Time { return clk }})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open()
	day := Quota{Key: "g1 us@example.org", Limit: 3, Window: 24 * time.Hour}
	hour := Quota{Key: "all", Limit: 4, Window: time.Hour}
	if n, err := db.Spent(day); n != 0 || err != nil {
		t.Fatalf("a new file: the quota was spent %d times, %v", n, err)
	}
	spend := func(want bool, qs ...Quota) {
		t.Helper()
		ok, err := db.Spend(qs...)
		if err != nil || ok != want {
			t.Fatalf("at %s: spend %v: %v %v, want %v", clk.Format(time.TimeOnly), qs, ok, err, want)
		}
	}
	for range 2 {
		spend(true, day, hour)
		clk = clk.Add(time.Minute)
	}
	// A restart in the middle forgets nothing.
	closeChecked(t, db)
	db = open()
	spend(true, day, hour)
	spend(false, day, hour)
	if n, _ := db.Spent(hour); n != 3 {
		t.Errorf("the hour's quota was counted %d times, want 3: a spent quota beside it counts nothing", n)
	}
	other := Quota{Key: "g1 jp@example.org", Limit: 3, Window: 24 * time.Hour}
	spend(true, other, hour)
	spend(false, other, hour) // the hour's is spent
	clk = clk.Add(time.Hour - time.Minute)
	spend(true, other, hour) // the uses of 08:00 and 08:01 left the hour's window
	clk = clk.Add(22*time.Hour + 58*time.Minute)
	spend(false, day, hour) // 07:59 the next day: the day's three are still in its window
	clk = clk.Add(2 * time.Minute)
	spend(true, day, hour) // 08:01: those of 08:00 and 08:01 left it
	if n, err := db.Spent(day); err != nil || n != 2 {
		t.Errorf("the day's quota: %d uses in its window, %v; want 2", n, err)
	}
	closeChecked(t, db)
}

// When the sending quota lets only some of the due mails go, the reports
// and notices go before the answers to commands and refusals, each class
// oldest first; a mail stored without a class is a report's class.
func TestPendingReportsFirst(t *testing.T) {
	db, _ := openTestDB(t)
	var ms []Mail
	for i := range 6 {
		m := Mail{MessageID: fmt.Sprintf("<m%d@attu.test>", i), To: []string{"us@example.org"}, Subject: fmt.Sprint(i), Text: "text"}
		if i%3 != 2 {
			m.Class = ClassAnswer // 0, 1, 3, 4 answer; 2 and 5 are reports
		}
		ms = append(ms, m)
	}
	if _, err := db.Refuse(NewMailRef("<in@attu.test>", nil), "", "refused: test", ms); err != nil {
		t.Fatal(err)
	}
	subjects := func(ms []Mail) string {
		s := ""
		for _, m := range ms {
			s += m.Subject
		}
		return s
	}
	now := time.Now().Add(time.Minute)
	for max, want := range map[int]string{1: "2", 2: "25", 3: "250", 0: "250134"} {
		p, err := db.Pending(now, max)
		if err != nil {
			t.Fatal(err)
		}
		if got := subjects(p); got != want {
			t.Errorf("Pending(%d): %s, want %s", max, got, want)
		}
	}
	p, _ := db.Pending(now, 0)
	if err := db.MarkSentAll([]uint64{p[0].ID, p[1].ID}, now); err != nil {
		t.Fatal(err)
	}
	if p, _ := db.Pending(now, 2); subjects(p) != "01" {
		t.Errorf("once the reports are sent: %s, want the oldest answers, 01", subjects(p))
	}
}
