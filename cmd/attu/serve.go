package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/store/tournament"
)

func init() {
	register("serve", command{
		summary: "run the mail daemon: read the mailbox, play the games, send the reports",
		run:     runServe,
	})
}

const serveUsage = `Usage: attu serve -config FILE [-check]

Runs the mail daemon until SIGINT or SIGTERM: it watches the mailbox over
IMAP (IDLE, or polling), hands each mail to the game service, sends the
mail the store queued over SMTP, and keeps the deadlines. Everything it
must remember is in the database, so it can be stopped and started again
at any time. While it runs, attu status, show, export, umpire and new
work as usual: the daemon runs them for the command line, over the
socket FILE.sock beside the database FILE (its user's only). The configuration file is YAML; every key is checked, and
the passwords come from environment variables or files, never from the
file itself. examples/attu-serve.yaml is a commented example.

Examples:
  ATTU_IMAP_PASSWORD=... ATTU_SMTP_PASSWORD=... attu serve -config attu.yaml
  attu serve -config attu.yaml -check      # read the file and stop

Flags:
`

// serveFile is the configuration file of attu serve.
type serveFile struct {
	Address  string     `yaml:"address"`
	Database string     `yaml:"database"`
	IMAP     serverFile `yaml:"imap"`
	SMTP     serverFile `yaml:"smtp"`
	Limits   limitsFile `yaml:"limits"`
	Auth     authFile   `yaml:"authentication"`
	Tick     string     `yaml:"tick"`
	LogLevel string     `yaml:"log_level"`
}

// serverFile is one mail server's connection.
type serverFile struct {
	Host         string `yaml:"host"`
	Port         int    `yaml:"port"`
	Security     string `yaml:"security"`
	User         string `yaml:"user"`
	PasswordEnv  string `yaml:"password_env"`
	PasswordFile string `yaml:"password_file"`
	Timeout      string `yaml:"timeout"`
	// IMAP only.
	Mailbox      string `yaml:"mailbox"`
	Processed    string `yaml:"processed"`
	Failed       string `yaml:"failed"`
	PollInterval string `yaml:"poll_interval"`
	NoIdle       bool   `yaml:"no_idle"`
	// SMTP only: the waits before trying again a mail the server could
	// not take for now (mail.OutboxConfig).
	RetryMin string `yaml:"retry_min"`
	RetryMax string `yaml:"retry_max"`
}

// authFile says how the author of a mail is authenticated.
type authFile struct {
	Mode        string   `yaml:"mode"`
	AuthServIDs []string `yaml:"trusted_authserv_ids"`
	DKIM        bool     `yaml:"dkim"`
}

// limitsFile caps what incoming mail may be.
type limitsFile struct {
	MaxMessageBytes int64  `yaml:"max_message_bytes"`
	MaxParts        int    `yaml:"max_parts"`
	MaxDepth        int    `yaml:"max_depth"`
	MaxOrdersBytes  int64  `yaml:"max_orders_bytes"`
	AnswersPerHour  int    `yaml:"answers_per_hour"`
	AnswerEvery     string `yaml:"answer_every"`
}

