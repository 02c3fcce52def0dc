package main

import (
	"bytes"
	"context"
	"errors"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
)

// attachmentIn returns the body of the attachment name of a raw mail,
// nil when it has none.
func attachmentIn(t testing.TB, raw []byte, name string) []byte {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.AttachmentHeader); ok {
			if fn, _ := h.Filename(); fn == name {
				b, err := io.ReadAll(p.Body)
				if err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
	}
}

// samePicture reports whether two PNGs decode to the same pixels: a
// picture drawn again must look like the one first sent, byte for byte or not.
func samePicture(t testing.TB, a, b []byte) bool {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	ib, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	for y := ia.Bounds().Min.Y; y < ia.Bounds().Max.Y; y++ {
		for x := ia.Bounds().Min.X; x < ia.Bounds().Max.X; x++ {
			if color.RGBA64Model.Convert(ia.At(x, y)) != color.RGBA64Model.Convert(ib.At(x, y)) {
				return false
			}
		}
	}
	return true
}

// The daemon keeps no map picture once the mail that carries it is sent;
// after a restart, "resend" mails the player its last report (here the
// final one, after the umpire ended the game) again with the very picture
// it first received (the same pixels), drawn again from the game's log.
func TestE2EResendDrawsThePictureAgain(t *testing.T) {
	td := startTestDaemon(t, testMailSystem(t))
	c := td.newGame(t, "Resend")
	td.waitInbox(t, "bob", 1, 30*time.Second)
	game := td.gameAddress()
	ctx := context.Background()
	if err := sendRaw(ctx, td.sys, td.acct["alice"].Address, []string{game}, ordersMail(td, "alice", "resend-1@attu.test", c.Tokens[adjudicator.US])); err != nil {
		t.Fatal(err)
	}
	td.settled(t, 30*time.Second)
	if _, err := td.svc.Umpire("g1", []string{"end", "draw"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	td.d.Kick()
	td.waitInbox(t, "bob", 2, 30*time.Second)
	td.settled(t, 30*time.Second)

	queued, err := td.db.Outbox("g1")
	if err != nil {
		t.Fatal(err)
	}
	var recorded store.Attachment
	for _, m := range queued {
		for _, a := range m.Attachments {
			if a.Redrawable && (!a.Dropped || a.Data != nil) {
				t.Errorf("mail %d (%s) keeps its picture after it was sent", m.ID, m.Subject)
			}
			if a.Name == "map.png" && strings.Contains(m.MessageID, ".final-jp.") {
				recorded = a
			}
		}
	}
	if recorded.DrawnAt == 0 || recorded.DrawnFor != adjudicator.JP {
		t.Fatalf("bob's final report records its picture as %+v", recorded)
	}
	report := td.waitInbox(t, "bob", 2, time.Second)[1]
	first := attachmentIn(t, report, "map.png")
	if _, err := png.Decode(bytes.NewReader(first)); err != nil {
		t.Fatalf("bob's report carries a picture of %d bytes that does not decode: %v", len(first), err)
	}

	td.stop()
	td.start(t)
	resend := "From: <" + td.acct["bob"].Address + ">\r\nTo: <" + game + ">\r\nSubject: [attu g1] resend\r\nMessage-ID: <resend-2@attu.test>\r\n\r\nresend\r\ntoken: " + c.Tokens[adjudicator.JP] + "\r\n"
	if err := sendRaw(ctx, td.sys, td.acct["bob"].Address, []string{game}, []byte(resend)); err != nil {
		t.Fatal(err)
	}
	again := td.waitInbox(t, "bob", 3, 30*time.Second)[2]
	m, err := mail.Extract(bytes.NewReader(again), mail.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Subject, "sent again") || !strings.Contains(m.InReplyTo, "resend-2@attu.test") {
		t.Fatalf("bob's third mail: %q, in reply to %q", m.Subject, m.InReplyTo)
	}
	if pic := attachmentIn(t, again, "map.png"); len(pic) == 0 || !samePicture(t, pic, first) {
		t.Fatalf("the picture sent again (%d bytes) is not the one first sent (%d bytes)", len(pic), len(first))
	}
	td.settled(t, 30*time.Second)
	// The file is checked once the daemon has stopped: bbolt's page
	// check reads the free list without the writer's lock.
	td.stop()
	db, err := store.Open(td.dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(windsys.Rules{}); err != nil {
		t.Fatal(err)
	}
}
