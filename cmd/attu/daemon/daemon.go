// Package daemon is attu serve's mail loop: it ties one mailbox to the game
// service (store/referee). The inbox hands each mail to Service.Handle,
// which commits it with its answers; then the outbox worker draws the
// pictures the committed step left to draw (Service.Draw) and sends what
// the store queued; a timer drives Service.Tick; and a Unix socket runs the
// operator's commands inside the daemon while it holds the database.
//
// Entry points: New wires a Service to the mail servers of a Config, and
// Run runs the loop until its context ends. Everything the daemon must
// remember lives in the store, so it can be stopped at any moment and
// started again. Start reading at Run; the control socket is in control.go.
//
// A mail whose author is not authenticated (Config.Auth), or whose From
// names more than one mailbox, reaches the game service as a stranger's. A
// mail whose handling fails three times is given up on by the inbox, moved
// to its failed folder, and listed in the store (giveUp).
package daemon

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

// Config is everything the daemon needs, already read and checked: attu
// serve fills it from a configuration file, the demo from the loopback
// mail system it starts.
type Config struct {
	Address string // the mailbox every game is played through
	IMAP    mail.InboxConfig
	SMTP    mail.SMTPConfig
	Outbox  mail.OutboxConfig
	Limits  mail.Limits
	// Auth says how the author of a mail is authenticated; a mail that
	// fails gets a stranger's treatment from the game service.
	Auth mail.AuthConfig
	Tick time.Duration // how often the deadlines are looked at; a minute when zero
	// AnswerLimit caps the answers to mail the service never sees (too
	// large, HTML only) per sender an hour; 3 when zero. All senders
	// together get at most referee.DefaultStrangers such answers an hour,
	// so that mail from ever new addresses makes no backscatter. A
	// player's address is held instead to the game service's quotas
	// (referee.Config.Answers), kept in the database.
	AnswerLimit int
	Control     string                            // the Unix socket the daemon runs Operator on; empty for none
	Operator    func(h *Host, req Request) Answer // runs one operator command inside the daemon
	Logger      *slog.Logger
}

// Daemon is one mailbox tied to the game service; see the package doc.
type Daemon struct {
	cfg     Config
	db      *store.DB
	svc     *referee.Service
	log     *slog.Logger
	inbox   *mail.Inbox
	outbox  *mail.Outbox
	answers *mail.Limiter
	// failing remembers what handle last knew of each mail whose handling
	// failed, by UID, for giveUp; only the inbox's goroutine uses it.
	failing map[uint32]store.FailedMail
	all     *mail.Limiter // caps answers to all senders together (Config.AnswerLimit)
	// authWarned says the first mail refused by authentication was
	// logged at WARN; only the inbox's goroutine uses it.
	authWarned bool
	// gate keeps the operator's commands that read from seeing a game
	// change half-way: held for writing while the service changes games.
	gate sync.RWMutex
}

// New wires svc's database to the mail servers of cfg; nothing connects
// before Run.
func New(svc *referee.Service, cfg Config) (*Daemon, error) {
	cfg.Logger = cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler))
	cfg.Tick = cmp.Or(cfg.Tick, time.Minute)
	cfg.AnswerLimit = cmp.Or(cfg.AnswerLimit, 3)
	// Set before the daemon keeps its copy of cfg: the answer to an
	// oversized mail quotes it.
	cfg.IMAP.MaxSize = cmp.Or(cfg.IMAP.MaxSize, cfg.Limits.MaxBytes, mail.DefaultLimits().MaxBytes)
	d := &Daemon{cfg: cfg, db: svc.DB(), svc: svc, log: cfg.Logger.With("pkg", "daemon"),
		answers: mail.NewLimiter(cfg.AnswerLimit, time.Hour), failing: map[uint32]store.FailedMail{},
		all: mail.NewLimiter(referee.DefaultStrangers, time.Hour)}
	cfg.IMAP.Logger = cfg.Logger
	cfg.IMAP.OnPosition = d.savePosition
	cfg.IMAP.OnGiveUp = d.giveUp
	// Mail that waits for the SMTP server goes as soon as the IMAP server
	// answers again: most outages are the network's, not one server's.
	cfg.IMAP.OnConnect = func() { d.outbox.Wake() }
	var err error
	if d.inbox, err = mail.NewInbox(cfg.IMAP, d.handle); err != nil {
		return nil, err
	}
	cfg.SMTP.From = cmp.Or(cfg.SMTP.From, cfg.Address)
	s, err := mail.NewSender(cfg.SMTP)
	if err != nil {
		return nil, err
	}
	cfg.Outbox.Logger = cfg.Logger
	d.outbox = mail.NewOutbox(queue{d}, s, cfg.Outbox)
	return d, nil
}

