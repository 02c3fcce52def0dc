package main

import (
	"encoding/json"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/store"
)

// What holds tokens or hidden facts is created, and replaced, mode 0600:
// an export, an export with -reveal over an existing file that others
// could read, the replay pages of both exports of a running game (one
// over a file others could read), the map pictures of attu show -png, and
// everything attu demo -keep leaves (mails, log, export, database).
func TestFilesArePrivate(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := runAttu("demo", "-turns", "1", "-keep", dir); code != 0 {
		t.Fatalf("attu demo: exit %d\n%s\n%s", code, out, errs)
	}
	db := filepath.Join(dir, "attu.db")
	if code, _, errs := runAttu("export", "-db", db, "-o", filepath.Join(dir, "plain.json"), "demo"); code != 0 {
		t.Fatalf("attu export: %s", errs)
	}
	revealed := filepath.Join(dir, "revealed.json")
	if err := os.WriteFile(revealed, []byte("an older file anyone may read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runAttu("export", "-db", db, "-reveal", "-o", revealed, "demo"); code != 0 {
		t.Fatalf("attu export -reveal: %s", errs)
	}
	if b, _ := os.ReadFile(revealed); !strings.Contains(string(b), `"seed"`) {
		t.Fatalf("the export -reveal did not replace the older file")
	}
	// A game still running: its replay pages, from the plain export and
	// from one with -reveal, and its pictures.
	running := filepath.Join(dir, "running.db")
	if code, _, errs := runAttu("new", "-db", running, "-address", "attu@example.org", "-id", "g1",
		"-us", "alice@example.org", "-jp", "bob@example.org"); code != 0 {
		t.Fatalf("attu new: %s", errs)
	}
	if err := os.WriteFile(filepath.Join(dir, "g1.html"), []byte("an older page anyone may read\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"export", "-db", running, "-o", filepath.Join(dir, "g1.json"), "g1"},
		{"export", "-db", running, "-reveal", "-o", filepath.Join(dir, "g1-revealed.json"), "g1"},
		{"replay", filepath.Join(dir, "g1.json")},
		{"replay", filepath.Join(dir, "g1-revealed.json")},
		{"show", "-db", running, "-side", "jp", "-png", filepath.Join(dir, "jp.png"), "g1"},
		{"show", "-db", running, "-side", "umpire", "-png", filepath.Join(dir, "umpire.png"), "g1"},
	} {
		if code, _, errs := runAttu(args...); code != 0 {
			t.Fatalf("attu %s: exit %d: %s", strings.Join(args, " "), code, errs)
		}
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		n++
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, fi.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"attu.log", "demo.json", "plain.json", "revealed.json", "g1.html", "g1-revealed.html", "jp.png", "umpire.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	if mails, _ := filepath.Glob(filepath.Join(dir, "mail", "*.eml")); len(mails) < 4 {
		t.Errorf("%d mails kept", len(mails))
	}
	t.Logf("%d files, each 0600", n)
}

// The command line writes only the files it named: whatever answers on
// the socket of a held database may not make it write elsewhere.
func TestControlWritesOnlyWhatItNamed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ln, err := net.Listen("unix", controlSocket(path))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	elsewhere := filepath.Join(dir, "elsewhere")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var req daemon.Request
			json.NewDecoder(c).Decode(&req)
			json.NewEncoder(c).Encode(daemon.Answer{Stdout: []byte("done\n"),
				Files: []daemon.File{{Name: elsewhere, Data: []byte("planted"), Perm: 0o777}}})
			c.Close()
		}
	}()
	code, _, errs := runAttu("export", "-db", path, "-o", filepath.Join(dir, "g1.json"), "g1")
	if code != 1 || !strings.Contains(errs, "did not ask for") {
		t.Errorf("attu export: exit %d, %s", code, errs)
	}
	if _, err := os.Stat(elsewhere); err == nil {
		t.Error("the command line wrote a file it did not name")
	}
}

// The command line asks only a daemon that runs as its own user or as
// root: another user's process at the socket's path is refused. The other
// user's listener is this test's binary run as "nobody", which needs root.
func TestControlChecksThePeer(t *testing.T) {
	if sock := os.Getenv("ATTU_TEST_LISTEN"); sock != "" {
		listenAsHelper(sock)
		return
	}
	if os.Getuid() != 0 {
		t.Skip("starting a listener as another user needs root")
	}
	// A directory, and a copy of the test binary, that nobody may use.
	dir, err := os.MkdirTemp("", "attu-peer-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "attu.test"), bin, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "attu.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cmd := exec.Command(filepath.Join(dir, "attu.test"), "-test.run=^TestControlChecksThePeer$")
	cmd.Env = append(os.Environ(), "ATTU_TEST_LISTEN="+controlSocket(path))
	cmd.SysProcAttr = nobody()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	buf := make([]byte, 6)
	if _, err := stdout.Read(buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("the other user's listener: %q %v", buf, err)
	}
	code, out, errs := runAttu("status", "-db", path)
	if code != 1 || strings.Contains(out, "planted") || !strings.Contains(errs, "neither this user nor root") {
		t.Errorf("attu status with another user at the socket: exit %d, %q %q", code, out, errs)
	}
}

// listenAsHelper answers every connection on sock with a planted answer.
func listenAsHelper(sock string) {
	ln, err := net.Listen("unix", sock)
	if err != nil {
		os.Exit(1)
	}
	os.Chmod(sock, 0o777)
	os.Stdout.WriteString("ready\n")
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(0)
		}
		json.NewEncoder(c).Encode(daemon.Answer{Stdout: []byte("planted\n")})
		c.Close()
	}
}
