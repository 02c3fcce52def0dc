package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// hostedGame is a game created with attu new and served by attu serve
// with a configuration file, as a host runs them, on the servers of s.
type hostedGame struct {
	s      tlsServers
	dbPath string
	game   string // the game's address
	alice  mailAccount
	token  string // the U.S. token, as attu new printed it
	logs   *syncBuffer
	stop   func() // ends attu serve by SIGTERM, as systemd does
}

// hostGame runs attu new for game g1 (alice the U.S., bob the Japanese)
// and then attu serve with the configuration at path, until stop or the
// end of the test.
func hostGame(t *testing.T, s tlsServers, path string) *hostedGame {
	t.Helper()
	cfg, dbPath, _, _, err := loadServeConfig(readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	h := &hostedGame{s: s, dbPath: dbPath, game: referee.GameAddress(cfg.Address, "g1"), logs: &syncBuffer{}}
	if h.alice, err = s.sys.Account("alice"); err != nil {
		t.Fatal(err)
	}
	bob, err := s.sys.Account("bob")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runAttu("new", "-db", dbPath, "-address", cfg.Address, "-id", "g1", "-us", h.alice.Address, "-jp", bob.Address)
	m := regexp.MustCompile(`(?m)^\s+us\s+token (\S+)`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("attu new: exit %d\n%s%s", code, out, errs)
	}
	h.token = m[1]
	served := make(chan int, 1)
	go func() { served <- run([]string{"serve", "-config", path}, io.Discard, h.logs) }()
	// SIGTERM is caught once the daemon listens on its socket.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", controlSocket(dbPath)); err == nil {
			c.Close()
			break
		}
		select {
		case code := <-served:
			t.Fatalf("attu serve exited %d:\n%s", code, h.logs.b.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("attu serve made no socket")
		}
	}
	stopped := false
	h.stop = func() {
		if stopped {
			return
		}
		stopped = true
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case code := <-served:
			if code != 0 {
				t.Errorf("attu serve exited %d after SIGTERM", code)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("attu serve did not stop on SIGTERM")
		}
	}
	t.Cleanup(func() {
		h.stop()
		if t.Failed() {
			t.Logf("attu serve's log:\n%s", h.logs.b.String())
		}
	})
	return h
}

