package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/mail"
)

func init() {
	registerFunc("quickstart", "write a working attu serve configuration for a mailbox's provider, then check it", runQuickstart)
}

const quickstartUsage = `Usage: attu quickstart [flags] ADDRESS

Writes the configuration of attu serve for the mailbox ADDRESS, with its
provider's servers, ports, TLS, way of signing in and authentication
stamp, as a file only its owner may read (-o, attu.yaml), then runs the
check attu serve -check runs and prints its result.

The provider is told by the address's domain: Gmail (gmail.com), Fastmail
(fastmail.com and its other domains), Outlook.com (outlook.com,
hotmail.com, live.com, msn.com). A mailbox of your own domain at Google
Workspace or Microsoft 365 needs -provider google or -provider
microsoft365: attu does not look up the domain's mail servers. Any other
domain is your own server, whose IMAP host -imap-host names (asked for
when not given); its SMTP host is the same unless -smtp-host says another.

The password never stands in the file: it comes from an environment
variable (-password-env) or a file holding only it (-password-file). Where
the provider takes no password (Outlook.com, Microsoft 365), or with
OAuth at Google, -token-command names the command that prints a fresh
access token (a helper such as oama). Whichever is missing is asked for on
the standard input.

With the provider's stamp known (Gmail, Google Workspace, Fastmail),
authentication is required: a mail counts as a player's only with the
provider's DMARC or DKIM pass; Outlook.com and Microsoft 365 write no
name attu can trust, so attu checks the DKIM signatures itself. Your own
server starts with authentication off, unless -authserv-id or -dkim says
how to check it. -authentication off leaves it off for any provider.

Exit status: 0 when the file is written and the check passed, 1 when the
check failed (the file stays, to be corrected), 2 when nothing was
written.

Examples:
  attu quickstart attu.games@gmail.com -password-env ATTU_PASSWORD
  attu quickstart attu@outlook.com -token-command "oama access attu@outlook.com"
  attu quickstart attu@example.org -provider microsoft365 -token-command "oama access attu@example.org"
  attu quickstart attu@example.org -imap-host mail.example.org -password-file /etc/attu/password \
      -authserv-id mx.example.org -db /var/lib/attu/attu.db -o /etc/attu/attu.yaml

Flags:
`

// endpoint is one mail server as the configuration names it.
type endpoint struct {
	host     string
	port     int
	security string
}

// provider is what attu knows of a mail provider: its servers, how a
// program signs in, and what its receiving servers stamp on each mail.
type provider struct {
	name, title string
	domains     []string // the addresses that tell this provider by their domain
	imap, smtp  endpoint
	oauthOnly   bool   // takes no password over IMAP and SMTP
	login       string // how to sign in, for the file's comment
	// authServIDs and dkim are the authentication that works with the
	// provider's stamp; none of either: no stamp known.
	authServIDs []string
	dkim        bool
	authNote    string // why, for the file's comment
	perDay      int
	quotaNote   string
}

