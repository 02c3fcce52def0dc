package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/attu-pbem/attu/mail"
)

// The daemon's end-to-end tests run through one of two mail systems:
//
//   - by default the in-process servers of mail/loopback (plaintext on
//     127.0.0.1, mailboxes made on demand);
//   - when ATTU_MAILSERVERS names the environment file written by
//     scripts/mailservers.sh start, Dovecot and Postfix: mail from the
//     players is submitted to Postfix and delivered into Dovecot by LMTP,
//     the daemon reads Dovecot over IMAP with STARTTLS and sends through
//     Postfix submission with a password, the players read Dovecot.
//
// A test written against testMailSystem, sendRaw and fetchInbox runs on
// both unchanged.

// testMailSystem returns the mail system of this test run, stopped (for
// the loopback servers) when the test ends. The real servers' mailboxes
// are emptied first.
func testMailSystem(t *testing.T) mailSystem {
	t.Helper()
	if env := os.Getenv(mailServersEnv); env != "" {
		sys, err := openRealMail(env)
		if err != nil {
			t.Fatalf("the real mail servers of %s=%s: %v", mailServersEnv, env, err)
		}
		return sys
	}
	sys, err := startLoopbackMail()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	return sys
}

// realBackend reports whether the tests run against Dovecot and Postfix.
func realBackend() bool { return os.Getenv(mailServersEnv) != "" }

// sendRaw hands a mail, bytes as given, to the system's inbound SMTP
// server, as a player's provider or a robot would.
func sendRaw(ctx context.Context, sys mailSystem, from string, to []string, data []byte) error {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	conn, err := new(net.Dialer).DialContext(dctx, "tcp", sys.Inbound())
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.SendMail(from, to, bytes.NewReader(data)); err != nil {
		return err
	}
	return c.Quit()
}

// fetchInbox returns every mail in a mailbox's INBOX, whole, in UID
// order, read over IMAP as the account is configured (STARTTLS against
// Dovecot).
func fetchInbox(acct mailAccount) ([][]byte, error) {
	opts := &imapclient.Options{TLSConfig: acct.IMAP.TLSConfig}
	var c *imapclient.Client
	var err error
	if acct.IMAP.Security == mail.Plain {
		c, err = imapclient.DialInsecure(acct.IMAP.Addr, opts)
	} else {
		c, err = imapclient.DialStartTLS(acct.IMAP.Addr, opts)
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(acct.IMAP.Username, acct.IMAP.Password).Wait(); err != nil {
		return nil, err
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil, err
	}
	all := imap.UIDSet{}
	all.AddRange(1, 0)
	body := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(all, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, m.FindBodySection(body))
	}
	return out, c.Logout().Wait()
}
