package referee

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// The secret each log entry commits (store.Entry.Secret) is in no mail a
// player or the umpire is sent while the game runs — reports quoting the
// chain head, the log, status and resend answers — and is in the export
// the final reports attach.
func TestEntrySecretsStayHidden(t *testing.T) {
	h := newHarness(t, NewGame{})
	var mails []store.Mail
	mails = append(mails, h.newMails()...)
	for range 4 {
		mails = append(mails, h.play(nil)...)
	}
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP, adjudicator.Umpire} {
		for _, cmd := range []string{"status", "log", "resend", "help"} {
			mails = append(mails, h.command(side, cmd, false)...)
		}
	}
	log, err := h.db.Log(h.id, 1)
	if err != nil {
		t.Fatal(err)
	}
	var secrets []string
	for _, e := range log {
		if e.Secret == "" {
			t.Fatalf("entry %d has no secret", e.Seq)
		}
		secrets = append(secrets, e.Secret)
	}
	for _, m := range mails {
		bodies := []string{m.Subject, m.Text}
		for _, a := range m.Attachments {
			bodies = append(bodies, string(a.Data))
		}
		for _, s := range secrets {
			for _, b := range bodies {
				if strings.Contains(b, s) {
					t.Fatalf("%q to %v carries the secret %s before the game ended", m.Subject, m.To, s)
				}
			}
		}
	}

	final := h.command(adjudicator.JP, "concede", true)
	if h.game().Status != store.Ended {
		t.Fatalf("the game did not end: %v", subjects(final))
	}
	export := ""
	for _, a := range mailTo(t, final, usAddr).Attachments {
		if strings.HasSuffix(a.Name, ".json.gz") && strings.HasPrefix(a.Name, "attu-") {
			z, err := gzip.NewReader(bytes.NewReader(a.Data))
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(z)
			if err != nil {
				t.Fatal(err)
			}
			export = string(b)
		}
	}
	if export == "" {
		t.Fatal("the final report attaches no export")
	}
	for _, s := range secrets {
		if !strings.Contains(export, s) {
			t.Errorf("the final export lacks the secret %s", s)
		}
	}
	h.audit()
}