// providers are the providers quickstart knows, by the name -provider
// takes. Their settings are the ones the providers publish for IMAP and
// SMTP clients; their stamps are what their receiving servers write in
// Authentication-Results (the README's "Sender authentication").
var providers = map[string]*provider{
	"gmail": {
		name: "gmail", title: "Gmail", domains: []string{"gmail.com", "googlemail.com"},
		imap: endpoint{"imap.gmail.com", 993, "tls"}, smtp: endpoint{"smtp.gmail.com", 587, "starttls"},
		login: "an app password (turn on 2-Step Verification, then create one in the account's security settings), " +
			"or OAuth with a token command",
		authServIDs: []string{"mx.google.com"},
		authNote:    "Gmail writes one Authentication-Results field, as mx.google.com, at the top of every mail it receives.",
		perDay:      400, quotaNote: "Gmail allows about 500 recipients a day",
	},
	"google": {
		name: "google", title: "Google Workspace",
		imap: endpoint{"imap.gmail.com", 993, "tls"}, smtp: endpoint{"smtp.gmail.com", 587, "starttls"},
		login:       "an app password where the administrator allows them, or OAuth with a token command",
		authServIDs: []string{"mx.google.com"},
		authNote:    "Google writes one Authentication-Results field, as mx.google.com, at the top of every mail it receives.",
		perDay:      1800, quotaNote: "Google Workspace allows about 2,000 recipients a day, fewer in a trial",
	},
	"fastmail": {
		name: "fastmail", title: "Fastmail",
		domains: []string{"fastmail.com", "fastmail.fm", "fastmail.net", "fastmail.org", "fastmail.uk", "fastmail.de",
			"fastmail.us", "fastmail.to", "fastmail.co.uk", "fastmail.com.au", "fastmail.in", "fastmail.jp"},
		imap: endpoint{"imap.fastmail.com", 993, "tls"}, smtp: endpoint{"smtp.fastmail.com", 465, "tls"},
		login:       "an app password with IMAP and SMTP access (Settings, Privacy & Security)",
		authServIDs: []string{".messagingengine.com"}, dkim: true,
		authNote: "Fastmail's receiving hosts each write under their own name (mx1.messagingengine.com, ...), " +
			"in several fields of which the topmost may hold other checks; attu verifies the DKIM signature too.",
	},
	"outlook": {
		name: "outlook", title: "Outlook.com", domains: []string{"outlook.com", "hotmail.com", "live.com", "msn.com"},
		imap: endpoint{"outlook.office365.com", 993, "tls"}, smtp: endpoint{"smtp-mail.outlook.com", 587, "starttls"},
		oauthOnly: true, login: "OAuth: Outlook.com takes no password over IMAP and SMTP",
		dkim:     true,
		authNote: "Outlook.com writes its Authentication-Results without the server's name, so none can be trusted by name: attu verifies the DKIM signatures itself.",
	},
	"microsoft365": {
		name: "microsoft365", title: "Microsoft 365",
		imap: endpoint{"outlook.office365.com", 993, "tls"}, smtp: endpoint{"smtp.office365.com", 587, "starttls"},
		oauthOnly: true, login: "OAuth; the administrator may have to allow SMTP AUTH for the mailbox",
		dkim:     true,
		authNote: "Microsoft 365 writes its Authentication-Results without the server's name, so none can be trusted by name: attu verifies the DKIM signatures itself.",
	},
	"own": {
		name: "own", title: "your own server",
		imap: endpoint{"", 993, "tls"}, smtp: endpoint{"", 587, "starttls"},
		login: "the account's password, or an application-specific one",
	},
}

// providerOf returns the provider of an address by its domain; the own
// server when no provider is known for it.
func providerOf(address string) *provider {
	_, domain, _ := strings.Cut(strings.ToLower(address), "@")
	for _, p := range providers {
		if slices.Contains(p.domains, domain) {
			return p
		}
	}
	return providers["own"]
}

// quickstart is what attu quickstart writes: an address at a provider,
// its servers as given or the provider's, where the secret comes from,
// and how authors are authenticated.
type quickstart struct {
	address, user  string
	p              *provider
	imap, smtp     endpoint
	tlsCA          string
	passwordEnv    string
	passwordFile   string
	tokenCommand   []string
	authentication string // required or off
	authServIDs    []string
	dkim           bool
	database       string
}

