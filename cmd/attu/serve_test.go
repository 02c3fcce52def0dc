package main

import (
	windsys "github.com/attu-pbem/attu/templates/wind"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// The example configuration reads as documented, with the passwords from
// the environment.
func TestServeExampleConfig(t *testing.T) {
	t.Setenv("ATTU_IMAP_PASSWORD", "imap-secret")
	t.Setenv("ATTU_SMTP_PASSWORD", "smtp-secret")
	data, err := os.ReadFile("../../examples/attu-serve.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, db, _, _, err := loadServeConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Address != "attu@example.org" || db != "/var/lib/attu/attu.db" ||
		cfg.IMAP.Addr != "imap.example.org:993" || cfg.IMAP.Security != mail.TLS || cfg.IMAP.Password != "imap-secret" ||
		cfg.SMTP.Addr != "smtp.example.org:587" || cfg.SMTP.Security != mail.StartTLS || cfg.SMTP.Password != "smtp-secret" ||
		cfg.IMAP.Processed != "attu-done" || cfg.IMAP.Failed != "attu-failed" || cfg.Limits.MaxBytes != 1<<20 ||
		cfg.Auth.Required || len(cfg.Auth.AuthServIDs) != 0 || cfg.Auth.DKIM ||
		cfg.Outbox.RetryMin != time.Second || cfg.Outbox.RetryMax != 5*time.Minute || cfg.Outbox.PerDay != 400 || cfg.IMAP.TLSConfig != nil {
		t.Errorf("read %+v, database %s", cfg, db)
	}
}

// A misspelt key, a missing password and plaintext to a remote server are
// refused, each named.
func TestServeConfigMistakes(t *testing.T) {
	t.Setenv("ATTU_IMAP_PASSWORD", "")
	conf := `address: attu@example.org
database: attu.db
imap: {host: imap.example.org, security: plain, user: attu, password_env: ATTU_IMAP_PASSWORD}
smtp: {host: smtp.example.org, user: attu, pasword_file: /x}
`
	_, _, _, _, err := loadServeConfig([]byte(conf))
	if err == nil || !strings.Contains(err.Error(), "pasword_file") {
		t.Fatalf("misspelt key: %v", err)
	}
	conf = strings.Replace(conf, "pasword_file: /x", "password_file: /nonexistent/pw", 1)
	_, _, _, _, err = loadServeConfig([]byte(conf))
	if err == nil || !strings.Contains(err.Error(), "imap.password_env") || !strings.Contains(err.Error(), "smtp.password_file") {
		t.Fatalf("missing passwords: %v", err)
	}
	t.Setenv("ATTU_IMAP_PASSWORD", "x")
	dir := t.TempDir()
	os.WriteFile(dir+"/pw", []byte("y\n"), 0o600)
	conf = strings.Replace(conf, "/nonexistent/pw", dir+"/pw", 1)
	cfg, _, _, _, err := loadServeConfig([]byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SMTP.Password != "y" {
		t.Errorf("password file read as %q", cfg.SMTP.Password)
	}
	for _, c := range []struct{ auth, err string }{
		{"authentication: {mode: on}", "authentication.mode"},
		{"authentication: {mode: required}", "needs trusted_authserv_ids"},
		{"authentication: {mode: required, trusted_authserv_ids: [\"mx.example.org; dkim=pass\"]}", "not a host name"},
	} {
		if _, _, _, _, err := loadServeConfig([]byte(conf + c.auth + "\n")); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v", c.auth, err)
		}
	}
	if cfg, _, _, _, err := loadServeConfig([]byte(conf + "authentication: {mode: required, dkim: true}\n")); err != nil || !cfg.Auth.Required || !cfg.Auth.DKIM {
		t.Errorf("dkim alone: %+v %v", cfg.Auth, err)
	}
	db, err := store.Open(dir+"/attu.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := newDaemon(referee.New(db, referee.Config{System: windsys.Rules{}, Address: cfg.Address}), cfg); err == nil {
		t.Error("plaintext IMAP to a remote server accepted")
	}
}

// The retry waits are smtp keys, read as durations and in order.
func TestServeConfigRetry(t *testing.T) {
	base := "address: attu@example.org\ndatabase: attu.db\nimap: {host: 127.0.0.1, security: plain, user: attu, password_file: %s}\n"
	dir := t.TempDir()
	os.WriteFile(dir+"/pw", []byte("x\n"), 0o600)
	for _, c := range []struct {
		smtp, imap string
		min, max   time.Duration
		bad        string
	}{
		{smtp: "{host: 127.0.0.1, security: plain}"},
		{smtp: "{host: 127.0.0.1, security: plain, retry_min: 2s, retry_max: 3m}", min: 2 * time.Second, max: 3 * time.Minute},
		{smtp: "{host: 127.0.0.1, security: plain, retry_max: 10m}", max: 10 * time.Minute},
		{smtp: "{host: 127.0.0.1, security: plain, retry_min: 5m, retry_max: 1m}", bad: "smtp.retry_min"},
		{smtp: "{host: 127.0.0.1, security: plain, retry_min: soon}", bad: "smtp.retry_min"},
		{smtp: "{host: 127.0.0.1, security: plain}", imap: ", retry_max: 1m", bad: "imap.retry_max is not a key"},
	} {
		conf := strings.Replace(base, "%s", dir+"/pw", 1)
		if c.imap != "" {
			conf = strings.Replace(conf, "}\n", c.imap+"}\n", 1)
		}
		cfg, _, _, _, err := loadServeConfig([]byte(conf + "smtp: " + c.smtp + "\n"))
		switch {
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("smtp %s: %v, want an error naming %s", c.smtp, err, c.bad)
		case c.bad == "" && err != nil:
			t.Errorf("smtp %s: %v", c.smtp, err)
		case c.bad == "" && (cfg.Outbox.RetryMin != c.min || cfg.Outbox.RetryMax != c.max):
			t.Errorf("smtp %s: retry %v to %v, want %v to %v", c.smtp, cfg.Outbox.RetryMin, cfg.Outbox.RetryMax, c.min, c.max)
		}
	}
}
