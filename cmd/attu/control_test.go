package main

import (
	"context"
	"errors"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// runningDaemon is a daemon on the loopback mail system, holding the
// database at db, with its control socket beside it.
type runningDaemon struct {
	sys            *loopback.System
	db             string
	own            string
	us, jp, umpire string
	stop           func()
}

func startDaemon(t *testing.T, dir string) *runningDaemon {
	t.Helper()
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &runningDaemon{sys: sys, db: filepath.Join(dir, "attu.db")}
	r.own, _ = sys.AddUser("attu", "pw")
	r.us, _ = sys.AddUser("alice", "a")
	r.jp, _ = sys.AddUser("bob", "b")
	r.umpire, _ = sys.AddUser("carol", "c")
	db, err := store.Open(r.db, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: r.own, DB: r.db})
	d, err := newDaemon(svc, daemon.Config{Address: r.own, Control: controlSocket(r.db),
		IMAP:   mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw", IdleRestart: time.Second},
		SMTP:   mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain},
		Outbox: mail.OutboxConfig{Interval: time.Minute}}) // only a kick sends soon
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.Run(ctx) }()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			wg.Wait()
			db.Close()
			sys.Close()
		})
	}
	t.Cleanup(r.stop)
	deadline := time.Now().Add(10 * time.Second)
	for {
		// A socket a killed daemon left refuses connections.
		// The daemon sets the socket's mode just after it listens: the
		// mode is checked once it answers and has had a moment to.
		if c, err := net.Dial("unix", controlSocket(r.db)); err == nil {
			c.Close()
			fi, _ := os.Stat(controlSocket(r.db))
			for end := time.Now().Add(time.Second); fi.Mode().Perm() != 0o600 && time.Now().Before(end); fi, _ = os.Stat(controlSocket(r.db)) {
				time.Sleep(5 * time.Millisecond)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("the control socket's mode is %v, want 0600", fi.Mode().Perm())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the daemon made no control socket")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return r
}

// waitMail waits until n mails in all were delivered.
func (r *runningDaemon) waitMail(t *testing.T, n int, what string) []loopback.Delivery {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ds, err := r.sys.WaitDeliveries(ctx, n)
	if err != nil {
		t.Fatalf("%s: %d mails delivered, want %d: %v", what, len(r.sys.Deliveries()), n, err)
	}
	return ds
}

// While attu serve holds the database, the operator's commands run inside
// it over the control socket, with the same output and effects as on
// their own; the mails they queue go out at once.
func TestOperatorCommandsWhileDaemonRuns(t *testing.T) {
	dir := t.TempDir()
	r := startDaemon(t, dir)
	if _, err := store.Open(r.db, &store.Options{Timeout: 50 * time.Millisecond, ReadOnly: true}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("the daemon does not hold the file: %v", err)
	}

	code, out, errs := runAttu("status", "-db", r.db)
	if code != 0 || out != "no games in "+r.db+"\n" {
		t.Fatalf("attu status of an empty database: exit %d, %q %s", code, out, errs)
	}
	code, out, errs = runAttu("new", "-db", r.db, "-address", r.own, "-id", "g1", "-name", "Attu 1943",
		"-us", r.us, "-jp", r.jp, "-umpire", r.umpire)
	if code != 0 || !strings.Contains(out, "created game g1 in "+r.db) || !strings.Contains(out, "attu+g1@") {
		t.Fatalf("attu new: exit %d, %s %s", code, out, errs)
	}
	usToken := regexp.MustCompile(`(?m)^  us +token (\S+)`).FindStringSubmatch(out)
	if usToken == nil {
		t.Fatalf("attu new printed no U.S. token:\n%s", out)
	}
	// The three welcome mails go out without waiting for the outbox's
	// minute: the command woke it.
	ds := r.waitMail(t, 3, "the welcome mails")
	welcomed := map[string]bool{}
	for _, d := range ds {
		welcomed[d.User] = true
		if d.User == "alice" && !strings.Contains(string(d.Data), usToken[1]) {
			t.Errorf("the U.S. welcome lacks the token attu new printed")
		}
	}
	if !welcomed["alice"] || !welcomed["bob"] || !welcomed["carol"] {
		t.Errorf("welcome mails to %v", welcomed)
	}
	if code, _, errs := runAttu("new", "-db", r.db, "-address", "games@elsewhere.org", "-us", r.us, "-jp", r.jp); code != 1 ||
		!strings.Contains(errs, "the running daemon plays through "+r.own) {
		t.Errorf("attu new on another mailbox: exit %d, %s", code, errs)
	}

	code, out, _ = runAttu("status", "-db", r.db)
	if code != 0 || !regexp.MustCompile(`g1 +Attu 1943 +active +U.S. decision, turn 1`).MatchString(out) {
		t.Errorf("attu status: exit %d\n%s", code, out)
	}
	png := filepath.Join(dir, "us.png")
	code, out, errs = runAttu("show", "-db", r.db, "-side", "us", "-png", png, "g1")
	if code != 0 || !strings.Contains(out, "attu report: game g1 (Attu 1943), report for the U.S. player") ||
		!strings.Contains(out, "The game waits for the U.S. decision of turn 1") {
		t.Errorf("attu show: exit %d, %s\n%s", code, errs, out)
	}
	if b, err := os.ReadFile(png); err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("the picture attu show wrote: %v", err)
	}
	// attu check -db judges a file against the game the daemon holds.
	stale := filepath.Join(dir, "stale.yaml")
	if err := os.WriteFile(stale, []byte("game: g1\nside: us\nturn: 5\nwait: actions\ntoken: x\nactions: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runAttu("check", "-db", r.db, stale); code != 1 || !strings.Contains(out, stale+":1:1: the game waits for the U.S. decision of turn 1") {
		t.Errorf("attu check -db while the daemon runs: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runAttu("show", "-db", r.db, "g9"); code != 1 || !strings.Contains(errs, "g9") {
		t.Errorf("attu show of a game that is not there: exit %d, %s", code, errs)
	}

	code, out, errs = runAttu("umpire", "-db", r.db, "g1", "extend", "2d")
	if code != 0 {
		t.Fatalf("attu umpire extend: exit %d, %s %s", code, out, errs)
	}
	// The awaited player is told at once.
	ds = r.waitMail(t, 4, "the notice of the extension")
	if ds[3].User != "alice" || !strings.Contains(string(ds[3].Data), "The umpire extended your deadline") {
		t.Errorf("the notice to %s:\n%s", ds[3].User, ds[3].Data)
	}
	if code, _, errs := runAttu("umpire", "-db", r.db, "g1", "pause"); code != 0 {
		t.Fatalf("attu umpire pause: exit %d, %s", code, errs)
	}
	if code, out, _ := runAttu("status", "-db", r.db); code != 0 || !regexp.MustCompile(`g1 +Attu 1943 +paused`).MatchString(out) {
		t.Errorf("attu status after the pause: exit %d\n%s", code, out)
	}
	if code, _, errs := runAttu("umpire", "-db", r.db, "g8", "pause"); code != 1 || !strings.Contains(errs, `no game "g8"`) {
		t.Errorf("attu umpire of a game that is not there: exit %d, %s", code, errs)
	}

	export := filepath.Join(dir, "g1.json")
	code, out, errs = runAttu("export", "-db", r.db, "-o", export, "g1")
	if code != 0 || !strings.Contains(out, "wrote "+export) {
		t.Fatalf("attu export: exit %d, %s %s", code, out, errs)
	}
	if code, out, errs := runAttu("audit", export); code != 0 {
		t.Errorf("attu audit of the export made through the daemon: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runAttu("export", "-db", r.db, "-o", "-", "g1")
	if code != 0 || !strings.HasPrefix(out, "{") {
		t.Errorf("attu export -o -: exit %d, %.60q", code, out)
	}

	// Stopped cleanly, the daemon removes its socket, and the commands
	// open the file themselves again.
	r.stop()
	if _, err := os.Lstat(controlSocket(r.db)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the socket is still there after a clean stop: %v", err)
	}
	if code, out, _ := runAttu("status", "-db", r.db); code != 0 || !regexp.MustCompile(`g1 +Attu 1943 +paused`).MatchString(out) {
		t.Errorf("attu status without the daemon: exit %d\n%s", code, out)
	}
	if code, _, errs := runAttu("umpire", "-db", r.db, "g1", "resume"); code != 0 {
		t.Errorf("attu umpire resume without the daemon: exit %d, %s", code, errs)
	}
}

// A socket left by a daemon that was killed does not keep the next one
// from starting; anything else at the socket's path is left alone, and
// the daemon then plays on without operator commands, which say why they
// cannot run.
func TestControlSocketLeftBehind(t *testing.T) {
	dir := t.TempDir()
	sock := controlSocket(filepath.Join(dir, "attu.db"))
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	r := startDaemon(t, dir)
	if code, out, errs := runAttu("status", "-db", r.db); code != 0 || !strings.Contains(out, "no games") {
		t.Errorf("attu status through the new socket: exit %d, %s %s", code, out, errs)
	}
	r.stop()

	dir = t.TempDir()
	sock = controlSocket(filepath.Join(dir, "attu.db"))
	if err := os.WriteFile(sock, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	sys, err := loopback.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Close()
	own, _ := sys.AddUser("attu", "pw")
	db, err := store.Open(filepath.Join(dir, "attu.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	d, err := newDaemon(referee.New(db, referee.Config{System: windsys.Rules{}, Address: own}), daemon.Config{Address: own, Control: sock,
		IMAP: mail.InboxConfig{Addr: sys.IMAPAddr(), Security: mail.Plain, Username: "attu", Password: "pw"},
		SMTP: mail.SMTPConfig{Addr: sys.SMTPAddr(), Security: mail.Plain}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	time.Sleep(100 * time.Millisecond)
	if b, err := os.ReadFile(sock); err != nil || string(b) != "mine" {
		t.Errorf("the daemon touched a file that is not its socket: %q, %v", b, err)
	}
	defer func(w time.Duration) { otherCommandWait = w }(otherCommandWait)
	otherCommandWait = 200 * time.Millisecond
	code, _, errs := runAttu("status", "-db", filepath.Join(dir, "attu.db"))
	if code != 1 || !strings.Contains(errs, "in use by another process, and no attu serve answers on "+sock) {
		t.Errorf("attu status with no socket to ask: exit %d, %s", code, errs)
	}
}

// A command that only reads never creates a database, nor changes one:
// a missing file is a clear error and stays missing.
func TestReadOnlyCommandsCreateNothing(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nosuch.db")
	for _, args := range [][]string{
		{"status", "-db", missing},
		{"show", "-db", missing, "g1"},
		{"export", "-db", missing, "-o", filepath.Join(dir, "g1.json"), "g1"},
		{"umpire", "-db", missing, "g1", "pause"},
	} {
		code, out, errs := runAttu(args...)
		if code != 1 || out != "" || !strings.Contains(errs, missing) || !strings.Contains(errs, "-db FILE") {
			t.Errorf("attu %s: exit %d, %q %q", strings.Join(args, " "), code, out, errs)
		}
		if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("attu %s created %s", args[0], missing)
		}
		if _, err := os.Stat(filepath.Join(dir, "g1.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("attu %s wrote an export of nothing", args[0])
		}
	}

	path := filepath.Join(dir, "attu.db")
	if code, _, errs := runAttu("new", "-db", path, "-address", "attu@example.org", "-id", "g1",
		"-us", "alice@example.org", "-jp", "bob@example.org"); code != 0 {
		t.Fatalf("attu new: %s", errs)
	}
	before, _ := os.ReadFile(path)
	for _, args := range [][]string{
		{"status", "-db", path},
		{"show", "-db", path, "-side", "jp", "g1"},
		{"export", "-db", path, "-o", "-", "g1"},
	} {
		if code, _, errs := runAttu(args...); code != 0 {
			t.Errorf("attu %s: exit %d, %s", args[0], code, errs)
		}
	}
	if after, _ := os.ReadFile(path); string(before) != string(after) {
		t.Error("a command that only reads changed the database")
	}
}