func runQuickstart(s *session) error {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	name := fs.String("provider", "", "gmail, google (Workspace), fastmail, outlook, microsoft365 or own; default: by the address's domain")
	imapHost := fs.String("imap-host", "", "the IMAP server (your own server's; overrides the provider's)")
	imapPort := fs.Int("imap-port", 0, "its port (default: the provider's, or 993 with tls, 143 with starttls)")
	imapSec := fs.String("imap-security", "", "tls, starttls, or plain (only to 127.0.0.1)")
	smtpHost := fs.String("smtp-host", "", "the SMTP submission server (default: the provider's, or the IMAP host)")
	smtpPort := fs.Int("smtp-port", 0, "its port (default: the provider's, or 587 with starttls, 465 with tls)")
	smtpSec := fs.String("smtp-security", "", "starttls, tls, or plain (only to 127.0.0.1)")
	tlsCA := fs.String("tls-ca", "", "a PEM file of the authority that signed your own server's certificate")
	user := fs.String("user", "", "the login of the mailbox (default: ADDRESS)")
	pwEnv := fs.String("password-env", "", "the environment variable holding the password")
	pwFile := fs.String("password-file", "", "a file holding only the password (readable by attu alone)")
	token := fs.String("token-command", "", `the command printing an OAuth access token, words split at spaces, like "oama access ADDRESS"`)
	authMode := fs.String("authentication", "", "required or off (default: required where the provider's stamp is known)")
	authServ := fs.String("authserv-id", "", "your own receiving server's authserv-id (comma-separated for several): authentication required with it")
	dkim := fs.Bool("dkim", false, "verify the DKIM signatures of each mail: authentication required with it")
	db := fs.String("db", "", "the game database (default: attu.db beside the configuration)")
	out := fs.String("o", "attu.yaml", "the configuration file to write; never overwritten")
	check := fs.Bool("check", true, "after writing, check the file and log in to both servers as attu serve -check does")
	argv, err := s.parse(fs, quickstartUsage)
	if err != nil {
		return err
	}
	if len(argv) != 1 || !strings.Contains(argv[0], "@") || strings.Contains(argv[0], "+") {
		return usageErr("give the mailbox's plain address, like: attu quickstart attu@example.org (attu quickstart -h for help)")
	}
	q := &quickstart{address: argv[0], user: *user, p: providerOf(argv[0]), tlsCA: *tlsCA,
		passwordEnv: *pwEnv, passwordFile: *pwFile, tokenCommand: strings.Fields(*token), authentication: *authMode, dkim: *dkim}
	if *name != "" {
		if q.p = providers[*name]; q.p == nil {
			return usageErr("-provider %q: want gmail, google, fastmail, outlook, microsoft365 or own", *name)
		}
	}
	if *authServ != "" {
		q.authServIDs = strings.Split(*authServ, ",")
	}
	q.imap = q.p.imap.with(*imapHost, *imapPort, *imapSec, "imap")
	q.smtp = q.p.smtp.with(*smtpHost, *smtpPort, *smtpSec, "smtp")
	in := bufio.NewReader(os.Stdin)
	if err := q.complete(in, s.stdout); err != nil {
		return err
	}
	path, err := filepath.Abs(*out)
	if err != nil {
		return usageErr("%v", err)
	}
	q.database = *db
	if q.database == "" {
		q.database = filepath.Join(filepath.Dir(path), "attu.db")
	}
	if err := writeNew(*out, []byte(q.config())); err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintf(s.stdout, "wrote %s (mode 0600) for %s at %s\n", *out, q.address, q.p.title)
	if !*check {
		fmt.Fprintf(s.stdout, "check it with: attu serve -config %s -check\n", *out)
		return nil
	}
	if err := checkServe(*out, s.stdout, s.stderr); err != nil {
		if e := (*exitError)(nil); !errors.As(err, &e) {
			fmt.Fprintln(s.stderr, err)
		}
		fmt.Fprintf(s.stderr, "correct %s (or the password's source), then: attu serve -config %s -check\n", *out, *out)
		return errFailed
	}
	fmt.Fprintf(s.stdout, "next: attu new -db %s -address %s -us ... -jp ..., then attu serve -config %s\n", q.database, q.address, *out)
	return nil
}

// with returns e with what the flags give in place of its values; a port
// not given follows the security when the provider names no port.
func (e endpoint) with(host string, port int, security, key string) endpoint {
	if host != "" {
		e.host = host
	}
	if security != "" && security != e.security {
		e.security = security
		if port == 0 { // the provider's port goes with its security
			e.port = map[string]map[string]int{"imap": {"tls": 993}, "smtp": {"tls": 465}}[key][security]
			if e.port == 0 {
				e.port = map[string]int{"imap": 143, "smtp": 587}[key]
			}
		}
	}
	if port != 0 {
		e.port = port
	}
	return e
}

