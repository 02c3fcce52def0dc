// Package loopback is a small mail system on 127.0.0.1 for attu's demo and
// for tests: an IMAP server keeping every mailbox in memory (go-imap's
// imapmemserver) and an SMTP server that delivers into those mailboxes,
// adding Return-Path and Delivered-To as a real delivery agent does.
//
// It is not a mail server for real use: plaintext unless a test gives it
// a certificate (clients must be configured for plaintext, which attu
// allows only to a loopback address), SMTP authentication offered but not
// required (unless Options.OAuth), no relaying, and everything is lost
// when it stops.
//
// # Basics
//
//	sys, err := loopback.Start(nil)
//	defer sys.Close()
//	sys.AddUser("attu", "secret")   // attu@attu.test, and attu+anything@attu.test
//	sys.AddUser("us", "secret")
//	// IMAP on sys.IMAPAddr(), SMTP on sys.SMTPAddr(), both plaintext.
//
// Tests can also cut every IMAP connection (DropConnections), stop and
// restart SMTP on the same address (StopSMTP, StartSMTP), and wait for
// deliveries (WaitDeliveries).
package loopback

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options configure a System; the zero value is fine.
type Options struct {
	// Domain of every mailbox; "attu.test" when empty (RFC 2606 reserves
	// .test, so no mail can leak to a real domain).
	Domain string
	// IMAPCaps are the capabilities the IMAP server announces; IMAP4rev2
	// (which includes IDLE, MOVE and UIDPLUS) when nil. IMAP4rev1 alone
	// gives an older server: no MOVE, no UIDPLUS.
	IMAPCaps imap.CapSet
	// TLSConfig, when set, makes both servers offer STARTTLS with it (for
	// tests of attu's TLS settings); plaintext stays allowed.
	TLSConfig       *tls.Config
	MaxMessageBytes int64        // caps a mail accepted by SMTP; 32 MiB when zero
	Logger          *slog.Logger // receives the servers' errors at debug level; none when nil
	// OAuth ("OAUTHBEARER" or "XOAUTH2"), when set, is the only way both
	// servers let a user in, with Token as every user's access token;
	// SMTP then takes no mail before it.
	OAuth, Token string
}

// Delivery is one mail as the SMTP server delivered it to one mailbox.
type Delivery struct {
	From string // the envelope sender (MAIL FROM), "" for a bounce
	To   string // the recipient as given (RCPT TO), plus-address included
	User string // the mailbox it went to
	Data []byte // the mail as stored, Return-Path and Delivered-To added
	Time time.Time
}

// System is a running loopback mail system.
type System struct {
	domain   string
	maxBytes int64
	tls      *tls.Config
	log      *slog.Logger
	oauth    [2]string // Options.OAuth and Token

	mem      *imapmemserver.Server
	imap     *imapserver.Server
	imapLn   *listener
	smtpAddr string

	mu         sync.Mutex
	smtp       *smtp.Server
	smtpLn     net.Listener
	users      map[string]*imapmemserver.User
	deliveries []Delivery
	delivered  chan struct{} // closed and replaced at each delivery
}

// Start starts the IMAP and SMTP servers on free ports of 127.0.0.1.
func Start(o *Options) (*System, error) {
	var opts Options
	if o != nil {
		opts = *o
	}
	s := &System{
		domain:    cmp.Or(opts.Domain, "attu.test"),
		maxBytes:  opts.MaxMessageBytes,
		tls:       opts.TLSConfig,
		log:       cmp.Or(opts.Logger, slog.New(slog.DiscardHandler)),
		oauth:     [2]string{opts.OAuth, opts.Token},
		mem:       imapmemserver.New(),
		users:     map[string]*imapmemserver.User{},
		delivered: make(chan struct{}),
	}
	if s.maxBytes <= 0 {
		s.maxBytes = 32 << 20
	}
	caps := opts.IMAPCaps
	if caps == nil {
		caps = imap.CapSet{imap.CapIMAP4rev2: {}}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("loopback: imap: %w", err)
	}
	s.imapLn = &listener{Listener: ln, conns: map[*conn]struct{}{}}
	s.imap = imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			p := prompt{s.mem.NewSession().(imapserver.SessionIMAP4rev2)}
			if opts.OAuth != "" {
				return &oauthSession{p, s}, nil, nil
			}
			return p, nil, nil
		},
		Caps:         caps,
		Logger:       s.debugLog(),
		TLSConfig:    s.tls,
		InsecureAuth: true,
	})
	// The IMAP server accepts connections until Close, beside the caller.
	go s.imap.Serve(s.imapLn)

	sl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.imap.Close()
		return nil, fmt.Errorf("loopback: smtp: %w", err)
	}
	s.smtpAddr = sl.Addr().String()
	s.serveSMTP(sl)
	return s, nil
}

