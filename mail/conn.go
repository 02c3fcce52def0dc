package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
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
	switch s {
	case StartTLS:
		return "starttls"
	case TLS:
		return "tls"
	case Plain:
		return "plain"
	}
	return fmt.Sprintf("Security(%d)", int(s))
}

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
// min doubled n times, capped at max.
func backoff(n int, min, max time.Duration) time.Duration {
	d := min
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return d
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
