package mail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// A caller that queues mail in a transaction need not wait for the
// transaction to commit before it starts sending: Prepare gives the SMTP
// server each mail but the line that ends its data, while the transaction
// commits, and Finish ends them once it has, or drops them if it failed.
// A server delivers nothing whose data did not end (RFC 5321, section
// 4.1.1.4: the message is only accepted with the final "."), so a mail
// whose transaction was rolled back, or whose sender died before Finish,
// was never sent. The mails reach the server as soon as they are durable
// instead of a whole SMTP exchange later.

// Prepared are mails sent up to the end of their data, each on a
// connection of its own, waiting for Finish.
type Prepared struct {
	errs    []error
	decided chan struct{} // closed by Finish, send set before
	send    bool
	wg      sync.WaitGroup
	once    sync.Once
}

// Prepare starts sending ms, each over a connection of its own, and
// returns at once.
func (s *Sender) Prepare(ctx context.Context, ms []*Outgoing) *Prepared {
	p := &Prepared{errs: make([]error, len(ms)), decided: make(chan struct{})}
	for i, m := range ms {
		p.wg.Go(func() { p.errs[i] = s.prepareOne(ctx, m, p) })
	}
	return p
}

// Finish ends the mails' data when send is true, and drops their
// connections otherwise; it returns one error per mail, nil for each the
// server accepted. Only the first call decides.
func (p *Prepared) Finish(send bool) []error {
	p.once.Do(func() {
		p.send = send
		close(p.decided)
	})
	p.wg.Wait()
	return p.errs
}

// errDropped is the error of a mail Finish(false) dropped.
var errDropped = errors.New("mail: smtp: dropped before the end of its data")

func (s *Sender) prepareOne(ctx context.Context, m *Outgoing, p *Prepared) error {
	fail := func(err error) error {
		return fmt.Errorf("mail: smtp: sending %s: %w", m.MessageID, err)
	}
	msg, err := s.build(m)
	if err != nil {
		return err
	}
	from, err := msg.GetSender(false)
	if err != nil {
		return fail(err)
	}
	rcpts, err := msg.GetRecipients()
	if err != nil {
		return fail(err)
	}
	c, err := s.client()
	if err != nil {
		return fail(err)
	}
	sc, err := c.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fail(err)
	}
	w, err := dataOf(sc, from, rcpts, msg)
	if err != nil {
		sc.Close()
		return fail(err)
	}
	select {
	case <-p.decided:
	case <-ctx.Done():
		sc.Close() // the data never ended: the server discards it
		return fail(ctx.Err())
	}
	if !p.send {
		sc.Close()
		return errDropped
	}
	if err := w.Close(); err != nil { // the final "."
		sc.Close()
		return fmt.Errorf("mail: smtp: sending %s: %w", m.MessageID, err)
	}
	if err := c.CloseWithSMTPClient(sc); err != nil {
		s.log.Debug("smtp: closing", "err", err)
	}
	return nil
}

// dataOf gives the server msg's envelope and data but the final line, and
// returns the writer whose Close ends it.
func dataOf(sc *smtp.Client, from string, rcpts []string, msg *gomail.Msg) (io.WriteCloser, error) {
	if err := sc.Mail(from); err != nil {
		return nil, err
	}
	for _, r := range rcpts {
		if err := sc.Rcpt(r); err != nil {
			return nil, err
		}
	}
	w, err := sc.Data()
	if err != nil {
		return nil, err
	}
	if _, err := msg.WriteTo(w); err != nil {
		return nil, err
	}
	return w, nil
}
