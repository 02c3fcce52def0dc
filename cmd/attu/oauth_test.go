package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail/loopback"
)

// oauthServers are loopback servers that let attu in only with XOAUTH2
// and the token "tok-1943"; config writes a configuration of attu serve
// whose token command prints token.
type oauthServers struct{ sys *loopback.System }

func startOAuthServers(t *testing.T) oauthServers {
	sys, err := loopback.Start(&loopback.Options{OAuth: "XOAUTH2", Token: "tok-1943"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Close() })
	for _, u := range []string{"attu", "alice", "bob"} {
		if _, err := sys.AddUser(u, randomPassword()); err != nil {
			t.Fatal(err)
		}
	}
	return oauthServers{sys}
}

func (s oauthServers) config(t *testing.T, token string) string {
	dir := t.TempDir()
	script := filepath.Join(dir, "token.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho "+token+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	server := func(name, addr string) string {
		host, port, _ := net.SplitHostPort(addr)
		return fmt.Sprintf("%s: {host: %s, port: %s, security: plain, user: attu, auth: xoauth2, token_command: [%s]}\n", name, host, port, script)
	}
	conf := fmt.Sprintf("address: attu@%s\ndatabase: %s\n", s.sys.Domain(), filepath.Join(dir, "attu.db")) +
		server("imap", s.sys.IMAPAddr()) + server("smtp", s.sys.SMTPAddr())
	path := filepath.Join(dir, "attu.yaml")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// With auth: xoauth2 and a token command, attu serve -check signs in to
// both servers, and the daemon sends the welcomes and watches the
// mailbox; a token refused fails -check naming the fix.
func TestServeOAuth(t *testing.T) {
	s := startOAuthServers(t)
	code, out, errs := runAttu("serve", "-config", s.config(t, "tok-1943"), "-check")
	if code != 0 || strings.Count(out, "(plain): login as attu: OK") != 2 {
		t.Errorf("-check: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runAttu("serve", "-config", s.config(t, "stale"), "-check")
	for _, server := range []string{"imap", "smtp"} {
		if !strings.Contains(errs, "to fix: the server refused the access token for attu: make "+server+".token_command print a fresh token") {
			t.Errorf("-check with a token refused: %s not named: exit %d\n%s%s", server, code, out, errs)
		}
	}
	t.Log(out, errs)
	if code != 1 {
		t.Errorf("-check with a token refused: exit %d, want 1", code)
	}
	logs := runDaemon(t, s.config(t, "tok-1943"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.sys.WaitDeliveries(ctx, 2); err != nil {
		t.Error("the welcomes:", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for logs.count(`msg="imap: ready"`) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if logs.count(`msg="imap: ready"`) == 0 || logs.count(`level=(WARN|ERROR)`) != 0 {
		t.Error("the inbox did not sign in, or something failed")
	}
}

// The daemon with a token both servers refuse: one ERROR line for each,
// naming the token command, and no attempt again within seconds.
func TestServeOAuthRefused(t *testing.T) {
	s := startOAuthServers(t)
	logs := runDaemon(t, s.config(t, "stale"))
	deadline := time.Now().Add(20 * time.Second)
	for logs.count(`level=ERROR`) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	for _, server := range []string{"imap", "smtp"} {
		fix := fmt.Sprintf(`level=ERROR msg="%s: the server refused the access token for attu: make %s.token_command print a fresh token[^"]*"[^\n]*5m0s`, server, server)
		if n := logs.count(fix); n != 1 {
			t.Errorf("%d ERROR lines of %s naming the token command and a retry in 5 minutes, want 1", n, server)
		}
	}
	if n, again := logs.count(`level=ERROR`), logs.count(`attempt=[2-9]|imap: still failing|connection lost|sending failed`); n != 2 || again != 0 {
		t.Errorf("%d ERROR lines, want 2; %d attempts again within seconds, want none", n, again)
	}
}

// auth and token_command are checked like every key, each mistake named
// with its line.
func TestServeOAuthConfig(t *testing.T) {
	base := "address: attu@example.org\ndatabase: attu.db\nsmtp: {host: smtp.example.org, user: attu, auth: oauthbearer, token_command: [oama, access, attu@example.org]}\nimap:\n  host: imap.example.org\n  user: attu\n"
	cfg, _, _, _, err := loadServeConfig([]byte(base + "  auth: XOAUTH2\n  token_command: [get-token]\n"))
	if err != nil || cfg.IMAP.OAuth.Mech != "XOAUTH2" || strings.Join(cfg.IMAP.OAuth.Command, " ") != "get-token" || cfg.IMAP.Password != "" ||
		cfg.SMTP.OAuth.Mech != "OAUTHBEARER" || strings.Join(cfg.SMTP.OAuth.Command, " ") != "oama access attu@example.org" {
		t.Fatalf("read %+v %+v: %v", cfg.IMAP.OAuth, cfg.SMTP.OAuth, err)
	}
	for _, c := range []struct{ imap, err string }{
		{"  auth: oauth2\n", `line 7: imap.auth: "oauth2": want oauthbearer or xoauth2, with user and no password`},
		{"  auth: xoauth2\n", "line 4: imap.token_command: name the command that prints an access token, as a list like [oama, access, attu]"},
		{"  auth: xoauth2\n  token_command: get-token\n", `line 8: imap.token_command: want a list, like [a, b], not "get-token"`},
		{"  auth: xoauth2\n  token_command: [get-token]\n  password_file: /dev/null\n", `line 7: imap.auth: "xoauth2": want oauthbearer or xoauth2, with user and no password`},
		{"  password_file: /dev/null\n  token_command: [get-token]\n", "line 8: imap.token_command: goes with auth: oauthbearer or xoauth2"},
	} {
		if _, _, _, _, err := loadServeConfig([]byte(base + c.imap)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.imap, err, c.err)
		}
	}
}

// The README's OAuth configuration reads as it says.
func TestReadmeOAuth(t *testing.T) {
	readme := string(readFile(t, "../../README.md"))
	_, section, _ := strings.Cut(readme, "### OAuth sign-in\n")
	_, block, _ := strings.Cut(section, "```\n")
	block, _, _ = strings.Cut(block, "```")
	cfg, _, _, _, err := loadServeConfig([]byte("address: attu@outlook.com\ndatabase: attu.db\n" + block))
	if err != nil || cfg.IMAP.OAuth.Mech != "XOAUTH2" || cfg.SMTP.OAuth.Mech != "XOAUTH2" || cfg.SMTP.Addr != "smtp-mail.outlook.com:587" ||
		cfg.IMAP.Addr != "outlook.office365.com:993" || strings.Join(cfg.SMTP.OAuth.Command, " ") != "oama access attu@outlook.com" {
		t.Errorf("%+v\n%+v\n%v", cfg.IMAP, cfg.SMTP, err)
	}
}
