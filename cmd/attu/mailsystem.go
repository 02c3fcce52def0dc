package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
)

// mailSystem is the mail servers a game by mail runs through: the demo's
// and the end-to-end tests' own loopback servers, or real servers
// (Dovecot and Postfix started by scripts/mailservers.sh) described by
// the environment file that script writes.
type mailSystem interface {
	// Account returns the mailbox of user (attu, alice, bob, carol),
	// creating it when the system can.
	Account(user string) (mailAccount, error)
	// Inbound is the host:port of the SMTP server that takes mail from
	// elsewhere for the system's mailboxes, in plaintext and without
	// authentication, as an MX does: the players send there.
	Inbound() string
	// Describe says in one line which servers these are.
	Describe() string
	// Mails returns every mail delivered so far, in delivery order, with
	// its User and Data.
	Mails() ([]loopback.Delivery, error)
	Close() error
}

// mailAccount is one mailbox: its address, how to read it and how to
// send as it.
type mailAccount struct {
	Address string
	IMAP    mail.InboxConfig // Addr, Security, TLSConfig, Username, Password
	SMTP    mail.SMTPConfig  // the submission server, as this user
}

// loopbackMail is the in-process system of mail/loopback: plaintext on
// 127.0.0.1, mailboxes made on demand with random passwords.
type loopbackMail struct{ sys *loopback.System }

func startLoopbackMail() (*loopbackMail, error) {
	sys, err := loopback.Start(nil)
	if err != nil {
		return nil, err
	}
	return &loopbackMail{sys: sys}, nil
}

func (l *loopbackMail) Account(user string) (mailAccount, error) {
	pw := randomPassword()
	addr, err := l.sys.AddUser(user, pw)
	if err != nil {
		return mailAccount{}, err
	}
	return mailAccount{
		Address: addr,
		IMAP:    mail.InboxConfig{Addr: l.sys.IMAPAddr(), Security: mail.Plain, Username: user, Password: pw},
		SMTP:    mail.SMTPConfig{Addr: l.sys.SMTPAddr(), Security: mail.Plain},
	}, nil
}

func (l *loopbackMail) Inbound() string { return l.sys.SMTPAddr() }

func (l *loopbackMail) Describe() string {
	return fmt.Sprintf("IMAP %s and SMTP %s (in-process, plaintext on loopback)", l.sys.IMAPAddr(), l.sys.SMTPAddr())
}

func (l *loopbackMail) Mails() ([]loopback.Delivery, error) { return l.sys.Deliveries(), nil }

func (l *loopbackMail) Close() error { return l.sys.Close() }

// realMail is Dovecot and Postfix as scripts/mailservers.sh runs them:
// IMAP with STARTTLS, submission with STARTTLS and a password, an
// inbound SMTP listener, a certificate of the script's own making.
type realMail struct {
	env       map[string]string
	domain    string
	imap      string
	inbound   string
	submit    string
	maildir   string
	tlsConfig *tls.Config
}

// mailServersEnv names the environment variable that points the tests at
// the file scripts/mailservers.sh start writes.
const mailServersEnv = "ATTU_MAILSERVERS"

// openRealMail reads the environment file of scripts/mailservers.sh and
// empties every mailbox it lists, so that a game starts from clean
// mailboxes whatever an earlier run left there.
func openRealMail(envFile string) (*realMail, error) {
	env, err := readEnvFile(envFile)
	if err != nil {
		return nil, err
	}
	r := &realMail{env: env, domain: env["ATTU_MS_DOMAIN"], imap: env["ATTU_MS_IMAP"], inbound: env["ATTU_MS_SMTP"],
		submit: env["ATTU_MS_SUBMISSION"], maildir: env["ATTU_MS_MAIL"]}
	if r.domain == "" || r.imap == "" || r.inbound == "" || r.submit == "" || env["ATTU_MS_CA"] == "" {
		return nil, fmt.Errorf("%s: not an environment file of scripts/mailservers.sh", envFile)
	}
	pem, err := os.ReadFile(env["ATTU_MS_CA"])
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no certificate", env["ATTU_MS_CA"])
	}
	r.tlsConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	for _, u := range strings.Fields(env["ATTU_MS_USERS"]) {
		if err := r.empty(u); err != nil {
			return nil, fmt.Errorf("emptying the mailbox of %s: %w", u, err)
		}
	}
	return r, nil
}

// readEnvFile reads KEY=VALUE lines, # comments and optional double
// quotes, as the shell writes and reads them.
func readEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%s: %q is not KEY=VALUE", path, line)
		}
		env[k] = strings.Trim(v, `"`)
	}
	return env, sc.Err()
}

func (r *realMail) Account(user string) (mailAccount, error) {
	pw, ok := r.env["ATTU_MS_PASSWORD_"+user]
	if !ok {
		return mailAccount{}, fmt.Errorf("the mail servers have no user %q (users: %s)", user, r.env["ATTU_MS_USERS"])
	}
	return mailAccount{
		Address: user + "@" + r.domain,
		IMAP:    mail.InboxConfig{Addr: r.imap, Security: mail.StartTLS, TLSConfig: r.tlsConfig, Username: user, Password: pw},
		SMTP: mail.SMTPConfig{Addr: r.submit, Security: mail.StartTLS, TLSConfig: r.tlsConfig,
			Username: user, Password: pw},
	}, nil
}

func (r *realMail) Inbound() string { return r.inbound }

func (r *realMail) Describe() string {
	return fmt.Sprintf("Dovecot IMAP %s (STARTTLS), Postfix submission %s (STARTTLS, password) and SMTP %s",
		r.imap, r.submit, r.inbound)
}

// Mails reads every mail from the servers' maildirs, in the order
// Dovecot delivered them (its file names begin with the time).
func (r *realMail) Mails() ([]loopback.Delivery, error) {
	var ds []loopback.Delivery
	for _, u := range strings.Fields(r.env["ATTU_MS_USERS"]) {
		root := filepath.Join(r.maildir, u, "Maildir")
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d := filepath.Base(filepath.Dir(p)); e.Type().IsRegular() && (d == "cur" || d == "new") {
				info, err := e.Info()
				if err != nil {
					return err
				}
				data, err := os.ReadFile(p)
				ds = append(ds, loopback.Delivery{User: u, Data: data, Time: info.ModTime()})
				return err
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(ds, func(a, b loopback.Delivery) int { return a.Time.Compare(b.Time) })
	return ds, nil
}

func (r *realMail) Close() error { return nil }

// empty deletes every mail and folder of a user's mailbox over IMAP.
func (r *realMail) empty(user string) error {
	c, err := imapclient.DialStartTLS(r.imap, &imapclient.Options{TLSConfig: r.tlsConfig})
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Login(user, r.env["ATTU_MS_PASSWORD_"+user]).Wait(); err != nil {
		return err
	}
	boxes, err := c.List("", "*", nil).Collect()
	if err != nil {
		return err
	}
	// Children before their parents: LIST gives parents first.
	for i := len(boxes) - 1; i >= 0; i-- {
		if b := boxes[i]; !strings.EqualFold(b.Mailbox, "INBOX") {
			if err := c.Delete(b.Mailbox).Wait(); err != nil {
				return err
			}
		}
	}
	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		return err
	}
	if sel.NumMessages > 0 {
		all := imap.SeqSet{}
		all.AddRange(1, 0)
		if err := c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
			return err
		}
		if err := c.Expunge().Close(); err != nil {
			return err
		}
	}
	return c.Logout().Wait()
}