// complete checks what the flags gave and asks on in for what they left
// out: the own server's host and where the secret comes from. A question
// left without an answer (the end of the input) names the flag to give.
func (q *quickstart) complete(in *bufio.Reader, out io.Writer) error {
	if q.p.name == "own" && q.imap.host == "" {
		fmt.Fprintf(out, "%s is not a domain of Gmail, Fastmail or Outlook.com (for Google Workspace or Microsoft 365 give -provider google or -provider microsoft365).\n", q.address)
		host, err := ask(in, out, "The IMAP server of your own mail server (host name): ", "")
		if err != nil || host == "" {
			return usageErr("give your own server's IMAP host with -imap-host, or the provider with -provider")
		}
		q.imap.host = host
	}
	if q.smtp.host == "" {
		q.smtp.host = q.imap.host
	}
	for _, e := range []struct {
		key string
		e   endpoint
	}{{"imap", q.imap}, {"smtp", q.smtp}} {
		if _, err := mail.ParseSecurity(e.e.security); err != nil || e.e.security == "" {
			return usageErr("-%s-security %q: want tls, starttls or plain", e.key, e.e.security)
		}
		if !validHost.MatchString(e.e.host) {
			return usageErr("-%s-host %q is not a host name", e.key, e.e.host)
		}
		if e.e.port < 1 || e.e.port > 65535 {
			return usageErr("-%s-port %d is not a port", e.key, e.e.port)
		}
	}
	if q.user == "" {
		q.user = q.address
	}
	if err := q.secret(in, out); err != nil {
		return err
	}
	return q.auth()
}

