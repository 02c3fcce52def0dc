package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/store"
)

// A mail whose handling fails every time (here: its game's record cannot
// be read) is tried three times, then moved to the failed folder and
// listed in the store for the umpire, and never offered again; mail after
// it is still handled.
func TestE2EPoisonMail(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := startBadMailGame(t, ctx, []string{"s1"})
	if err := g.db.Bolt().Update(func(tx *bolt.Tx) error {
		gb := tx.Bucket([]byte("games")).Bucket([]byte("g1"))
		return gb.Put([]byte("game"), []byte("{broken"))
	}); err != nil {
		t.Fatal(err)
	}
	g.send(t, g.addr["alice"], mailText(g.hdr("alice", "poison@attu.test", "[attu g1] status"), "status\n"))
	after := []string{"From: <" + g.addr["s1"] + ">", "To: <" + g.addr["attu"] + ">", "Subject: a question",
		"Message-ID: <after@attu.test>", "Date: " + time.Now().Format(time.RFC1123Z)}
	g.sendTo(t, g.addr["s1"], g.addr["attu"], mailText(after, "How do I play?\n"))
	g.settle(t, ctx)

	failed, err := g.db.FailedMail(time.Time{})
	if err != nil || len(failed) != 1 || failed[0].MessageID != "poison@attu.test" || failed[0].From != g.addr["alice"] ||
		!strings.Contains(failed[0].Error, "g1") {
		t.Fatalf("listed as failed: %+v %v", failed, err)
	}
	if _, ok, _ := g.db.Processed(store.MailRef{MessageID: "after@attu.test"}); !ok {
		t.Error("the mail after the failing one was not handled")
	}
	c, err := dialAccount(g.acct["attu"])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Select("attu-failed", &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		t.Fatalf("no failed folder: %v", err)
	}
	all := imap.UIDSet{}
	all.AddRange(1, 0)
	msgs, err := c.Fetch(all, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, m := range msgs {
		if m.Envelope != nil && m.Envelope.MessageID == "poison@attu.test" {
			moved++
		}
	}
	if moved != 1 {
		t.Errorf("the failed folder holds the mail %d times", moved)
	}
	time.Sleep(500 * time.Millisecond)
	if again, _ := g.db.FailedMail(time.Time{}); len(again) != 1 {
		t.Errorf("the mail was given up on %d times", len(again))
	}
}