// prompt is a session of the in-memory server whose IDLE announces at
// once what happened before it began. go-imap's SessionTracker.Idle (at
// v2.0.0-beta.8) only wakes for updates queued after it started: a mail
// delivered between the client's last command (UID SEARCH, UID MOVE) and
// its IDLE would wait in the queue, unannounced, until some later update
// or the client's next IDLE restart. Real servers (Dovecot) look at the
// mailbox when IDLE begins.
type prompt struct{ imapserver.SessionIMAP4rev2 }

// promptFirst and promptCheck are when IDLE looks again at the queue:
// the tracker starts listening a moment after the first look, and an
// update queued in between must not wait long. The first look again comes
// soon, when the tracker listens already; later ones only guard against a
// slow start.
const (
	promptFirst = 5 * time.Millisecond
	promptCheck = 250 * time.Millisecond
)

// Idle sends what is queued, then idles, looking again at the queue after
// promptFirst and then every promptCheck; every write to w happens on
// this goroutine.
func (p prompt) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for wait := promptFirst; ; wait = promptCheck {
		if err := p.Poll(w, true); err != nil {
			return err
		}
		// The inner IDLE ends at stop or after wait, while this
		// goroutine blocks in it; it ends by itself only on an error.
		inner, done := make(chan struct{}), make(chan struct{})
		go func() {
			select {
			case <-stop:
			case <-done:
			case <-time.After(wait):
			}
			close(inner)
		}()
		err := p.SessionIMAP4rev2.Idle(w, inner)
		close(done)
		if err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

// oauthSession is a session that lets a user in only with Options.OAuth.
type oauthSession struct {
	prompt
	sys *System
}

var imapRefused = &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "invalid credentials"}

func (o *oauthSession) Login(string, string) error       { return imapRefused }
func (o *oauthSession) AuthenticateMechanisms() []string { return []string{o.sys.oauth[0]} }
func (o *oauthSession) Authenticate(mech string) (sasl.Server, error) {
	return &oauthServer{o.sys, mech, imapRefused, func(u *imapmemserver.User) error {
		o.SessionIMAP4rev2 = imapmemserver.NewUserSession(u)
		return nil
	}, false}, nil
}

// oauthServer is a SASL server of Options.OAuth. A wrong token gets the
// error challenge both mechanisms send, then refused after the client's
// answer; a right one calls login with the user.
type oauthServer struct {
	sys     *System
	mech    string
	refused error
	login   func(*imapmemserver.User) error
	failed  bool
}

func (a *oauthServer) Next(resp []byte) ([]byte, bool, error) {
	if a.failed {
		return nil, true, a.refused
	} else if resp == nil {
		return nil, false, nil
	}
	m := append(oauthResponse.FindSubmatch(resp), nil, nil, nil) // user and token, or none
	u := a.sys.User(string(m[1]))
	if u == nil || a.mech != a.sys.oauth[0] || string(m[2]) != a.sys.oauth[1] {
		a.failed = true
		return []byte(`{"status":"invalid_token"}`), false, nil
	}
	return nil, true, a.login(u)
}

// oauthResponse is an initial response of OAUTHBEARER (RFC 7628 section
// 3.1: "n,a=USER,^Aauth=Bearer TOKEN^A^A") or XOAUTH2 ("user=USER^A…").
var oauthResponse = regexp.MustCompile(`^(?:n,a=|user=)([^,\x01]+),?\x01auth=Bearer ([^\x01]+)\x01\x01$`)

