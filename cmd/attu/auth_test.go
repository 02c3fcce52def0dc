package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// dkimKey is a DKIM signing key of selector "attu-test" for a domain; its
// lookup serves the public half as DNS would.
type dkimKey struct {
	domain string
	priv   ed25519.PrivateKey
}

func newDKIMKey(t *testing.T, domain string) *dkimKey {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &dkimKey{domain: domain, priv: priv}
}

func (k *dkimKey) lookup(name string) ([]string, error) {
	if !strings.EqualFold(name, "attu-test._domainkey."+k.domain) {
		return nil, errors.New("no such TXT record: " + name)
	}
	return []string{"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(k.priv.Public().(ed25519.PublicKey))}, nil
}

func (k *dkimKey) sign(t *testing.T, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	err := dkim.Sign(&b, bytes.NewReader(raw), &dkim.SignOptions{Domain: k.domain, Selector: "attu-test", Signer: k.priv,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: []string{"From", "To", "Subject", "Message-ID", "Date", "MIME-Version", "Content-Type"}})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// With authentication required, through the real daemon: the U.S.
// decision signed with DKIM by the player's domain is applied; then the
// next orders, with the right token from the player's address, are a
// stranger's and change nothing when nothing vouches for them (no
// signature, results claimed by another server, a signature the body no
// longer matches, a second author); with the receiving server's own
// Authentication-Results they are applied.
func TestE2EAuthRequired(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sys := testMailSystem(t)
	alice, err := sys.Account("alice")
	if err != nil {
		t.Fatal(err)
	}
	_, domain, _ := strings.Cut(alice.Address, "@")
	key := newDKIMKey(t, domain)
	auth := mail.AuthConfig{Required: true, AuthServIDs: []string{"mx.attu.test"}, DKIM: true, LookupTXT: key.lookup}
	g := startBadMailGameWith(t, ctx, nil, auth, func(raw []byte) []byte { return key.sign(t, raw) })

	actions := fmt.Sprintf("game: g1\nside: us\nturn: 1\nwait: actions\ntoken: %s\nactions: []", g.tokens[adjudicator.US])
	ordersMail := func(id string, extra ...string) []byte {
		return withOrders(append(extra, g.hdr("alice", id, "[attu g1] orders")...), actions)
	}
	tampered := key.sign(t, ordersMail("tampered@attu.test"))
	tampered = bytes.Replace(tampered, []byte("My orders are attached."), []byte("My orders are attached!"), 1)
	forged := []struct {
		name string
		raw  []byte
	}{
		{"no signature and no results", ordersMail("forged-1@attu.test")},
		{"results of another server", ordersMail("forged-2@attu.test",
			"Authentication-Results: mx.evil.test; dkim=pass header.d="+domain+"; dmarc=pass header.from="+domain)},
		{"a signature the body no longer matches", tampered},
		{"a second author", key.sign(t, ordersMail("forged-4@attu.test", "From: <"+g.addr["bob"]+">"))},
	}
	before := gameFingerprint(t, g.db, "g1")
	_, start := g.deliveries(t, nil)
	for _, f := range forged {
		g.send(t, g.addr["alice"], f.raw)
	}
	g.settle(t, ctx)
	if after := gameFingerprint(t, g.db, "g1"); !bytes.Equal(before, after) {
		t.Errorf("a forged mail changed the game:\nbefore %s\nafter  %s", before, after)
	}
	for _, f := range forged {
		m, err := mail.Extract(bytes.NewReader(f.raw), mail.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		r, ok, err := g.db.Processed(store.MailRef{MessageID: m.MessageID})
		if err != nil || !ok || r.Outcome != "refused: sender not authenticated" {
			t.Errorf("%s: in the ledger %v as %q (%v), want a stranger's", f.name, ok, r.Outcome, err)
		}
	}
	time.Sleep(300 * time.Millisecond)
	g.settle(t, ctx)
	answers, _ := g.deliveries(t, start)
	// A stranger gets one generic answer an hour, to the first author
	// (alice; bob, who comes first in the mail of two authors); nothing
	// else is sent.
	seen := map[string]bool{}
	for i, d := range answers {
		if seen[d.User] || d.User != "alice" && d.User != "bob" || !bytes.Contains(d.Data, []byte("attu did not accept your message")) {
			t.Errorf("answer %d to %s:\n%.800s", i, d.To, d.Data)
		}
		seen[d.User] = true
	}

	trusted := ordersMail("trusted@attu.test",
		"Authentication-Results: mx.attu.test;\r\n\tspf=pass smtp.mailfrom="+domain+";\r\n\tdkim=pass header.d="+domain+";\r\n\tdmarc=pass header.from="+domain)
	g.send(t, g.addr["alice"], trusted)
	g.settle(t, ctx)
	r, ok, err := g.db.Processed(store.MailRef{MessageID: "trusted@attu.test"})
	if err != nil || !ok || r.Outcome != "accepted" || r.Entry == 0 {
		t.Errorf("the orders vouched for by the provider: in the ledger %v as %+v (%v)", ok, r, err)
	}
}