// Run runs the inbox, the outbox worker, the deadline timer and the
// control socket until ctx ends, then waits for all of them to stop.
func (d *Daemon) Run(ctx context.Context) error {
	from, err := SavedPosition(d.db, d.cfg.IMAP)
	if err != nil {
		return err
	}
	d.log.Info("daemon starting", "address", d.cfg.Address, "imap", d.cfg.IMAP.Addr, "smtp", d.cfg.SMTP.Addr,
		"uidvalidity", from.UIDValidity, "last_uid", from.LastUID)
	var wg sync.WaitGroup
	if d.cfg.Control != "" {
		// Without its socket the daemon still plays; only the
		// operator's commands wait for it to stop.
		if ln, err := listenControl(d.cfg.Control); err != nil {
			d.log.Error("operator commands will not run while the daemon runs", "err", err)
		} else {
			wg.Go(func() { d.serveControl(ctx, ln) })
		}
	}
	// The inbox waits on the IMAP server (IDLE) and the outbox worker
	// on its timer and its kicks: each blocks on its own.
	wg.Go(func() { d.inbox.Run(ctx, from) })
	wg.Go(func() { d.outbox.Run(ctx) })
	d.tick(ctx)
	wg.Wait()
	d.log.Info("daemon stopped")
	return nil
}

// Kick wakes the outbox worker to send what was queued, at once; it never
// blocks.
func (d *Daemon) Kick() { d.outbox.Kick() }

// Position is how far the inbox has read.
func (d *Daemon) Position() mail.Position { return d.inbox.Position() }