// Domain returns the domain of the system's mailboxes.
func (s *System) Domain() string { return s.domain }

// IMAPAddr returns the host:port of the IMAP server.
func (s *System) IMAPAddr() string { return s.imapLn.Addr().String() }

// SMTPAddr returns the host:port of the SMTP server.
func (s *System) SMTPAddr() string { return s.smtpAddr }

// AddUser creates the mailbox name@domain with an empty INBOX and returns
// its address. IMAP logs in with the bare name.
func (s *System) AddUser(name, password string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[name]; ok {
		return "", fmt.Errorf("loopback: user %q exists", name)
	}
	u := imapmemserver.NewUser(name, password)
	if err := u.Create("INBOX", nil); err != nil {
		return "", err
	}
	s.users[name] = u
	s.mem.AddUser(u)
	return name + "@" + s.domain, nil
}

// User returns the in-memory store of a user's mailboxes (for tests that
// delete or rename mailboxes behind a client's back), nil if unknown.
func (s *System) User(name string) *imapmemserver.User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.users[name]
}

// Deliver stores a mail in the INBOX of the mailbox rcpt names, as the
// SMTP server does: a plus-address goes to its base mailbox, and
// Return-Path and Delivered-To are added on top.
func (s *System) Deliver(from, rcpt string, data []byte) error {
	name, err := s.mailbox(rcpt)
	if err != nil {
		return err
	}
	// go-imap's memory server serves nothing of a mail whose header it
	// cannot parse, where Dovecot serves the bytes it stored: CRs before a
	// CRLF (a CRLF converted once too often, which the SMTP client's dot
	// encoding turns into three CRs) are stored as one CRLF, so that such
	// a mail reaches its reader here too.
	data = crsBeforeLF.ReplaceAll(data, []byte("\r\n"))
	stored := append(fmt.Appendf(nil, "Return-Path: <%s>\r\nDelivered-To: %s\r\n", from, rcpt), data...)
	if _, err := s.User(name).Append("INBOX", bytes.NewReader(stored), &imap.AppendOptions{Time: time.Now()}); err != nil {
		return fmt.Errorf("loopback: delivering to %s: %w", rcpt, err)
	}
	s.mu.Lock()
	s.deliveries = append(s.deliveries, Delivery{From: from, To: rcpt, User: name, Data: stored, Time: time.Now()})
	close(s.delivered)
	s.delivered = make(chan struct{})
	s.mu.Unlock()
	return nil
}

var crsBeforeLF = regexp.MustCompile(`\r\r+\n`)

// mailbox returns the user a recipient address is delivered to.
func (s *System) mailbox(rcpt string) (string, error) {
	i := strings.LastIndexByte(rcpt, '@')
	if i <= 0 || !asciiEqualFold(rcpt[i+1:], s.domain) {
		return "", &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 2},
			Message: "no relaying: only @" + s.domain + " is delivered here"}
	}
	name, _, _ := strings.Cut(rcpt[:i], "+")
	if s.User(name) == nil {
		return "", &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
			Message: "no such mailbox: " + rcpt}
	}
	return name, nil
}

// asciiEqualFold tells whether a and b are equal up to the case of ASCII
// letters, as domains compare; strings.EqualFold would take "attu.teſt"
// (U+017F) for "attu.test".
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Deliveries returns every delivery so far, oldest first.
func (s *System) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.deliveries...)
}

// WaitDeliveries waits until at least n deliveries have been made and
// returns them all, or fails when ctx ends first.
func (s *System) WaitDeliveries(ctx context.Context, n int) ([]Delivery, error) {
	for {
		s.mu.Lock()
		ch, have := s.delivered, len(s.deliveries)
		s.mu.Unlock()
		if have >= n {
			return s.Deliveries(), nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s.Deliveries(), fmt.Errorf("loopback: waiting for %d deliveries: %w", n, ctx.Err())
		}
	}
}

// DropConnections closes every open IMAP connection at once, as a server
// restart or a network failure would.
func (s *System) DropConnections() { s.imapLn.closeAll() }