// sendOrders mails the U.S. decision of turn 1 from alice, with the
// token, as message id.
func (h *hostedGame) sendOrders(t *testing.T, id string) {
	t.Helper()
	raw := "From: <" + h.alice.Address + ">\r\nTo: <" + h.game + ">\r\nSubject: orders\r\nMessage-ID: <" + id + ">\r\n" +
		"Date: " + time.Now().Format(time.RFC1123Z) + "\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		"game: g1\r\nside: us\r\nturn: 1\r\nwait: us-decision\r\ntoken: " + h.token + "\r\ndecision: {refit: false, night: false}\r\n"
	if err := sendRaw(context.Background(), h.s.sys, h.alice.Address, []string{h.game}, []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

// reply waits for the mail to alice that answers message id.
func (h *hostedGame) reply(t *testing.T, id string) *mail.Message {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		raws, err := fetchInbox(h.alice)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range raws {
			if m, err := mail.Extract(bytes.NewReader(raw), mail.Limits{}); err == nil && m.InReplyTo == id {
				return m
			}
		}
	}
	t.Fatalf("no answer to %s reached alice", id)
	return nil
}

// outcome stops attu serve and returns how the ledger recorded message id.
func (h *hostedGame) outcome(t *testing.T, id string) store.Receipt {
	t.Helper()
	h.stop()
	db, err := store.Open(h.dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, ok, err := db.Processed(store.MailRef{MessageID: id})
	if err != nil || !ok {
		t.Fatalf("%s is not in the ledger (%v)", id, err)
	}
	return r
}

// firstHour hosts a game with the configuration at path as the README's
// first hour does (attu serve -check, attu new, attu serve) and mails the
// U.S. player's first orders, which must be applied.
func firstHour(t *testing.T, s tlsServers, path string) {
	t.Helper()
	code, out, errs := runAttu("serve", "-config", path, "-check")
	if code != 0 || strings.Count(out, "(starttls): login as attu: OK") != 2 {
		t.Fatalf("attu serve -check: exit %d\n%s%s", code, out, errs)
	}
	h := hostGame(t, s, path)
	h.sendOrders(t, "first-orders@attu.test")
	if m := h.reply(t, "first-orders@attu.test"); strings.Contains(m.Text, "attu did not accept your message") {
		t.Errorf("the first orders got a stranger's answer:\n%s", m.Text)
	}
	if r := h.outcome(t, "first-orders@attu.test"); r.Outcome != "accepted" || r.Entry == 0 {
		t.Errorf("the first orders: %+v, want accepted", r)
	}
}

// examplePlaceholders returns examples/attu-serve.yaml with what an
// operator fills in (the address, the database, the servers, their
// certificate's authority and the login) set for the servers of s, and
// the passwords in the environment variables it names; every other key
// as shipped.
func examplePlaceholders(t *testing.T, s tlsServers) string {
	t.Helper()
	var cfg map[string]any
	if err := yaml.Unmarshal(readFile(t, "../../examples/attu-serve.yaml"), &cfg); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg["address"], cfg["database"] = "attu@"+s.domain, filepath.Join(dir, "attu.db")
	for key, addr := range map[string]string{"imap": s.imap, "smtp": s.smtp} {
		host, p, _ := net.SplitHostPort(addr)
		port, _ := strconv.Atoi(p)
		m := cfg[key].(map[string]any)
		m["host"], m["port"], m["security"], m["tls_ca"], m["user"] = host, port, "starttls", s.ca, "attu"
	}
	t.Setenv("ATTU_IMAP_PASSWORD", s.password)
	t.Setenv("ATTU_SMTP_PASSWORD", s.password)
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "attu.yaml")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The example configuration, its placeholders filled, passes attu serve
// -check, which says authentication is off, and a first orders mail is
// applied.
func TestExampleConfigFirstHour(t *testing.T) {
	s := startTLSServers(t)
	path := examplePlaceholders(t, s)
	code, out, errs := runAttu("serve", "-config", path, "-check")
	if code != 0 || !strings.Contains(out, "\nauthentication: off: a mail is taken to be from the one address in its From field") {
		t.Fatalf("attu serve -check: exit %d\n%s%s", code, out, errs)
	}
	firstHour(t, s, path)
}

// quickstartOwn runs attu quickstart for attu's address on the servers
// of s, as one's own server, with the flags extra, and returns the file
// written and what the command printed.
func quickstartOwn(t *testing.T, s tlsServers, extra ...string) (path string, code int, out, errs string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "attu.yaml")
	imapHost, imapPort, _ := net.SplitHostPort(s.imap)
	smtpHost, smtpPort, _ := net.SplitHostPort(s.smtp)
	t.Setenv("ATTU_QUICKSTART_PASSWORD", s.password)
	args := append([]string{"quickstart", "attu@" + s.domain, "-imap-host", imapHost, "-imap-port", imapPort, "-imap-security", "starttls",
		"-smtp-host", smtpHost, "-smtp-port", smtpPort, "-tls-ca", s.ca, "-user", "attu", "-password-env", "ATTU_QUICKSTART_PASSWORD", "-o", path}, extra...)
	code, out, errs = runAttu(args...)
	return path, code, out, errs
}

// attu quickstart for an address of one's own server writes a file only
// its owner reads, checks it and logs in as attu serve -check does; the
// daemon then plays a first orders mail. A second run leaves the file.
func TestQuickstartOwnServer(t *testing.T) {
	s := startTLSServers(t)
	path, code, out, errs := quickstartOwn(t, s)
	if code != 0 || !strings.Contains(out, "at your own server") || !strings.Contains(out, "\nauthentication: off:") ||
		strings.Count(out, "(starttls): login as attu: OK") != 2 || !strings.Contains(out, "next: attu new -db ") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	before := readFile(t, path)
	code, out, errs = runAttu("quickstart", "attu@"+s.domain, "-imap-host", "mail.example.org", "-password-env", "X", "-o", path)
	if code != 2 || !strings.Contains(errs, "exists") || !bytes.Equal(readFile(t, path), before) {
		t.Errorf("over an existing file: exit %d\n%s%s", code, out, errs)
	}
	firstHour(t, s, path)
}

// With an authserv-id of one's own server, quickstart requires
// authentication, -check says so, and the daemon refuses the player's
// mail that carries no results of that server: the first at WARN, naming
// the setting to change, the next at INFO.
func TestQuickstartAuthRequired(t *testing.T) {
	s := startTLSServers(t)
	path, code, out, errs := quickstartOwn(t, s, "-authserv-id", "mx.attu.test")
	if code != 0 || !strings.Contains(out, "\nauthentication: required: a player's mail is applied only when the topmost Authentication-Results of mx.attu.test shows") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	h := hostGame(t, s, path)
	h.sendOrders(t, "refused-1@attu.test")
	h.sendOrders(t, "refused-2@attu.test")
	for deadline := time.Now().Add(30 * time.Second); h.logs.count(`msg="(the first mail refused by sender authentication|sender not authenticated: a stranger's mail)`) < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not refuse both mails")
		}
	}
	warn := `level=WARN msg="the first mail refused by sender authentication: if it is a player's, set authentication.trusted_authserv_ids[^"]*authentication.mode: off`
	if w, i := h.logs.count(warn), h.logs.count(`level=INFO msg="sender not authenticated`); w != 1 || i != 1 {
		t.Errorf("%d WARN lines naming the setting, %d INFO lines; want one of each", w, i)
	}
	for _, id := range []string{"refused-1@attu.test", "refused-2@attu.test"} {
		if r := h.outcome(t, id); r.Outcome != "refused: sender not authenticated" || r.Entry != 0 {
			t.Errorf("%s: %+v, want a stranger's", id, r)
		}
	}
}