// tick looks at the deadlines on a timer until ctx ends: settle windows,
// lapsed takebacks, missed deadlines, reminders (Service.Tick).
func (d *Daemon) tick(ctx context.Context) {
	t := time.NewTicker(d.cfg.Tick)
	defer t.Stop()
	for {
		d.gate.Lock()
		err := d.svc.Tick(time.Now())
		d.gate.Unlock()
		if err != nil {
			d.log.Error("deadlines", "err", err)
		}
		d.Kick() // a deadline may have queued reports
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// handle is the inbox's handler (handleMail); a failure is remembered
// for giveUp.
func (d *Daemon) handle(ctx context.Context, in *mail.Incoming) error {
	msg, err := d.handleMail(ctx, in)
	if err == nil {
		delete(d.failing, in.UID)
		return nil
	}
	f := store.FailedMail{UID: in.UID}
	if msg != nil {
		f.MessageID, f.From, f.Subject = clip(msg.MessageID), clip(msg.From), clip(msg.Subject)
	}
	d.failing[in.UID] = f
	return err
}

// giveUp is the inbox's OnGiveUp: a mail failed every time it was
// handled, and the inbox stops offering it. It is listed in the store
// (store.FailedMail) for the operator and, when a player of a game sent
// it, told at once to that game's umpire, since its sender may be
// waiting for an answer.
func (d *Daemon) giveUp(in *mail.Incoming, err error) {
	f := d.failing[in.UID]
	delete(d.failing, in.UID)
	f.Mailbox, f.UID, f.Error = mailboxKey(d.cfg.IMAP), in.UID, clip(err.Error())
	d.log.Error("a mail failed every time it was handled: given up on, and listed for the umpire",
		"uid", in.UID, "message_id", f.MessageID, "from", f.From, "err", err)
	if err := d.db.RecordFailed(f); err != nil {
		d.log.Error("listing a mail given up on", "uid", in.UID, "err", err)
	}
	if err := d.svc.SetAside(f, cmp.Or(d.cfg.IMAP.MaxAttempts, 3), time.Now()); err != nil {
		d.log.Error("telling the umpire of a mail given up on", "uid", in.UID, "err", err)
	}
	d.Kick()
}

// clip bounds what the list of failed mail keeps of a header or an
// error: enough to find the mail, however long the field.
func clip(s string) string {
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}

// handleMail extracts one mail and hands it to the service, which
// commits it with its answers; then the outbox worker sends them. It
// returns the mail as read, for the record of a failure. Each mail gets
// an id for the log lines about it.
func (d *Daemon) handleMail(ctx context.Context, in *mail.Incoming) (*mail.Message, error) {
	lg := d.log.With("mail", randomHex(4), "uid", in.UID)
	raw, err := in.Fetch(ctx)
	if err != nil {
		return nil, err
	}
	msg, err := mail.Extract(bytes.NewReader(raw), d.cfg.Limits)
	var limit *mail.LimitError
	switch {
	case in.Oversized:
		// Only the header was fetched: whatever Extract made of it, the
		// mail is too large.
		limit = &mail.LimitError{Err: mail.ErrTooLarge, Limit: d.cfg.IMAP.MaxSize}
		fallthrough
	case errors.As(err, &limit):
		lg.Info("mail over a limit", "err", limit, "size", in.Size)
		return msg, d.answerDirect(lg, msg, raw, "refused: "+limit.Error(), limit.Error()+".\n"+
			"Nothing in it was read. Send the orders file alone, as plain text or a .yaml attachment.\n")
	case err != nil:
		// Not even a sender to answer: drop it, marked, so it does not
		// come back forever.
		lg.Warn("unreadable mail dropped", "err", err)
		return msg, nil
	}
	lg = lg.With("message_id", clip(msg.MessageID))
	auto, why := mail.IsAutomatic(msg, d.cfg.Address)
	if msg.HTMLOnly && msg.Orders == "" && !auto {
		lg.Info("HTML-only mail")
		return msg, d.answerDirect(lg, msg, raw, "refused: HTML only",
			"Your mail had no plain-text part, and attu reads only plain text.\n"+
				"Send it again as plain text, or attach the orders as a .yaml file.\n")
	}
	if v := mail.Authenticate(msg, raw, d.cfg.Auth); v.Trusted {
		lg = lg.With("auth", v.By)
	} else if msg.From != "" && d.cfg.Auth.Required && !d.authWarned {
		// A wrong trusted id refuses every player, who only gets a
		// stranger's answer: the operator is told once, loudly.
		d.authWarned = true
		lg.Warn("the first mail refused by sender authentication: if it is a player's, set authentication.trusted_authserv_ids "+
			"to the first word of its topmost Authentication-Results, or authentication.mode: off; later ones are logged at INFO",
			"from", msg.From, "why", v.Why)
	} else if msg.From != "" {
		lg.Info("sender not authenticated: a stranger's mail", "from", msg.From, "why", v.Why)
	}
	m := &referee.Message{
		Unauthenticated: msg.Auth.Why,
		From:            msg.From,
		To:              slices.Concat(msg.To, msg.Cc, msg.DeliveredTo),
		Subject:         msg.Subject,
		MessageID:       messageID(msg, raw),
		InReplyTo:       msg.InReplyTo,
		Text:            msg.Text,
		Automatic:       auto,
	}
	if msg.Orders != "" {
		m.Orders = []byte(msg.Orders)
	}
	for _, p := range msg.Skipped {
		m.Skipped = append(m.Skipped, referee.Skipped{Part: p.Part, Type: p.Type, Name: p.Name, Undecoded: !errors.Is(p.Err, mail.ErrNotRead)})
	}
	if auto {
		lg.Info("automatic mail, never answered", "why", why)
	}
	d.gate.Lock()
	err = d.svc.Handle(m, time.Now())
	d.gate.Unlock()
	if err != nil {
		lg.Error("not committed; it will be offered again", "err", err)
		return msg, err
	}
	lg.Info("handled", "orders", m.Orders != nil, "command", msg.Command)
	d.Kick()
	return msg, nil
}

// answerDirect records a mail the service cannot read (too large, HTML
// only) in the ledger with one short answer to its sender, in one
// transaction; automatic mail and senders over the rate limit get
// silence, so that two robots never answer each other forever; a
// player's address is held to the game service's quotas
// (referee.Service.PlayerAnswer). As the sender may be anybody, the
// answer repeats only a glimpse of its subject (templates.Glimpse).
func (d *Daemon) answerDirect(lg *slog.Logger, msg *mail.Message, raw []byte, outcome, text string) error {
	if msg == nil || msg.From == "" {
		lg.Warn("no sender to answer", "outcome", outcome)
		return nil
	}
	ref := store.NewMailRef(messageID(msg, raw), raw)
	var out []store.Mail
	ok := false
	if auto, _ := mail.IsAutomatic(msg, d.cfg.Address); !auto {
		player, allowed, err := d.svc.PlayerAnswer(msg.From)
		if err != nil {
			return err
		}
		ok = allowed || !player && d.answers.Allow(msg.From, time.Now()) && d.all.Allow("", time.Now())
	}
	if ok {
		reply := store.Mail{MessageID: NewMessageID(d.cfg.Address), From: d.cfg.Address, To: []string{msg.From},
			Subject: "Re: " + templates.Glimpse(mail.SubjectText(msg.Subject)), Text: text, InReplyTo: msg.MessageID, Class: store.ClassAnswer}
		if msg.MessageID != "" {
			reply.References = append(append([]string(nil), msg.References...), msg.MessageID)
		}
		out = append(out, reply)
	}
	if _, err := d.db.Refuse(ref, "", outcome, out); err != nil && !errors.Is(err, store.ErrProcessed) {
		lg.Error("recording a refused mail", "err", err)
		return err
	}
	lg.Info("refused", "outcome", outcome, "answered", len(out) > 0)
	d.Kick()
	return nil
}

// messageID is the mail's Message-ID or, when it has none, one made of the
// hash of the mail as stored: the ledger then recognises that mail when it
// is offered again, and tells apart two mails without one that say the same
// thing (two "status" on two days, or the empty mails of two senders).
func messageID(msg *mail.Message, raw []byte) string {
	if msg.MessageID != "" {
		return msg.MessageID
	}
	return "<" + store.NewMailRef("", raw).ContentHash[:32] + "@no-message-id.attu>"
}

// randomHex is n random bytes in hexadecimal.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// NewMessageID is a fresh Message-ID on the domain of address.
func NewMessageID(address string) string {
	_, host, ok := strings.Cut(address, "@")
	if !ok || host == "" {
		host = "attu.invalid"
	}
	return fmt.Sprintf("<attu.answer.%s@%s>", randomHex(12), host)
}

// mailboxKey names the mailbox imap watches in the store's positions: the
// login, the server and the folder, since UIDs mean nothing elsewhere.
// The port is left out: moving to TLS does not change the mailbox.
func mailboxKey(imap mail.InboxConfig) string {
	folder := cmp.Or(imap.Mailbox, "INBOX")
	host, _, err := net.SplitHostPort(imap.Addr)
	if err != nil {
		host = imap.Addr
	}
	return imap.Username + "@" + host + " " + folder
}

// SavedPosition is how far a daemon reading the mailbox imap has read, as
// db records it.
func SavedPosition(db *store.DB, imap mail.InboxConfig) (mail.Position, error) {
	p, err := db.MailboxPosition(mailboxKey(imap))
	return mail.Position{UIDValidity: p.UIDValidity, LastUID: p.LastUID}, err
}

// savePosition is the inbox's OnPosition: it records how far the inbox
// has read once the store committed that mail's effects.
func (d *Daemon) savePosition(p mail.Position) {
	err := d.db.SetMailboxPosition(mailboxKey(d.cfg.IMAP), store.MailboxPosition{UIDValidity: p.UIDValidity, LastUID: p.LastUID})
	if err != nil {
		d.log.Error("saving the inbox position", "err", err)
	}
}

// queue adapts the store's outbox to the mail package's Queue. The map
// pictures, which the store does not keep, are drawn by the game service
// (referee.Service.Draw) as the worker reads the mails, after the steps
// that queued them committed.
type queue struct{ d *Daemon }

func (q queue) Pending(now time.Time, max int) ([]mail.Queued, error) {
	ms, err := q.d.db.Pending(now, max)
	if err != nil {
		return nil, err
	}
	out := make([]mail.Queued, len(ms))
	for i, m := range ms {
		if err := q.d.svc.Draw(&m); err != nil {
			// The mail goes without its picture rather than not at all.
			q.d.log.Error("outbox: drawing a map picture", "id", m.ID, "message_id", m.MessageID, "err", err)
		}
		out[i] = mail.Queued{ID: m.ID, Attempts: m.Attempts, Mail: outgoing(m)}
	}
	return out, nil
}

// outgoing is a queued mail as the mail package sends it. A body neither
// the store nor the game service can give (store.Attachment.Dropped) is
// left out.
func outgoing(m store.Mail) mail.Outgoing {
	o := mail.Outgoing{From: m.From, To: m.To, Subject: m.Subject, MessageID: m.MessageID,
		InReplyTo: m.InReplyTo, References: m.References, Date: m.Queued, Text: m.Text}
	for _, a := range m.Attachments {
		if !a.Dropped {
			o.Attachments = append(o.Attachments, mail.Attachment{Name: a.Name, Type: a.Type, Data: a.Data})
		}
	}
	return o
}

func (q queue) MarkSent(ids []uint64, t time.Time) error { return q.d.db.MarkSentAll(ids, t) }

func (q queue) Retry(id uint64, cause error, next time.Time) error {
	return q.d.db.Retry(id, cause, next)
}

func (q queue) Next() (time.Time, bool, error) { return q.d.db.NextAttempt() }
