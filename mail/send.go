package mail

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig configures a Sender. Zero durations take the defaults given
// with each field.
type SMTPConfig struct {
	Addr      string   // host:port of the submission server
	Security  Security // StartTLS unless set
	TLSConfig *tls.Config
	// Username and Password authenticate when Username is set, with the
	// strongest mechanism both sides offer; never over plaintext.
	Username string
	Password string
	OAuth    OAuth // instead of the password, when its Mech is set
	// From is the sender of every mail that names none: attu's address.
	// Its domain is the name given in EHLO.
	From    string
	Timeout time.Duration // bounds connecting and each SMTP command; 1 minute when zero
}

// Outgoing is one mail to send. The Message-ID is the caller's and stays
// the same on every attempt, so the receiving side can tell a resend from
// a new mail.
type Outgoing struct {
	From        string // SMTPConfig.From when empty
	To          []string
	Subject     string
	MessageID   string // required; angle brackets optional
	InReplyTo   string // the Message-ID answered, for threading
	References  []string
	Date        time.Time // now when zero
	Text        string    // the body, UTF-8 plain text
	Attachments []Attachment
}

// Attachment is a file attached to an Outgoing mail.
type Attachment struct {
	Name string // file name shown to the reader
	Type string // MIME type, e.g. "application/yaml"
	Data []byte
}

// Sender sends mail through one SMTP submission server, one connection per
// batch.
type Sender struct {
	cfg  SMTPConfig
	helo string
}

// NewSender returns a Sender; nothing connects before it sends. It fails when
// the configuration asks for plaintext to a server that is not on the
// loopback interface.
func NewSender(cfg SMTPConfig) (*Sender, error) {
	cfg.Timeout = positive(cfg.Timeout, time.Minute)
	helo := "localhost"
	if _, d, ok := splitAddress(cfg.From); ok {
		helo = d
	}
	if err := checkSecurity(cfg.Security, cfg.Addr); err != nil {
		return nil, err
	}
	return &Sender{cfg: cfg, helo: helo}, nil
}

