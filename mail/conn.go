package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/textproto"
	"strings"
	"sync/atomic"
	"time"
)

// Security says how a connection to a mail server is protected.
type Security int

const (
	// StartTLS connects in plaintext and upgrades with STARTTLS (RFC 3207,
	// RFC 9051 section 6.2.1) before anything else; a server that does not
	// offer it is refused. The zero value, so that forgetting to choose is
	// safe.
	StartTLS Security = iota
	// TLS speaks TLS from the first byte (RFC 8314): IMAPS on 993,
	// submissions on 465.
	TLS
	// Plain has no protection at all. It is allowed only to a server on
	// the loopback interface: the demo and the tests.
	Plain
)

func (s Security) String() string {
	if s >= 0 && int(s) < len(securityNames) {
		return securityNames[s]
	}
	return fmt.Sprintf("Security(%d)", int(s))
}

var securityNames = [...]string{StartTLS: "starttls", TLS: "tls", Plain: "plain"}

// ParseSecurity reads a Security as a config file writes it: "starttls",
// "tls" or "plain".
func ParseSecurity(s string) (Security, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "starttls", "":
		return StartTLS, nil
	case "tls", "ssl":
		return TLS, nil
	case "plain", "none":
		return Plain, nil
	}
	return 0, fmt.Errorf("mail: security %q: want starttls, tls or plain", s)
}

// checkSecurity refuses plaintext to anything but a loopback address, so
// that a password never crosses a network in clear.
func checkSecurity(sec Security, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mail: address %q: %w", addr, err)
	}
	switch sec {
	case StartTLS, TLS:
		return nil
	case Plain:
		if host == "localhost" {
			return nil
		}
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			return nil
		}
		return fmt.Errorf("%w: %s", ErrInsecure, addr)
	}
	return fmt.Errorf("mail: unknown security %d", int(sec))
}

// tlsConfig returns the TLS configuration for a server: the caller's, or
// the system's roots, with the server name set to the host dialled.
func tlsConfig(c *tls.Config, addr string) *tls.Config {
	if c == nil {
		c = &tls.Config{MinVersion: tls.VersionTLS12}
	} else {
		c = c.Clone()
	}
	if c.ServerName == "" {
		c.ServerName, _, _ = net.SplitHostPort(addr)
	}
	return c
}

// guard runs f and closes the connection if f takes longer than timeout,
// so that a server that stops answering cannot hang the caller: the
// blocked call returns with the connection's error. It returns an error
// wrapping ErrTimeout when that happened.
func guard(timeout time.Duration, conn io.Closer, f func() error) error {
	var fired atomic.Bool
	t := time.AfterFunc(timeout, func() {
		fired.Store(true)
		conn.Close()
	})
	err := f()
	t.Stop()
	if fired.Load() {
		return fmt.Errorf("%w after %v: %v", ErrTimeout, timeout, err)
	}
	return err
}

// backoff returns the wait before attempt n (0 for the first retry):
// lo doubled n times, capped at hi.
func backoff(n int, lo, hi time.Duration) time.Duration {
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}

// jitter spreads a wait over [d/2, d], so that many clients cut off at
// once do not all come back at the same moment.
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

// sleep waits d or until ctx ends; it reports whether the whole wait
// passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// fixWait is the wait before trying again after a failure that will not
// pass by itself (a FixError): a provider may lock an account that keeps
// offering a wrong password, and a certificate or a host name does not
// change by itself within seconds.
const fixWait = 5 * time.Minute

// FixError is a failure to reach or log in to a mail server that only the
// operator can cure: the login was refused, the server's certificate is
// not trusted, its host name is unknown. Fix says what to change, in the
// keys of attu serve's configuration.
type FixError struct {
	Fix string
	Err error
}

func (e *FixError) Error() string { return e.Err.Error() + ": " + e.Fix }
func (e *FixError) Unwrap() error { return e.Err }

// needsFix returns err as a *FixError when it is a failure that will not
// pass by itself, and unchanged otherwise. server is "imap" or "smtp", the
// configuration's section; user is the login, o how it signs in.
func needsFix(server, user string, o OAuth, err error) error {
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var name x509.HostnameError
	var invalid x509.CertificateInvalidError
	var reply *textproto.Error
	var fix string
	switch {
	case err == nil:
		return nil
	case errors.As(err, new(*FixError)):
		return err
	case errors.As(err, &dns) && dns.IsNotFound:
		fix = fmt.Sprintf("the host name %s is unknown: correct %s.host", dns.Name, server)
	case errors.As(err, &unknownCA):
		fix = fmt.Sprintf("the server's certificate is not signed by an authority this machine trusts: "+
			"give the certificate of the one that signed it (a PEM file) as %s.tls_ca", server)
	case errors.As(err, &name):
		fix = fmt.Sprintf("the server's certificate is not for %s: set %s.host to a name the certificate names", name.Host, server)
	case errors.As(err, &invalid):
		fix = fmt.Sprintf("the server's certificate is not valid (%v): have it renewed", invalid)
	case errors.As(err, &reply) && (reply.Code == 535 || reply.Code == 534 || reply.Code == 530):
		// RFC 4954 section 6: 535 credentials invalid, 534 mechanism too
		// weak, 530 authentication required.
		fix = loginFix(server, user, o)
	default:
		return err
	}
	return &FixError{Fix: fix, Err: err}
}

// loginFix is what to do when the server refused the login.
func loginFix(server, user string, o OAuth) string {
	switch {
	case o.Mech != "":
		return fmt.Sprintf("the server refused the access token for %s: make %s.token_command print a fresh token of that account "+
			"with access to %s, and check %s.auth (oauthbearer or xoauth2)", user, server, strings.ToUpper(server), server)
	case user == "":
		return fmt.Sprintf("the server wants a login: set %s.user and its password", server)
	}
	return fmt.Sprintf("the server refused the login of %s: check %s.user and the password in %s.password_env or %s.password_file "+
		"(an app password where the provider asks for one)", user, server, server, server)
}

// CheckSMTP connects to the server of cfg, logs in when cfg has a user,
// and quits, as attu serve -check does; a failure only the operator can
// cure is a *FixError.
func CheckSMTP(ctx context.Context, cfg SMTPConfig) error {
	s, err := NewSender(cfg)
	if err != nil {
		return err
	}
	c, err := s.client(true)
	if err == nil {
		err = c.DialWithContext(ctx)
	}
	if err != nil {
		return needsFix("smtp", cfg.Username, cfg.OAuth, fmt.Errorf("mail: smtp: %w", err))
	}
	return c.Close()
}