// loadServeConfig reads and checks a configuration file: unknown keys,
// missing values and unreadable passwords are errors naming the key.
func loadServeConfig(data []byte) (daemon.Config, string, time.Duration, slog.Level, error) {
	var f serveFile
	var cfg daemon.Config
	var level slog.Level
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			err = errors.New("the file is empty")
		}
		return cfg, "", 0, level, err
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	dur := func(key, v string, def time.Duration) time.Duration {
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			bad("%s: %q is not a duration like 30s or 5m", key, v)
		}
		return d
	}
	if !strings.Contains(f.Address, "@") || strings.Contains(f.Address, "+") {
		bad("address: want the mailbox's plain address, like attu@example.org (games use attu+GAME@example.org)")
	}
	cfg.Address = f.Address
	if f.Database == "" {
		bad("database: name the game database file")
	}
	server := func(key string, s serverFile, defPort int) (addr string, sec mail.Security, user, pass string, timeout time.Duration) {
		if s.Host == "" {
			bad("%s.host: name the server", key)
		}
		var err error
		if sec, err = mail.ParseSecurity(s.Security); err != nil {
			bad("%s.security: %v", key, err)
		}
		port := s.Port
		if port == 0 {
			port = defPort
			if sec == mail.TLS {
				port = map[string]int{"imap": 993, "smtp": 465}[key]
			}
		}
		addr = net.JoinHostPort(s.Host, strconv.Itoa(port))
		user = s.User
		switch {
		case s.PasswordEnv != "" && s.PasswordFile != "":
			bad("%s: give password_env or password_file, not both", key)
		case s.PasswordEnv != "":
			pass = os.Getenv(s.PasswordEnv)
			if pass == "" {
				bad("%s.password_env: the environment variable %s is empty or not set", key, s.PasswordEnv)
			}
		case s.PasswordFile != "":
			b, err := os.ReadFile(s.PasswordFile)
			if err != nil {
				bad("%s.password_file: %v", key, err)
			}
			pass = strings.TrimRight(string(b), "\r\n")
		case user != "":
			bad("%s: user %s needs password_env or password_file", key, user)
		}
		timeout = dur(key+".timeout", s.Timeout, time.Minute)
		return
	}
	var imapUser, imapPass, smtpUser, smtpPass string
	cfg.IMAP.Addr, cfg.IMAP.Security, imapUser, imapPass, cfg.IMAP.Timeout = server("imap", f.IMAP, 143)
	cfg.IMAP.Username, cfg.IMAP.Password = imapUser, imapPass
	if imapUser == "" {
		bad("imap.user: the mailbox's login is needed")
	}
	cfg.IMAP.Mailbox, cfg.IMAP.Processed, cfg.IMAP.Failed, cfg.IMAP.NoIdle = f.IMAP.Mailbox, f.IMAP.Processed, f.IMAP.Failed, f.IMAP.NoIdle
	cfg.IMAP.PollInterval = dur("imap.poll_interval", f.IMAP.PollInterval, time.Minute)
	cfg.SMTP.Addr, cfg.SMTP.Security, smtpUser, smtpPass, cfg.SMTP.Timeout = server("smtp", f.SMTP, 587)
	cfg.SMTP.Username, cfg.SMTP.Password, cfg.SMTP.From = smtpUser, smtpPass, f.Address
	if f.SMTP.Mailbox != "" || f.SMTP.Processed != "" || f.SMTP.Failed != "" || f.SMTP.PollInterval != "" || f.SMTP.NoIdle {
		bad("smtp: mailbox, processed, failed, poll_interval and no_idle are for imap only")
	}
	cfg.Auth = mail.AuthConfig{AuthServIDs: f.Auth.AuthServIDs, DKIM: f.Auth.DKIM}
	switch f.Auth.Mode {
	case "", "off":
	case "required":
		cfg.Auth.Required = true
		if len(f.Auth.AuthServIDs) == 0 && !f.Auth.DKIM {
			bad("authentication: mode required needs trusted_authserv_ids (your provider's) or dkim: true, or both")
		}
	default:
		bad("authentication.mode: %q: want off or required", f.Auth.Mode)
	}
	for _, id := range f.Auth.AuthServIDs {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, " \t;") {
			bad("authentication.trusted_authserv_ids: %q is not a host name like mx.example.org", id)
		}
	}
	if f.IMAP.RetryMin != "" || f.IMAP.RetryMax != "" {
		bad("imap: retry_min and retry_max are for smtp only")
	}
	// Zero leaves mail.OutboxConfig's defaults.
	cfg.Outbox.RetryMin = dur("smtp.retry_min", f.SMTP.RetryMin, 0)
	cfg.Outbox.RetryMax = dur("smtp.retry_max", f.SMTP.RetryMax, 0)
	if lo, hi := cfg.Outbox.RetryMin, cfg.Outbox.RetryMax; lo > 0 && hi > 0 && lo > hi {
		bad("smtp.retry_min: %v is longer than smtp.retry_max %v", lo, hi)
	}
	cfg.Limits = mail.DefaultLimits()
	if l := f.Limits; l.MaxMessageBytes < 0 || l.MaxParts < 0 || l.MaxDepth < 0 || l.MaxOrdersBytes < 0 || l.AnswersPerHour < 0 {
		bad("limits: no limit may be negative")
	}
	if f.Limits.MaxMessageBytes > 0 {
		cfg.Limits.MaxBytes = f.Limits.MaxMessageBytes
	}
	if f.Limits.MaxParts > 0 {
		cfg.Limits.MaxParts = f.Limits.MaxParts
	}
	if f.Limits.MaxDepth > 0 {
		cfg.Limits.MaxDepth = f.Limits.MaxDepth
	}
	if f.Limits.MaxOrdersBytes > 0 {
		cfg.Limits.MaxOrdersBytes = f.Limits.MaxOrdersBytes
	}
	cfg.AnswerLimit, cfg.AnswerWindow = f.Limits.AnswersPerHour, time.Hour
	answerEvery := dur("limits.answer_every", f.Limits.AnswerEvery, referee.DefaultAnswerEvery)
	cfg.Tick = dur("tick", f.Tick, time.Minute)
	if f.LogLevel != "" {
		if err := level.UnmarshalText([]byte(f.LogLevel)); err != nil {
			bad("log_level: %q: want debug, info, warn or error", f.LogLevel)
		}
	}
	return cfg, f.Database, answerEvery, level, errors.Join(errs...)
}

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	config := fs.String("config", "", "the configuration file (YAML)")
	check := fs.Bool("check", false, "read and check the configuration, then stop")
	argv, code, ok := parseFlags(fs, serveUsage, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(argv) != 0 || *config == "" {
		fmt.Fprintln(stderr, "attu serve: give the configuration file: attu serve -config attu.yaml (attu serve -h)")
		return 2
	}
	data, err := os.ReadFile(*config)
	if err != nil {
		fmt.Fprintf(stderr, "attu serve: %v\n", err)
		return 1
	}
	cfg, dbPath, answerEvery, level, err := loadServeConfig(data)
	if err != nil {
		fmt.Fprintf(stderr, "attu serve: %s:\n  %s\n", *config, strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return 1
	}
	if *check {
		fmt.Fprintf(stdout, "%s: OK: %s through IMAP %s (%s) and SMTP %s (%s), database %s\n",
			*config, cfg.Address, cfg.IMAP.Addr, cfg.IMAP.Security, cfg.SMTP.Addr, cfg.SMTP.Security, dbPath)
		return 0
	}
	lg := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	cfg.Logger = lg
	cfg.Control = controlSocket(dbPath)
	db, err := store.Open(dbPath, nil)
	if err != nil {
		fmt.Fprintf(stderr, "attu serve: %v\n", err)
		return 1
	}
	defer db.Close()
	// The tournaments of the file follow its games (store/tournament).
	svc := referee.New(db, referee.Config{Address: cfg.Address, DB: dbPath, Logger: lg, AnswerEvery: answerEvery,
		Hook: &tournament.Director{Logger: lg}})
	d, err := newDaemon(svc, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "attu serve: %v\n", err)
		return 1
	}
	ctx, stop := rootContext()
	defer stop()
	if err := d.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "attu serve: %v\n", err)
		return 1
	}
	return 0
}
