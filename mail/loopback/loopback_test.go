package loopback

import (
	"bytes"
	"context"
	"net/smtp"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Mail sent to a plus-address lands in the base mailbox with the headers
// a delivery agent adds, and IMAP shows it; strangers and other domains
// are refused.
func TestDelivery(t *testing.T) {
	sys, err := Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	own, err := sys.AddUser("attu", "pw")
	if err != nil || own != "attu@attu.test" {
		t.Fatalf("AddUser: %q, %v", own, err)
	}
	if _, err := sys.AddUser("attu", "pw"); err == nil {
		t.Error("a user added twice")
	}
	msg := []byte("From: us@attu.test\r\nSubject: hi\r\n\r\nhello\r\n")
	if err := smtp.SendMail(sys.SMTPAddr(), nil, "us@attu.test", []string{"attu+g1@attu.test"}, msg); err != nil {
		t.Fatal(err)
	}
	for _, rcpt := range []string{"nobody@attu.test", "attu@example.org"} {
		if err := smtp.SendMail(sys.SMTPAddr(), nil, "us@attu.test", []string{rcpt}, msg); err == nil {
			t.Errorf("accepted mail for %s", rcpt)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ds, err := sys.WaitDeliveries(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].User != "attu" || ds[0].To != "attu+g1@attu.test" ||
		!bytes.HasPrefix(ds[0].Data, []byte("Return-Path: <us@attu.test>\r\nDelivered-To: attu+g1@attu.test\r\nFrom:")) {
		t.Fatalf("deliveries %+v", ds)
	}

	c, err := imapclient.DialInsecure(sys.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("attu", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("fetch: %v, %d messages", err, len(msgs))
	}
	if got := msgs[0].FindBodySection(&imap.FetchItemBodySection{}); !bytes.Equal(got, ds[0].Data) {
		t.Errorf("IMAP gives %q, want %q", got, ds[0].Data)
	}

	// Down, then up again on the same address.
	if err := sys.StopSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := smtp.SendMail(sys.SMTPAddr(), nil, "us@attu.test", []string{own}, msg); err == nil {
		t.Error("sent while SMTP is stopped")
	}
	if err := sys.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	if err := smtp.SendMail(sys.SMTPAddr(), nil, "us@attu.test", []string{own}, msg); err != nil {
		t.Errorf("after restart: %v", err)
	}
}
