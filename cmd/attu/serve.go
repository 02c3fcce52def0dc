package main

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates/island"
)

func init() {
	registerFunc("serve", "run the mail daemon: read the mailbox, play the games, send the reports", runServe)
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
file itself (with OAuth, a command prints an access token instead).
examples/attu-serve.yaml is a commented example.

Examples:
  ATTU_IMAP_PASSWORD=... ATTU_SMTP_PASSWORD=... attu serve -config attu.yaml
  attu serve -config attu.yaml -check      # check the file, say what authentication does, log in, stop

Flags:
`

// serveFile is the configuration file of attu serve.
type serveFile struct {
	Address  string     `yaml:"address"`
	Database string     `yaml:"database"`
	IMAP     imapFile   `yaml:"imap"`
	SMTP     smtpFile   `yaml:"smtp"`
	Limits   limitsFile `yaml:"limits"`
	Auth     authFile   `yaml:"authentication"`
	Tick     string     `yaml:"tick"`
	LogLevel string     `yaml:"log_level"`
	// Scenarios is a directory of the operator's Island War scenario
	// files (serveScenarios).
	Scenarios string `yaml:"scenarios"`
}

// serverFile is one mail server's connection.
type serverFile struct {
	Host         string   `yaml:"host"`
	Port         int      `yaml:"port"`
	Security     string   `yaml:"security"`
	TLSCA        string   `yaml:"tls_ca"`
	User         string   `yaml:"user"`
	PasswordEnv  string   `yaml:"password_env"`
	PasswordFile string   `yaml:"password_file"`
	Auth         string   `yaml:"auth"`          // password, or OAuth: oauthbearer or xoauth2
	TokenCommand []string `yaml:"token_command"` // with OAuth: prints an access token
	Timeout      string   `yaml:"timeout"`
}

// imapFile is the IMAP server and the mailbox watched.
type imapFile struct {
	serverFile   `yaml:",inline"`
	Mailbox      string `yaml:"mailbox"`
	Processed    string `yaml:"processed"`
	Failed       string `yaml:"failed"`
	PollInterval string `yaml:"poll_interval"`
	NoIdle       bool   `yaml:"no_idle"`
}

// smtpFile is the SMTP server, the waits before trying again a mail it
// could not take for now, and the sending quota (mail.OutboxConfig).
type smtpFile struct {
	serverFile `yaml:",inline"`
	RetryMin   string `yaml:"retry_min"`
	RetryMax   string `yaml:"retry_max"`
	PerHour    int    `yaml:"per_hour"`
	PerDay     int    `yaml:"per_day"`
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

// checkKeys checks n against the configuration type t and says each
// mistake in the file's words, never Go's: its line and key and, for a
// key that does not exist, the keys that do; it notes each key's line.
func checkKeys(n *yaml.Node, t reflect.Type, key string, lines map[string]int) []error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	var errs []error
	switch t.Kind() {
	case reflect.Struct:
		fields, names := yamlKeys(t)
		if n.Kind != yaml.MappingNode {
			return []error{fmt.Errorf("line %d: %s: want keys here: %s", n.Line, cmp.Or(key, "the file"), strings.Join(names, ", "))}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, sub := n.Content[i], strings.TrimPrefix(key+"."+n.Content[i].Value, ".")
			if ft, ok := fields[k.Value]; ok {
				lines[sub] = k.Line
				errs = append(errs, checkKeys(n.Content[i+1], ft, sub, lines)...)
			} else {
				errs = append(errs, fmt.Errorf("line %d: %s is not a key; the keys of %s are %s", k.Line, sub, cmp.Or(key, "the file"), strings.Join(names, ", ")))
			}
		}
	default:
		if n.Decode(reflect.New(t).Interface()) != nil {
			want := map[reflect.Kind]string{reflect.Bool: "true or false", reflect.String: "one value", reflect.Slice: "a list, like [a, b]"}[t.Kind()]
			got := strconv.Quote(n.Value)
			if n.Kind != yaml.ScalarNode {
				got = "a list or keys"
			}
			errs = append(errs, fmt.Errorf("line %d: %s: want %s, not %s", n.Line, key, cmp.Or(want, "a whole number"), got))
		}
	}
	return errs
}

// yamlKeys returns the keys of a configuration struct, by their YAML tags
// (inline structs' too), and their names in order.
func yamlKeys(t reflect.Type) (map[string]reflect.Type, []string) {
	fields, names := map[string]reflect.Type{}, []string(nil)
	for i := range t.NumField() {
		f := t.Field(i)
		name, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opt != "inline" {
			fields[name], names = f.Type, append(names, name)
			continue
		}
		inner, innerNames := yamlKeys(f.Type)
		maps.Copy(fields, inner)
		names = append(names, innerNames...)
	}
	return fields, names
}

// loadServeConfig reads and checks a configuration file: each unknown key,
// missing value and unreadable password is an error naming the key and
// its line.
func loadServeConfig(data []byte) (daemon.Config, string, time.Duration, slog.Level, error) {
	var f serveFile
	var cfg daemon.Config
	var level slog.Level
	var root yaml.Node
	c := &configCheck{lines: map[string]int{}}
	err := yaml.Unmarshal(data, &root)
	if err == nil && len(root.Content) == 0 {
		err = errors.New("the file is empty")
	}
	if err == nil {
		err = errors.Join(checkKeys(root.Content[0], reflect.TypeFor[serveFile](), "", c.lines)...)
	}
	if err == nil {
		err = root.Decode(&f)
	}
	if err != nil { // yaml's own errors (syntax, a key given twice) name the line
		return cfg, "", 0, level, errors.New(strings.NewReplacer("yaml: unmarshal errors:\n  ", "", "yaml: ", "").Replace(err.Error()))
	}
	if !strings.Contains(f.Address, "@") || strings.Contains(f.Address, "+") {
		c.bad("address", "want the mailbox's plain address, like attu@example.org (games use attu+GAME@example.org)")
	}
	cfg.Address = f.Address
	if f.Database == "" {
		c.bad("database", "name the game database file")
	}
	in, i := c.server("imap", f.IMAP.serverFile, 143), f.IMAP
	if in.Username == "" {
		c.bad("imap.user", "the mailbox's login is needed")
	}
	cfg.IMAP = mail.InboxConfig{Addr: in.Addr, Security: in.Security, TLSConfig: in.TLSConfig, Username: in.Username,
		Password: in.Password, OAuth: in.OAuth, Timeout: in.Timeout, Mailbox: i.Mailbox, Processed: i.Processed,
		Failed: i.Failed, NoIdle: i.NoIdle, PollInterval: c.dur("imap.poll_interval", i.PollInterval, time.Minute)}
	cfg.SMTP = c.server("smtp", f.SMTP.serverFile, 587)
	cfg.SMTP.From = f.Address
	cfg.Auth = c.auth(f.Auth)
	cfg.Outbox = c.outbox(f.SMTP)
	cfg.Limits = c.limits(f.Limits)
	cfg.AnswerLimit = f.Limits.AnswersPerHour
	answerEvery := c.dur("limits.answer_every", f.Limits.AnswerEvery, referee.DefaultAnswerEvery)
	cfg.Tick = c.dur("tick", f.Tick, time.Minute)
	if f.LogLevel != "" {
		if err := level.UnmarshalText([]byte(f.LogLevel)); err != nil {
			c.bad("log_level", "%q: want debug, info, warn or error", f.LogLevel)
		}
	}
	return cfg, f.Database, answerEvery, level, errors.Join(c.errs...)
}

// configCheck gathers the mistakes found in a configuration file's values,
// each at the line of its key (lines, from checkKeys).
type configCheck struct {
	lines map[string]int
	errs  []error
}

// bad notes a mistake in the value of key, at its line or its section's.
func (c *configCheck) bad(key, format string, args ...any) {
	at := key + ": "
	if line := cmp.Or(c.lines[key], c.lines[strings.Split(key, ".")[0]]); line > 0 {
		at = fmt.Sprintf("line %d: %s", line, at)
	}
	c.errs = append(c.errs, errors.New(at+fmt.Sprintf(format, args...)))
}

// dur reads the duration v of key; def when v is empty.
func (c *configCheck) dur(key, v string, def time.Duration) time.Duration {
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		c.bad(key, "%q is not a duration like 30s or 5m", v)
	}
	return d
}

// server reads the connection to a mail server, section key ("imap" or
// "smtp"), and its password or OAuth command.
func (c *configCheck) server(key string, s serverFile, defPort int) (m mail.SMTPConfig) {
	if s.Host == "" {
		c.bad(key+".host", "name the server")
	}
	var err error
	if m.Security, err = mail.ParseSecurity(s.Security); err != nil {
		c.bad(key+".security", "%v", err)
	}
	if s.TLSCA != "" {
		pem, err := os.ReadFile(s.TLSCA)
		pool := x509.NewCertPool()
		if err != nil || !pool.AppendCertsFromPEM(pem) {
			c.bad(key+".tls_ca", "%s: want a readable file of PEM certificates (%v)", s.TLSCA, cmp.Or(err, errors.New("none in it")))
		}
		m.TLSConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	port := s.Port
	if port == 0 {
		port = defPort
		if m.Security == mail.TLS {
			port = map[string]int{"imap": 993, "smtp": 465}[key]
		}
	}
	m.Addr = net.JoinHostPort(s.Host, strconv.Itoa(port))
	m.Username, m.Timeout = s.User, c.dur(key+".timeout", s.Timeout, time.Minute)
	if s.Auth != "" {
		m.OAuth = mail.OAuth{Mech: strings.ToUpper(s.Auth), Command: s.TokenCommand}
		if !slices.Contains([]string{"OAUTHBEARER", "XOAUTH2"}, m.OAuth.Mech) || s.User == "" || s.PasswordEnv+s.PasswordFile != "" {
			c.bad(key+".auth", "%q: want oauthbearer or xoauth2, with user and no password", s.Auth)
		}
		if len(s.TokenCommand) == 0 || s.TokenCommand[0] == "" {
			c.bad(key+".token_command", "name the command that prints an access token, as a list like [oama, access, %s]", cmp.Or(s.User, "USER"))
		}
		return m
	}
	if len(s.TokenCommand) > 0 {
		c.bad(key+".token_command", "goes with auth: oauthbearer or xoauth2")
	}
	switch {
	case s.PasswordEnv != "" && s.PasswordFile != "":
		c.bad(key+".password_env", "give password_env or password_file, not both")
	case s.PasswordEnv != "":
		m.Password = os.Getenv(s.PasswordEnv)
		if m.Password == "" {
			c.bad(key+".password_env", "the environment variable %s is empty or not set", s.PasswordEnv)
		}
	case s.PasswordFile != "":
		b, err := os.ReadFile(s.PasswordFile)
		if err != nil {
			c.bad(key+".password_file", "%v", err)
		}
		m.Password = strings.TrimRight(string(b), "\r\n")
	case s.User != "":
		c.bad(key+".user", "%s needs password_env or password_file", s.User)
	}
	return m
}

// auth reads the authentication section.
func (c *configCheck) auth(f authFile) mail.AuthConfig {
	a := mail.AuthConfig{AuthServIDs: f.AuthServIDs, DKIM: f.DKIM}
	switch f.Mode {
	case "", "off":
	case "required":
		a.Required = true
		if len(f.AuthServIDs) == 0 && !f.DKIM {
			c.bad("authentication.mode", "required needs trusted_authserv_ids (your provider's) or dkim: true, or both")
		}
	default:
		c.bad("authentication.mode", "%q: want off or required", f.Mode)
	}
	for _, id := range f.AuthServIDs {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, " \t;") {
			c.bad("authentication.trusted_authserv_ids", "%q is not a host name like mx.example.org", id)
		}
	}
	return a
}

// outbox reads the smtp section's waits and quota; zero leaves
// mail.OutboxConfig's defaults.
func (c *configCheck) outbox(f smtpFile) mail.OutboxConfig {
	o := mail.OutboxConfig{RetryMin: c.dur("smtp.retry_min", f.RetryMin, 0), RetryMax: c.dur("smtp.retry_max", f.RetryMax, 0),
		PerHour: f.PerHour, PerDay: f.PerDay}
	if o.RetryMin > 0 && o.RetryMax > 0 && o.RetryMin > o.RetryMax {
		c.bad("smtp.retry_min", "%v is longer than smtp.retry_max %v", o.RetryMin, o.RetryMax)
	}
	if f.PerHour < 0 || f.PerDay < 0 {
		c.bad("smtp.per_hour", "per_hour and per_day cannot be negative (0: no cap)")
	}
	return o
}

// limits reads the limits section; a limit left at zero keeps its default.
func (c *configCheck) limits(l limitsFile) mail.Limits {
	if min(l.MaxMessageBytes, l.MaxOrdersBytes) < 0 || min(l.MaxParts, l.MaxDepth, l.AnswersPerHour) < 0 {
		c.bad("limits", "no limit may be negative")
	}
	d := mail.DefaultLimits()
	d.MaxBytes = cmp.Or(l.MaxMessageBytes, d.MaxBytes)
	d.MaxParts = cmp.Or(l.MaxParts, d.MaxParts)
	d.MaxDepth = cmp.Or(l.MaxDepth, d.MaxDepth)
	d.MaxOrdersBytes = cmp.Or(l.MaxOrdersBytes, d.MaxOrdersBytes)
	return d
}

func runServe(s *session) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	config := fs.String("config", "", "the configuration file (YAML)")
	check := fs.Bool("check", false, "check the configuration, log in to both servers, then stop")
	argv, err := s.parse(fs, serveUsage)
	if err != nil {
		return err
	}
	if len(argv) != 0 || *config == "" {
		return usageErr("give the configuration file: attu serve -config attu.yaml (attu serve -h)")
	}
	if *check {
		return checkServe(*config, s.stdout, s.stderr)
	}
	cfg, dbPath, answerEvery, level, err := readServeConfig(*config)
	if err != nil {
		return err
	}
	h, err := serveScenarios(*config)
	if err != nil {
		return err
	}
	lg := newLogger(s.stderr, level)
	cfg.Logger = lg
	cfg.Control = controlSocket(dbPath)
	db, err := store.Open(dbPath, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	// The tournaments of the file follow its games (store/tournament).
	dir := h.director()
	dir.Logger = lg
	svc := referee.New(db, h.hosting(referee.Config{Address: cfg.Address, DB: dbPath, Logger: lg, AnswerEvery: answerEvery, Hook: dir}))
	d, err := newDaemon(svc, cfg)
	if err != nil {
		return err
	}
	ctx, stop := rootContext()
	defer stop()
	return d.Run(ctx)
}

// readServeConfig reads and checks the configuration file at path; its
// mistakes come in one error, each on a line of its own.
func readServeConfig(path string) (daemon.Config, string, time.Duration, slog.Level, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return daemon.Config{}, "", 0, 0, err
	}
	cfg, dbPath, answerEvery, level, err := loadServeConfig(data)
	if err != nil {
		err = fmt.Errorf("%s:\n  %s", path, strings.ReplaceAll(err.Error(), "\n", "\n  "))
	}
	return cfg, dbPath, answerEvery, level, err
}

// serveScenarios are the systems the daemon of the configuration at path
// hosts, Island War knowing the scenario files of its scenarios key
// (a path from the working directory, as the database's is). A file that
// does not check keeps the daemon from starting, named with its line.
func serveScenarios(path string) (hosted, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f struct {
		Scenarios string `yaml:"scenarios"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	h, err := hostedSystems(f.Scenarios)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, nil
}

