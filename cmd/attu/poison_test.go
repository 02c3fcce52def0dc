package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"mime/quotedprintable"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator"
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

// A player's mail that fails every time while its game can still be read
// (here: the position in force cannot be, so its status fails) is set
// aside as above, and the umpire is told at once by mail, naming the
// player and the mail, so that someone asks the player to send it again.
func TestE2EMailSetAsideToldToUmpire(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := startBadMailGame(t, ctx, nil)
	gm, err := g.db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	before, err := fetchInbox(g.acct["carol"])
	if err != nil {
		t.Fatal(err)
	}
	if err := g.db.Bolt().Update(func(tx *bolt.Tx) error {
		key := binary.BigEndian.AppendUint64(nil, gm.Current)
		return tx.Bucket([]byte("games")).Bucket([]byte("g1")).Bucket([]byte("snapshots")).Put(key, []byte("{broken"))
	}); err != nil {
		t.Fatal(err)
	}
	g.send(t, g.addr["alice"], mailText(g.hdr("alice", "lost@attu.test", "[attu g1] status"), "status\ntoken: "+g.tokens[adjudicator.US]+"\n"))
	g.settle(t, ctx)
	if failed, err := g.db.FailedMail(time.Time{}); err != nil || len(failed) != 1 || failed[0].MessageID != "lost@attu.test" {
		t.Fatalf("listed as failed: %+v %v", failed, err)
	}
	// Through Postfix the mail reaches the umpire's mailbox a moment after
	// it was sent.
	var told []string
	for i := 0; i < 50 && len(told) == 0; i++ {
		time.Sleep(100 * time.Millisecond)
		after, err := fetchInbox(g.acct["carol"])
		if err != nil {
			t.Fatal(err)
		}
		told = told[:0]
		for _, raw := range after[len(before):] {
			m, err := netmail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			text, err := io.ReadAll(quotedprintable.NewReader(m.Body))
			if err != nil {
				t.Fatal(err)
			}
			if s := string(text); strings.Contains(s, "could not be handled") {
				told = append(told, s)
			}
		}
	}
	if len(told) != 1 {
		t.Fatalf("the umpire was told %d times of the mail set aside", len(told))
	}
	for _, want := range []string{"A mail from the U.S. player could not be handled after 3 tries", "lost@attu.test", "send it again"} {
		if !strings.Contains(strings.Join(strings.Fields(told[0]), " "), want) {
			t.Errorf("the umpire's mail does not say %q:\n%s", want, told[0])
		}
	}
}