// sendAll sends mails over one connection and returns one error per mail
// (all the same when the connection fails).
func (s *Sender) sendAll(ctx context.Context, ms []*Outgoing) []error {
	errs := make([]error, len(ms))
	msgs := make([]*gomail.Msg, len(ms))
	for i, m := range ms {
		var err error
		if msgs[i], err = s.build(m); err != nil {
			errs[i] = unsendable{err}
		}
	}
	if !slices.Contains(errs, nil) {
		return errs
	}
	c, err := s.client(true)
	if err == nil {
		err = c.DialWithContext(ctx)
	}
	if err != nil {
		err = unreachable{fmt.Errorf("mail: smtp: %w", err)}
		for i := range errs {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return errs
	}
	defer c.Close()
	for i, msg := range msgs {
		if errs[i] != nil {
			continue
		}
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		if err := c.Send(msg); err != nil {
			errs[i] = fmt.Errorf("mail: smtp: sending %s: %w", ms[i].MessageID, err)
		}
	}
	return errs
}

// unreachable is the error of every mail of a batch when no session with
// the server could be opened: connecting, TLS, EHLO or login failed.
type unreachable struct{ err error }

func (e unreachable) Error() string { return e.err.Error() }
func (e unreachable) Unwrap() error { return e.err }

// unsendable is the error of a mail that cannot be put in SMTP terms at
// all: no Message-ID, no recipient, an address that does not parse.
type unsendable struct{ err error }

func (e unsendable) Error() string { return e.err.Error() }
func (e unsendable) Unwrap() error { return e.err }

// temporary reports whether a failed attempt at a mail may succeed soon
// by itself: the server could not be reached or broke off, or it answered
// with a transient negative reply (4yz, RFC 5321 section 4.2.1). A mail
// refused with a permanent reply (5yz) or one that cannot be sent as it
// is fails again the same way, so it is not.
func temporary(err error) bool {
	if errors.As(err, new(unsendable)) {
		return false
	}
	var se *gomail.SendError
	if errors.As(err, &se) && se.ErrorCode() >= 500 {
		return false
	}
	return true
}

// serverDown reports whether a failed attempt never reached the point of
// offering a mail: no session with the server could be opened.
func serverDown(err error) bool { return errors.As(err, new(unreachable)) }

// probe opens a session with the server and closes it, offering no mail
// and without logging in (a token command is not run for it): whether
// the server answers at all.
func (s *Sender) probe(ctx context.Context) error {
	c, err := s.client(false)
	if err == nil {
		err = c.DialWithContext(ctx)
	}
	if err != nil {
		return unreachable{fmt.Errorf("mail: smtp: %w", err)}
	}
	return c.Close()
}

// client returns a go-mail client for the server, which logs in when
// login is set.
func (s *Sender) client(login bool) (*gomail.Client, error) {
	host, p, err := net.SplitHostPort(s.cfg.Addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(p)
	if err != nil {
		return nil, fmt.Errorf("port %q: %w", p, err)
	}
	opts := []gomail.Option{
		gomail.WithPort(port),
		gomail.WithTimeout(s.cfg.Timeout),
		gomail.WithHELO(s.helo),
		gomail.WithTLSConfig(tlsConfig(s.cfg.TLSConfig, s.cfg.Addr)),
	}
	switch s.cfg.Security {
	case TLS:
		opts = append(opts, gomail.WithSSL())
	case StartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case Plain:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if o := s.cfg.OAuth; login && o.Mech != "" {
		token, err := o.token("smtp", s.cfg.Timeout)
		if err != nil {
			return nil, err
		}
		opts = append(opts, gomail.WithSMTPAuthCustom(smtpOAuth{oauthClient{o.Mech, s.cfg.Username, token}}))
	} else if login && s.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	return gomail.NewClient(host, opts...)
}

// build turns an Outgoing into go-mail's message: UTF-8 text, the caller's
// Message-ID and threading headers, and no User-Agent or X-Mailer.
func (s *Sender) build(m *Outgoing) (*gomail.Msg, error) {
	id := bareID(m.MessageID)
	if id == "" {
		return nil, errors.New("mail: outgoing mail without a Message-ID")
	}
	if len(m.To) == 0 {
		return nil, fmt.Errorf("mail: outgoing mail %s has no recipient", id)
	}
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent(), gomail.WithCharset(gomail.CharsetUTF8))
	from := cmp.Or(m.From, s.cfg.From)
	if err := msg.From(from); err != nil {
		return nil, fmt.Errorf("mail: outgoing mail %s: from %q: %w", id, from, err)
	}
	if err := msg.To(m.To...); err != nil {
		return nil, fmt.Errorf("mail: outgoing mail %s: to: %w", id, err)
	}
	msg.Subject(ReplySubject(m.Subject))
	msg.SetMessageIDWithValue(id)
	if m.Date.IsZero() {
		msg.SetDate()
	} else {
		msg.SetDateWithValue(m.Date)
	}
	// RFC 5322 section 3.6.4: In-Reply-To names the parent, References
	// the thread up to it.
	inReplyTo, references := ReplyIDs(m.InReplyTo, m.References)
	if inReplyTo != "" {
		msg.SetGenHeader(gomail.HeaderInReplyTo, "<"+inReplyTo+">")
	}
	if len(references) > 0 {
		msg.SetGenHeader(gomail.HeaderReferences, "<"+strings.Join(references, "> <")+">")
	}
	// RFC 3834 section 5: every mail attu sends is automatic, so that
	// vacation responders and other robots do not answer it.
	auto := "auto-generated"
	if m.InReplyTo != "" {
		auto = "auto-replied"
	}
	msg.SetGenHeader(gomail.Header("Auto-Submitted"), auto)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	for _, a := range m.Attachments {
		typ := gomail.ContentType(cmp.Or(a.Type, "application/octet-stream"))
		opts := []gomail.FileOption{gomail.WithFileContentType(typ)}
		if typ == "text/html" && sevenBit(a.Data) {
			// A page attu writes is ASCII in short lines (its packed part in
			// lines of 76): sent as it is, not a third larger in base64.
			// go-mail writes a file unencoded only under the label 8bit,
			// which 7-bit lines satisfy (RFC 2045 section 2.8); it travels
			// with CRLF line ends, as text does (section 2.10), which a
			// browser reads alike.
			opts = append(opts, gomail.WithFileEncoding(gomail.NoEncoding))
		}
		if err := msg.AttachReader(a.Name, bytes.NewReader(a.Data), opts...); err != nil {
			return nil, fmt.Errorf("mail: outgoing mail %s: attaching %s: %w", id, a.Name, err)
		}
	}
	return msg, nil
}

// sevenBit reports whether b is 7-bit text in lines of at most 998 octets
// (RFC 2045 section 2.7): no NUL, no octet above 127, CR only before LF.
func sevenBit(b []byte) bool {
	line := 0
	for i, c := range b {
		switch {
		case c == 0 || c > 127:
			return false
		case c == '\r' && (i+1 == len(b) || b[i+1] != '\n'):
			return false
		case c == '\n':
			line = 0
			continue
		}
		if c != '\r' {
			line++
		}
		if line > 998 {
			return false
		}
	}
	return true
}