// StopSMTP stops the SMTP server: connections are refused until StartSMTP.
func (s *System) StopSMTP() error {
	s.mu.Lock()
	srv, ln := s.smtp, s.smtpLn
	s.smtp, s.smtpLn = nil, nil
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	// The listener is closed here too: Server.Close misses one that Serve
	// has not registered yet.
	ln.Close()
	if err := srv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}

// StartSMTP starts the SMTP server again on its old address.
func (s *System) StartSMTP() error {
	s.mu.Lock()
	running := s.smtp != nil
	s.mu.Unlock()
	if running {
		return nil
	}
	ln, err := net.Listen("tcp", s.smtpAddr)
	if err != nil {
		return fmt.Errorf("loopback: smtp: %w", err)
	}
	s.serveSMTP(ln)
	return nil
}

func (s *System) serveSMTP(ln net.Listener) {
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{sys: s}, nil
	}))
	srv.Domain = "localhost"
	srv.MaxMessageBytes = s.maxBytes
	srv.MaxRecipients = 50
	srv.ReadTimeout = time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = s.debugLog()
	srv.TLSConfig = s.tls
	srv.AllowInsecureAuth = s.oauth[0] != "" // for OAuth tests on plaintext, as IMAP's InsecureAuth
	s.mu.Lock()
	s.smtp, s.smtpLn = srv, ln
	s.mu.Unlock()
	// The SMTP server accepts connections until StopSMTP, beside the
	// caller.
	go srv.Serve(ln)
}

// Close stops both servers.
func (s *System) Close() error {
	err := s.StopSMTP()
	s.imapLn.closeAll()
	if ierr := s.imap.Close(); ierr != nil && err == nil && !errors.Is(ierr, net.ErrClosed) {
		err = ierr
	}
	return err
}

// session is one SMTP transaction at a time on one connection.
type session struct {
	sys    *System
	from   string
	rcpt   []string
	authed bool
}

func (x *session) Reset()        { x.from, x.rcpt = "", nil }
func (x *session) Logout() error { return nil }

// AuthMechanisms offers PLAIN (RFC 4616), so that clients can check their
// credentials; sending does not require it (Options.OAuth: see there).
func (x *session) AuthMechanisms() []string { return []string{cmp.Or(x.sys.oauth[0], sasl.Plain)} }

// Auth accepts a user's IMAP password, or the OAuth token.
func (x *session) Auth(mech string) (sasl.Server, error) {
	if x.sys.oauth[0] != "" {
		return &oauthServer{x.sys, mech, smtp.ErrAuthFailed, func(*imapmemserver.User) error { x.authed = true; return nil }, false}, nil
	}
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnsupported
	}
	return sasl.NewPlainServer(func(identity, username, password string) error {
		u := x.sys.User(username)
		if u == nil || u.Login(username, password) != nil || (identity != "" && identity != username) {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.sys.oauth[0] != "" && !x.authed {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if _, err := x.sys.mailbox(to); err != nil {
		return err
	}
	x.rcpt = append(x.rcpt, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	for _, to := range x.rcpt {
		if err := x.sys.Deliver(x.from, to, data); err != nil {
			return err
		}
	}
	return nil
}

// listener remembers its open connections so that they can all be cut.
type listener struct {
	net.Listener
	mu    sync.Mutex
	conns map[*conn]struct{}
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &conn{Conn: c, l: l}
	l.mu.Lock()
	l.conns[tc] = struct{}{}
	l.mu.Unlock()
	return tc, nil
}

func (l *listener) closeAll() {
	l.mu.Lock()
	conns := l.conns
	l.conns = map[*conn]struct{}{}
	l.mu.Unlock()
	for c := range conns {
		c.Conn.Close()
	}
}

type conn struct {
	net.Conn
	l *listener
}

func (c *conn) Close() error {
	c.l.mu.Lock()
	delete(c.l.conns, c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}

// debugLog hands the servers' error lines to slog at debug level: a
// client hanging up is routine here.
func (s *System) debugLog() *log.Logger { return slog.NewLogLogger(s.log.Handler(), slog.LevelDebug) }