// For a Gmail, Fastmail, Outlook.com, Google Workspace and Microsoft 365
// address, attu quickstart writes the provider's settings (the golden
// files), which attu serve reads.
func TestQuickstartProviders(t *testing.T) {
	t.Setenv("ATTU_PASSWORD", "app-password")
	dir := t.TempDir()
	for _, c := range []struct {
		name, address string
		flags         []string
		imap, smtp    string
	}{
		{"gmail", "attu.games@gmail.com", []string{"-password-env", "ATTU_PASSWORD"}, "imap.gmail.com:993", "smtp.gmail.com:587"},
		{"fastmail", "attu@fastmail.com", []string{"-password-env", "ATTU_PASSWORD"}, "imap.fastmail.com:993", "smtp.fastmail.com:465"},
		{"outlook", "attu@outlook.com", []string{"-token-command", "oama access attu@outlook.com"}, "outlook.office365.com:993", "smtp-mail.outlook.com:587"},
		{"google", "attu@example.org", []string{"-provider", "google", "-password-env", "ATTU_PASSWORD"}, "imap.gmail.com:993", "smtp.gmail.com:587"},
		{"microsoft365", "attu@example.org", []string{"-provider", "microsoft365", "-token-command", "oama access attu@example.org"}, "outlook.office365.com:993", "smtp.office365.com:587"},
	} {
		path := filepath.Join(dir, c.name+".yaml")
		args := append([]string{"quickstart", c.address, "-db", "/var/lib/attu/attu.db", "-o", path, "-check=false"}, c.flags...)
		if code, out, errs := runAttu(args...); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", c.name, code, out, errs)
			continue
		}
		got := readFile(t, path)
		golden := filepath.Join("testdata", "quickstart", c.name+".golden")
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if want := readFile(t, golden); !bytes.Equal(got, want) {
			t.Errorf("%s: the file differs from %s (go test -run TestQuickstartProviders -update):\n%s", c.name, golden, got)
		}
		cfg, _, _, _, err := loadServeConfig(got)
		if err != nil || cfg.IMAP.Addr != c.imap || cfg.SMTP.Addr != c.smtp || cfg.Address != c.address || !cfg.Auth.Required {
			t.Errorf("%s: read as IMAP %s, SMTP %s, authentication %+v: %v", c.name, cfg.IMAP.Addr, cfg.SMTP.Addr, cfg.Auth, err)
		}
	}
}

