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
// for providers that allow nothing else.
type OAuth struct {
	// Mech is the SASL mechanism: "OAUTHBEARER" (RFC 7628) or "XOAUTH2"
	// (Google's and Microsoft's older one); empty signs in with a password.
	Mech string
	// Command prints a fresh access token. It runs before each login,
	// since tokens expire within about an hour, and its token is kept
	// nowhere.
	Command []string
}

// token runs the command and returns what it printed, trimmed. A failure
// is a FixError whose error shows what the command wrote to stderr.
func (o OAuth) token(server string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, o.Command[0], o.Command[1:]...).Output()
	token := string(bytes.TrimSpace(out))
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		err = fmt.Errorf("%w: %s", err, bytes.TrimSpace(ee.Stderr))
	} else if err == nil && token == "" {
		err = errors.New("it printed nothing")
	}
	if err != nil {
		return "", &FixError{Err: fmt.Errorf("token command %s: %w", o.Command[0], err),
			Fix: fmt.Sprintf("%s.token_command failed: make it print a fresh access token", server)}
	}
	return token, nil
}

// oauthClient is a SASL client (go-sasl's interface) of OAUTHBEARER or
// XOAUTH2. To a server's error challenge it gives the dummy answer both
// mechanisms expect, so that the server's refusal is what is reported.
type oauthClient struct{ mech, user, token string }

func (c oauthClient) Start() (string, []byte, error) {
	ir := "user=" + c.user + "\x01auth=Bearer " + c.token + "\x01\x01"
	if c.mech == "OAUTHBEARER" {
		ir = "n,a=" + c.user + ",\x01auth=Bearer " + c.token + "\x01\x01"
	}
	return c.mech, []byte(ir), nil
}

func (c oauthClient) Next([]byte) ([]byte, error) {
	if c.mech == "OAUTHBEARER" {
		return []byte{1}, nil // RFC 7628 section 3.2.3
	}
	return []byte{}, nil
}

// smtpOAuth is an oauthClient for go-mail.
type smtpOAuth struct{ c oauthClient }

func (a smtpOAuth) Start(*smtp.ServerInfo) (string, []byte, error) { return a.c.Start() }

func (a smtpOAuth) Next(challenge []byte, more bool) ([]byte, error) {
	if !more {
		return nil, nil
	}
	return a.c.Next(challenge)
}
