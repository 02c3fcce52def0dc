package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/store"
)

// attu status shows the operator the mails the daemon gave up on, with
// what it takes to find each one again.
func TestStatusListsFailedMail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RecordFailed(store.FailedMail{Mailbox: "attu@example.org INBOX", UID: 7, MessageID: "<x@example.org>",
		From: "alice@example.org", Subject: "[attu g1] status", Error: "game g1: broken record"}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var out, errb bytes.Buffer
	if code := run([]string{"status", "-db", path}, &out, &errb); code != 0 {
		t.Fatalf("attu status exited %d: %s", code, errb.String())
	}
	for _, want := range []string{"no games in", "1 mail(s) failed every time", "alice@example.org", "[attu g1] status", "/7", "game g1: broken record"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("attu status does not say %q:\n%s", want, out.String())
		}
	}
}
