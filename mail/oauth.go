package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/wneessen/go-mail/smtp"
)

// OAuth signs in with an OAuth 2.0 access token instead of a password,
// for providers that take no password.
type OAuth struct {
	Mech    string   // "OAUTHBEARER" (RFC 7628) or "XOAUTH2"; empty: a password
	Command []string // prints a fresh access token; run before each login, since tokens expire within the hour
}

// token runs the command and returns what it printed, trimmed; a failure
// is a FixError with what the command wrote to stderr.
func (o OAuth) token(server string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...)
	cmd.WaitDelay = time.Second // a child it left behind holding stdout does not hang the login
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	} else if err == nil && len(bytes.TrimSpace(out)) == 0 {
		err = errors.New("it printed nothing")
	}
	if err != nil {
		return "", &FixError{Err: fmt.Errorf("token command %s: %w", o.Command[0], err),
			Fix: server + ".token_command failed: make it print a fresh access token"}
	}
	return string(bytes.TrimSpace(out)), nil
}

// oauthClient is a SASL client of OAUTHBEARER or XOAUTH2 for go-imap (and,
// as smtpOAuth, for go-mail). To a server's error challenge it gives the
// dummy answer each mechanism expects, so that the server's refusal is
// what is reported.
type oauthClient struct{ mech, user, token string }

func (c oauthClient) Start() (string, []byte, error) {
	authz := "user=" + c.user
	if c.mech == "OAUTHBEARER" {
		authz = "n,a=" + c.user + ","
	}
	return c.mech, []byte(authz + "\x01auth=Bearer " + c.token + "\x01\x01"), nil
}

func (c oauthClient) Next([]byte) ([]byte, error) {
	if c.mech == "OAUTHBEARER" {
		return []byte{1}, nil // RFC 7628 section 3.2.3
	}
	return []byte{}, nil
}

type smtpOAuth struct{ oauthClient }

func (a smtpOAuth) Start(*smtp.ServerInfo) (string, []byte, error) { return a.oauthClient.Start() }

func (a smtpOAuth) Next(challenge []byte, more bool) ([]byte, error) {
	if !more {
		return nil, nil
	}
	return a.oauthClient.Next(challenge)
}
