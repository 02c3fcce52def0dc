package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// outboxClock is the outbox's clock in a test: it stands still until the
// test moves it, so that a sending quota binds for as long as the test
// wants, whatever the real time the mail takes.
type outboxClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *outboxClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *outboxClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// floodLure is what the forger would have attu carry to the player.
const floodLure = "your token was reset, reply to mallory@evil.test for the new one"

// floodMail is the i-th of a forger's mails from the address of user:
// every command, orders files with no token or a wrong one, mail with a
// part attu does not read, mail in HTML only (which the daemon answers
// itself), each with the lure in its subject, its arguments and its
// part's name.
func floodMail(td *testDaemon, user string, i int) []byte {
	hdr := []string{"From: <" + td.acct[user].Address + ">", "To: <" + td.gameAddress() + ">",
		"Subject: [attu g1] " + floodLure, fmt.Sprintf("Message-ID: <flood-%d@evil.test>", i),
		"Date: " + time.Now().Format(time.RFC1123Z)}
	bodies := []string{"resend", "template", "status", "log", "help", "log 9999 " + floodLure, "concede",
		"takeback\ntoken: not-the-token", "standings", "json on", floodLure}
	switch i % 14 {
	case 11:
		return withOrders(hdr, floodLure)
	case 12:
		return withOrders(hdr, "game: g1\nside: jp\nturn: 1\nwait: actions\ntoken: mallory-evil-test\nactions: []")
	case 13:
		return mailText(append(hdr, "MIME-Version: 1.0", "Content-Type: text/html; charset=utf-8"), "<p>"+floodLure+"</p>\n")
	}
	hdr = append(hdr, "MIME-Version: 1.0", `Content-Type: multipart/mixed; boundary="bnd"`)
	return mailText(hdr, "--bnd\nContent-Type: text/plain; charset=utf-8\n\n"+bodies[i%14]+"\n"+
		"--bnd\nContent-Type: application/zip\nContent-Disposition: attachment; filename=\"mallory@evil.test.zip\"\n\nUEsDBA==\n--bnd--\n")
}

// attachmentCount is how many attachments a raw mail carries.
func attachmentCount(t *testing.T, raw []byte) int {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.Header.(*gomail.AttachmentHeader); ok {
			n++
		}
	}
}

// handled waits until the daemon has read every mail of its INBOX, then
// a little longer for what it queues to go, as far as the quota lets it.
func (td *testDaemon) handled(t *testing.T, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(100 * time.Millisecond) {
		left, err := fetchInbox(td.acct["attu"])
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v %d mails wait to be read", within, len(left))
		}
	}
	time.Sleep(time.Second)
}

// classes returns the mails to address, unsent and sent, the answers
// apart from the rest.
func classes(t *testing.T, db *store.DB, address string) (answers, reports []store.Mail) {
	t.Helper()
	all, err := db.Outbox("")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		switch {
		case len(m.To) != 1 || m.To[0] != address:
		case m.Class == store.ClassAnswer:
			answers = append(answers, m)
		default:
			reports = append(reports, m)
		}
	}
	return answers, reports
}