// What the flags leave out is asked on the standard input; input that
// ends first, or a provider's wrong way of signing in, writes nothing.
func TestQuickstartAsks(t *testing.T) {
	dir := t.TempDir()
	answer := func(text string) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(text)
		w.Close()
		stdin := os.Stdin
		os.Stdin = r
		t.Cleanup(func() { os.Stdin = stdin; r.Close() })
	}
	answer("mail.example.org\nfile /etc/attu/password\n")
	path := filepath.Join(dir, "asked.yaml")
	code, out, errs := runAttu("quickstart", "attu@example.org", "-o", path, "-check=false")
	got := string(readFile(t, path))
	if code != 0 || !strings.Contains(out, "The IMAP server of your own mail server") || !strings.Contains(got, "host: mail.example.org\n  port: 993\n  security: tls\n") ||
		!strings.Contains(got, "smtp:\n  host: mail.example.org\n  port: 587\n") || strings.Count(got, "password_file: /etc/attu/password\n") != 2 ||
		!strings.Contains(got, "mode: off\n") {
		t.Errorf("exit %d\n%s%s\n%s", code, out, errs, got)
	}
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{"attu@example.org"}, "give your own server's IMAP host with -imap-host"},
		{[]string{"attu@outlook.com"}, "give the command that prints an access token with -token-command"},
		{[]string{"attu@outlook.com", "-password-env", "X"}, "Outlook.com takes no password over IMAP and SMTP; give -token-command"},
		{[]string{"attu@gmail.com", "-provider", "yahoo", "-password-env", "X"}, `-provider "yahoo": want gmail, google`},
		{[]string{"attu+g1@gmail.com"}, "give the mailbox's plain address"},
		{[]string{"attu@example.org", "-imap-host", "mail.example.org", "-password-env", "X", "-authentication", "required"}, "give -authserv-id"},
	} {
		answer("")
		p := filepath.Join(dir, "never.yaml")
		code, out, errs := runAttu(append([]string{"quickstart", "-o", p}, c.args...)...)
		if _, err := os.Stat(p); code != 2 || !strings.Contains(errs, c.err) || err == nil {
			t.Errorf("%v: exit %d, file written: %v\n%s%s", c.args, code, err == nil, out, errs)
		}
	}
}

func TestQuickstartUsage(t *testing.T) {
	code, out, _ := runAttu("quickstart", "-h")
	if code != 0 || !strings.Contains(out, "Examples:\n  attu quickstart attu.games@gmail.com") || !strings.Contains(out, "-provider") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// An example name as the trusted authserv-id, which would refuse every
// player, fails the check; the file stays, to be corrected.
func TestQuickstartExampleAuthServID(t *testing.T) {
	s := startTLSServers(t)
	path, code, out, errs := quickstartOwn(t, s, "-authserv-id", "mx.example.org")
	if code != 1 || !strings.Contains(errs, "authentication.trusted_authserv_ids: mx.example.org is an example name") ||
		!strings.Contains(errs, "correct "+path) || strings.Count(out, "login as attu: OK") != 2 {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