// validHost is what a host name or IP address may be in the file.
var validHost = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$`)

// secret settles where the password or the access token comes from,
// asking when no flag said.
func (q *quickstart) secret(in *bufio.Reader, out io.Writer) error {
	given := 0
	for _, v := range []bool{q.passwordEnv != "", q.passwordFile != "", len(q.tokenCommand) > 0} {
		if v {
			given++
		}
	}
	switch {
	case given > 1:
		return usageErr("give one of -password-env, -password-file and -token-command")
	case q.p.oauthOnly && (q.passwordEnv != "" || q.passwordFile != ""):
		return usageErr("%s: %s; give -token-command", q.p.title, q.p.login)
	case q.p.name == "fastmail" && len(q.tokenCommand) > 0:
		return usageErr("Fastmail signs programs in with an app password: give -password-env or -password-file")
	case given == 1:
		return nil
	case q.p.oauthOnly:
		answer, err := ask(in, out, fmt.Sprintf("%s signs in with OAuth. The command that prints an access token for %s [oama access %s]: ",
			q.p.title, q.user, q.user), "oama access "+q.user)
		if err != nil {
			return usageErr("give the command that prints an access token with -token-command")
		}
		q.tokenCommand = strings.Fields(answer)
		return nil
	}
	answer, err := ask(in, out, fmt.Sprintf("%s: %s. Where does attu read it: an environment variable (env NAME) or a file holding only it (file PATH) [env ATTU_PASSWORD]: ",
		q.p.title, q.p.login), "env ATTU_PASSWORD")
	if err != nil {
		return usageErr("give where the password comes from with -password-env or -password-file")
	}
	kind, v, _ := strings.Cut(answer, " ")
	switch v = strings.TrimSpace(v); {
	case kind == "env" && v != "":
		q.passwordEnv = v
	case kind == "file" && v != "":
		q.passwordFile = v
	default:
		return usageErr("%q: answer env NAME or file PATH, or give -password-env or -password-file", answer)
	}
	return nil
}

// auth settles the authentication section: the flags', or what works
// with the provider's stamp.
func (q *quickstart) auth() error {
	own := len(q.authServIDs) > 0 || q.dkim
	switch q.authentication {
	case "":
		q.authentication = "off"
		if own || len(q.p.authServIDs) > 0 || q.p.dkim {
			q.authentication = "required"
		}
	case "off", "required":
	default:
		return usageErr("-authentication %q: want required or off", q.authentication)
	}
	if !own {
		q.authServIDs, q.dkim = q.p.authServIDs, q.p.dkim
	}
	for _, id := range q.authServIDs {
		if !validHost.MatchString(strings.TrimPrefix(id, ".")) {
			return usageErr("-authserv-id %q is not a host name like mx.example.org", id)
		}
	}
	if q.authentication == "required" && len(q.authServIDs) == 0 && !q.dkim {
		return usageErr("-authentication required: give -authserv-id (your server's) or -dkim, since %s has no stamp attu knows", q.p.title)
	}
	return nil
}

// ask prints question and returns the line answered, def when it is
// empty; an error when the input ends first.
func ask(in *bufio.Reader, out io.Writer, question, def string) (string, error) {
	fmt.Fprint(out, question)
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(out)
		return "", err
	}
	if line = strings.TrimSpace(line); line == "" {
		return def, nil
	}
	return line, nil
}

// config is the configuration file, commented for its reader.
func (q *quickstart) config() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	comment(&b, fmt.Sprintf("attu serve -config FILE: the mail daemon's configuration, written by attu quickstart "+
		"for %s at %s. examples/attu-serve.yaml explains every key; attu serve -config FILE -check checks the file and logs in.", q.address, q.p.title))
	w("\naddress: %s\n", yamlValue(q.address))
	w("database: %s\n\n", yamlValue(q.database))
	comment(&b, fmt.Sprintf("%s: %s.", q.p.title, q.p.login))
	q.server(&b, "imap", q.imap)
	w("  processed: attu-done  # handled mail is moved here\n")
	w("  failed: attu-failed   # a mail whose handling failed 3 times is moved here\n\n")
	q.server(&b, "smtp", q.smtp)
	if q.p.perDay > 0 {
		w("  per_day: %d           # %s\n\n", q.p.perDay, q.p.quotaNote)
	} else {
		w("  per_day: 0             # your provider's daily sending quota (0: no cap)\n\n")
	}
	why := "With mode off, a mail is believed to come from its From address; the token in it decides what it may do. " +
		"To want the receiving server's proof as well, see the README's \"Sender authentication\"."
	if q.authentication == "required" {
		why = "A mail counts as a player's only with the receiving server's proof; any other gets a stranger's answer and changes nothing."
		if len(q.authServIDs) > 0 && q.p.name == "own" {
			why += " " + strings.Join(q.authServIDs, ", ") + " is your own server's authserv-id."
		}
	}
	comment(&b, strings.TrimSpace(why+" "+q.p.authNote))
	w("authentication:\n")
	w("  mode: %s\n", q.authentication)
	if len(q.authServIDs) > 0 {
		w("  trusted_authserv_ids: %s\n", yamlList(q.authServIDs))
	}
	w("  dkim: %t\n\n", q.dkim)
	w("log_level: info\n")
	return b.String()
}

// comment writes text as comment lines of at most 76 characters.
func comment(b *strings.Builder, text string) {
	line := "#"
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > 76 && line != "#" {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
}

// server writes the section of one server.
func (q *quickstart) server(b *strings.Builder, key string, e endpoint) {
	fmt.Fprintf(b, "%s:\n  host: %s\n  port: %d\n  security: %s\n", key, yamlValue(e.host), e.port, e.security)
	if q.tlsCA != "" {
		fmt.Fprintf(b, "  tls_ca: %s\n", yamlValue(q.tlsCA))
	}
	fmt.Fprintf(b, "  user: %s\n", yamlValue(q.user))
	switch {
	case len(q.tokenCommand) > 0:
		fmt.Fprintf(b, "  auth: xoauth2\n  token_command: %s\n", yamlList(q.tokenCommand))
	case q.passwordEnv != "":
		fmt.Fprintf(b, "  password_env: %s\n", yamlValue(q.passwordEnv))
	default:
		fmt.Fprintf(b, "  password_file: %s\n", yamlValue(q.passwordFile))
	}
}

// plainValue is a value YAML reads as the same string unquoted, in a
// list too.
var plainValue = regexp.MustCompile(`^[A-Za-z0-9/._][A-Za-z0-9/._@+=-]*$`)

// yamlValue writes s as a YAML string: plain when it reads back the same,
// else double-quoted (a JSON string is one).
func yamlValue(s string) string {
	if plainValue.MatchString(s) && !slices.Contains([]string{"true", "false", "null", "yes", "no", "on", "off", "~"}, strings.ToLower(s)) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

func yamlList(l []string) string {
	vs := make([]string, len(l))
	for i, s := range l {
		vs[i] = yamlValue(s)
	}
	return "[" + strings.Join(vs, ", ") + "]"
}

// writeNew writes a new file only its owner may read; an existing file
// is never overwritten.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists: give another file with -o, or move it away", path)
	}
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