// checkServe is attu serve -check: it reads the configuration at path,
// says what its authentication setting does to a player's mail, and logs
// in to both servers (checkServers).
func checkServe(path string, stdout, stderr io.Writer) error {
	cfg, dbPath, _, _, err := readServeConfig(path)
	if err != nil {
		return err
	}
	h, err := serveScenarios(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: the file is good: %s, database %s\n", path, cfg.Address, dbPath)
	if l := h[1:].scenarioLines(); h[1] != (island.Rules{}) {
		fmt.Fprint(stdout, "scenarios:\n"+l)
	}
	fmt.Fprintln(stdout, authEffect(cfg.Auth))
	err = checkServers(cfg, stdout, stderr)
	for _, id := range cfg.Auth.AuthServIDs {
		if d := canonicalHost(id); cfg.Auth.Required && (d == "example.org" || d == "example.com" || d == "example.net" ||
			strings.HasSuffix(d, ".example.org") || strings.HasSuffix(d, ".example.com") || strings.HasSuffix(d, ".example.net")) {
			fmt.Fprintf(stderr, "authentication.trusted_authserv_ids: %s is an example name, which no provider writes: every player's mail would be refused; "+
				"set your provider's (the first word of the topmost Authentication-Results of a mail the mailbox received), or authentication.mode: off\n", id)
			err = errFailed
		}
	}
	return err
}

// canonicalHost is a host name as it compares: lower case, without a
// leading or trailing dot.
func canonicalHost(h string) string {
	return strings.Trim(strings.ToLower(strings.TrimSpace(h)), ".")
}

// authEffect says in one line what the authentication setting a does to
// a player's mail, and what to change when it refuses them all.
func authEffect(a mail.AuthConfig) string {
	if !a.Required {
		return "authentication: off: a mail is taken to be from the one address in its From field, and its token decides what it may do " +
			"(authentication.mode: required also wants the provider's proof)"
	}
	var proofs []string
	if len(a.AuthServIDs) > 0 {
		proofs = append(proofs, "the topmost Authentication-Results of "+strings.Join(a.AuthServIDs, " or ")+" shows a DMARC or DKIM pass of its From domain")
	}
	if a.DKIM {
		proofs = append(proofs, "attu verifies a DKIM signature of its From domain")
	}
	return "authentication: required: a player's mail is applied only when " + strings.Join(proofs, ", or when ") +
		"; any other gets a stranger's answer and changes nothing (if every player's mail is refused, check authentication.trusted_authserv_ids " +
		"against the first word of that field in a mail the mailbox received, or set authentication.mode: off)"
}

// checkServers logs in to both servers as the daemon would and reports
// each; it fails (errFailed) when either failed.
func checkServers(cfg daemon.Config, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), cfg.IMAP.Timeout+cfg.SMTP.Timeout)
	defer cancel()
	var failed error
	report := func(server, addr string, sec mail.Security, user string, err error) {
		login := "login as " + user
		if user == "" {
			login = "connection (no login)"
		}
		if fe := (*mail.FixError)(nil); errors.As(err, &fe) {
			err = fmt.Errorf("%v\n  to fix: %s", fe.Err, fe.Fix)
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s %s (%s): %s: OK\n", server, addr, sec, login)
			return
		}
		failed = errFailed
		fmt.Fprintf(stderr, "%s %s (%s): %s failed: %v\n", server, addr, sec, login, err)
	}
	report("IMAP", cfg.IMAP.Addr, cfg.IMAP.Security, cfg.IMAP.Username, mail.CheckIMAP(ctx, cfg.IMAP))
	report("SMTP", cfg.SMTP.Addr, cfg.SMTP.Security, cfg.SMTP.Username, mail.CheckSMTP(ctx, cfg.SMTP))
	return failed
}