// 500 mails in one hour from the Japanese player's address, forged (the
// daemon authenticates no sender) and without the side's token, through
// the mail servers, with the daemon restarted after 250: they draw at
// most referee.DefaultAnswers answers between them, the restart
// notwithstanding, none with an attachment or the forger's words, and
// leave the game byte for byte as it was. The sending quota (per_hour)
// binds meanwhile, on a clock that stands still; the U.S. player's
// orders come after the flood, and when the quota has room again the
// reports they cause leave before the answers that waited longer. With
// ATTU_MAILSERVERS set, through Dovecot and Postfix.
func TestE2EForgedFlood(t *testing.T) {
	clk := &outboxClock{t: time.Now()}
	const perHour = 2 // the two welcomes
	td := startTestDaemonOutbox(t, testMailSystem(t), mail.OutboxConfig{Interval: 200 * time.Millisecond,
		RetryMin: 200 * time.Millisecond, RetryMax: 2 * time.Second, PerHour: perHour, Now: clk.now})
	c := td.newGame(t, "Flood")
	td.waitInbox(t, "alice", 1, 30*time.Second)
	td.waitInbox(t, "bob", 1, 30*time.Second)
	if all, _ := td.db.Outbox("g1"); len(all) != perHour {
		t.Fatalf("the game began with %d mails, not the %d welcomes the quota lets go", len(all), perHour)
	}
	before := gameFingerprint(t, td.db, "g1")
	ctx := context.Background()
	flood := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if err := sendRaw(ctx, td.sys, td.acct["bob"].Address, []string{td.gameAddress()}, floodMail(td, "bob", i)); err != nil {
				t.Fatal(err)
			}
		}
		td.handled(t, 2*time.Minute)
	}
	flood(0, 250)
	td.stop()
	// The outbox counts its quota afresh: perHour of the answers go now.
	td.start(t)
	flood(250, 500)
	if after := gameFingerprint(t, td.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	answers, _ := classes(t, td.db, td.acct["bob"].Address)
	if len(answers) > referee.DefaultAnswers {
		t.Errorf("500 forged mails were answered %d times, more than %d", len(answers), referee.DefaultAnswers)
	}

	// The U.S. orders: the reports they cause wait behind the answers
	// that the quota holds back.
	if err := sendRaw(ctx, td.sys, td.acct["alice"].Address, []string{td.gameAddress()}, ordersMail(td, "alice", "real-1@attu.test", c.Tokens[adjudicator.US])); err != nil {
		t.Fatal(err)
	}
	td.handled(t, 30*time.Second)
	unsent := func() (answers, reports []store.Mail) {
		all, err := td.db.Outbox("")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range all {
			switch {
			case !m.Sent.IsZero():
			case m.Class == store.ClassAnswer:
				answers = append(answers, m)
			default:
				reports = append(reports, m)
			}
		}
		return answers, reports
	}
	waiting, reports := unsent()
	if len(reports) == 0 || len(waiting) < perHour {
		// First in, first out would send the answers in the next hour,
		// not the reports: else the test would show no order.
		t.Fatalf("%d reports and %d answers wait for the quota, want some and at least %d", len(reports), len(waiting), perHour)
	}
	// An hour on, the quota lets perHour mails go: the reports first.
	clk.advance(time.Hour + time.Minute)
	td.d.Kick()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		left, still := unsent()
		if len(still) == 0 {
			if sent := len(waiting) - len(left); sent > perHour-len(reports) {
				t.Errorf("%d answers went with the %d reports, more than the quota's room of %d left", sent, len(reports), perHour-len(reports))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("an hour on, %d reports still wait: %v", len(still), still[0].Subject)
		}
	}
	// The rest of the answers go in the hours after.
	for range referee.DefaultAnswers {
		clk.advance(time.Hour + time.Minute)
		td.d.Kick()
		time.Sleep(500 * time.Millisecond)
	}
	td.handled(t, 30*time.Second)
	inbox, err := fetchInbox(td.acct["bob"])
	if err != nil {
		t.Fatal(err)
	}
	answers, _ = classes(t, td.db, td.acct["bob"].Address)
	isAnswer := map[string]bool{}
	for _, a := range answers {
		isAnswer[strings.Trim(a.MessageID, "<>")] = true
	}
	n := 0
	for _, raw := range inbox {
		m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if !isAnswer[strings.Trim(m.MessageID, "<>")] {
			continue // the welcome, the report
		}
		n++
		if k := attachmentCount(t, raw); k > 0 || len(raw) > 16<<10 {
			t.Errorf("an answer to the forged mail with %d attachments, %d bytes: %s", k, len(raw), m.Subject)
		}
		if strings.Contains(string(raw), "mallory") || strings.Contains(m.Text, "reply to") {
			t.Errorf("an answer repeats the forger's words:\n%s", raw)
		}
	}
	if n == 0 || n > referee.DefaultAnswers {
		t.Errorf("bob's mailbox holds %d answers, want 1 to %d", n, referee.DefaultAnswers)
	}
	t.Logf("500 forged mails: %d answers delivered, %d of them waiting behind the quota when the reports came", n, len(waiting))
}
