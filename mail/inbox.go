package mail

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/charset"
)

// InboxConfig configures an Inbox. Zero durations and sizes take the
// defaults given with each field.
type InboxConfig struct {
	Addr      string   // host:port of the IMAP server
	Security  Security // StartTLS unless set
	TLSConfig *tls.Config
	Username  string
	Password  string
	OAuth     OAuth // instead of the password, when its Mech is set

	Mailbox string // watched for new mail; "INBOX" when empty
	// Processed is the folder handled mail is moved to (created when
	// missing). When empty, handled mail is only flagged \Seen and stays.
	Processed string
	// Failed is the folder a mail is moved to when its handler failed
	// MaxAttempts times (3 when zero), and OnGiveUp is then called on the
	// Inbox's goroutine with the handler's last error. When Failed is
	// empty, such a mail is only flagged \Seen. Either way it is not
	// offered again: it would otherwise come back at every scan, forever.
	Failed      string
	MaxAttempts int
	OnGiveUp    func(m *Incoming, err error)

	// MaxSize is the largest mail fetched (RFC822.SIZE); of a larger one
	// only the first MaxHeaderBytes of its header. DefaultLimits() when
	// zero.
	MaxSize, MaxHeaderBytes int64

	// IdleRestart ends and restarts IDLE this often, searching the mailbox
	// each time: some servers silently drop an IDLE older than about ten
	// minutes. 10 minutes when zero.
	IdleRestart time.Duration
	// PollInterval is the time between searches when the server has no
	// IDLE (or NoIdle is set); 1 minute when zero.
	PollInterval time.Duration
	NoIdle       bool          // poll even when the server offers IDLE
	Timeout      time.Duration // bounds each network operation (connect, login, one command); 1 minute when zero
	// RetryMin and RetryMax bound the wait, doubled after each failure,
	// before reconnecting or offering again a mail whose handler failed;
	// 1 second and 5 minutes when zero.
	RetryMin, RetryMax time.Duration

	// OnPosition is called, on the Inbox's goroutine, each time the
	// position changes, so the caller can keep it (see Position).
	OnPosition func(Position)
	// OnConnect is called, on the Inbox's goroutine, each time a session
	// is open and its mailbox selected: a server reachable again often
	// means the network is back, for other servers too.
	OnConnect func()
	Logger    *slog.Logger // receives the inbox's log; slog.Default when nil

	// beforeIdle, when set by a test, runs between the search and the
	// IDLE command that follows it.
	beforeIdle func()
}

func (c InboxConfig) withDefaults() InboxConfig {
	d := DefaultLimits()
	c.Mailbox = cmp.Or(c.Mailbox, "INBOX")
	c.MaxSize = positive(c.MaxSize, d.MaxBytes)
	c.MaxHeaderBytes = positive(c.MaxHeaderBytes, d.MaxHeaderBytes)
	c.IdleRestart = positive(c.IdleRestart, 10*time.Minute)
	c.PollInterval = positive(c.PollInterval, time.Minute)
	c.Timeout = positive(c.Timeout, time.Minute)
	c.MaxAttempts = positive(c.MaxAttempts, 3)
	c.RetryMin = positive(c.RetryMin, time.Second)
	c.RetryMax = max(positive(c.RetryMax, 5*time.Minute), c.RetryMin)
	c.Logger = cmp.Or(c.Logger, slog.Default())
	return c
}

// Position is how far the inbox has read its mailbox: every mail with a
// UID up to LastUID has been handled, under that UIDVALIDITY (RFC 9051
// section 2.3.1.1). Keep it in the store so a restart does not offer old
// mail again; when the server's UIDVALIDITY differs, the UIDs are new
// and the inbox reads the mailbox from the start.
type Position struct {
	UIDValidity uint32
	LastUID     uint32
}

// Incoming is one new mail, offered to the Handler before its body is
// downloaded.
type Incoming struct {
	UID  uint32
	Size int64 // RFC822.SIZE as the server reports it
	// Oversized is set when Size exceeds InboxConfig.MaxSize: Fetch then
	// returns only the header, enough to answer the sender.
	Oversized bool

	s atomic.Pointer[session] // nil once the handler has returned
}

// Fetch downloads the mail (without setting \Seen): all of it, or only
// its header when Oversized. It may be called only while the handler
// runs; later it returns ErrNoBody.
func (m *Incoming) Fetch(ctx context.Context) ([]byte, error) {
	s := m.s.Load()
	if s == nil {
		return nil, ErrNoBody
	}
	return s.fetch(m)
}

// Handler handles one incoming mail. It returns nil once the mail is dealt
// with for good (its effects committed, its reply queued — or it was
// refused, which is dealt with too); only then is the mail marked on the
// server. An error leaves the mail as it was, to be offered again: return
// one only for trouble that may pass (the store is unavailable), or the
// mail comes back forever.
type Handler func(ctx context.Context, m *Incoming) error

// Inbox watches one IMAP mailbox and hands each new mail to a Handler, in
// UID order, at least once (see the package doc). It keeps one
// connection, waits with IDLE (RFC 2177) or polls, and reconnects after
// any failure with a capped exponential backoff and jitter; after a
// failure only the operator can cure (a FixError) it logs the fix once,
// at ERROR, and tries again only every five minutes.
type Inbox struct {
	cfg    InboxConfig
	handle Handler
	log    *slog.Logger
	kick   chan struct{}
	// Only Run's goroutine uses done and attempts. done holds the handled
	// UIDs above the position (a mail below them failed); it outlives a
	// connection so that a reconnect does not offer them again. attempts
	// counts the failed handlings of each mail, by UIDVALIDITY and UID.
	done     map[uint32]bool
	attempts map[Position]int

	mu  sync.Mutex
	pos Position
}

// NewInbox returns an Inbox; nothing connects before Run. It fails when
// the configuration asks for plaintext to a server that is not on the
// loopback interface.
func NewInbox(cfg InboxConfig, h Handler) (*Inbox, error) {
	cfg = cfg.withDefaults()
	if err := checkSecurity(cfg.Security, cfg.Addr); err != nil {
		return nil, err
	}
	if h == nil {
		return nil, errors.New("mail: NewInbox: no handler")
	}
	return &Inbox{cfg: cfg, handle: h, log: cfg.Logger.With("imap", cfg.Addr, "mailbox", cfg.Mailbox),
		kick: make(chan struct{}, 1), done: map[uint32]bool{}, attempts: map[Position]int{}}, nil
}

// Position returns how far the inbox has read; safe from any goroutine.
func (in *Inbox) Position() Position {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.pos
}

func (in *Inbox) setPosition(p Position) {
	in.mu.Lock()
	changed := in.pos != p
	in.pos = p
	in.mu.Unlock()
	if changed && in.cfg.OnPosition != nil {
		in.cfg.OnPosition(p)
	}
}

// poke wakes the one who waits on ch, unless it is awake already; it
// never blocks. ch has room for one.
func poke(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Run reads the mailbox from position from until ctx ends, then returns
// nil. Connection failures are logged and retried, never returned. Run
// is not to be called again before it has returned.
func (in *Inbox) Run(ctx context.Context, from Position) error {
	clear(in.done)
	in.setPosition(from)
	failures := 0
	logged := "" // the fix last logged at ERROR
	for ctx.Err() == nil {
		start := time.Now()
		err := in.session(ctx)
		if ctx.Err() != nil {
			break
		}
		// A session that lasted longer than the longest wait was a working
		// one: start again from the shortest wait.
		if time.Since(start) > in.cfg.RetryMax {
			failures = 0
		}
		wait := jitter(backoff(failures, in.cfg.RetryMin, in.cfg.RetryMax))
		failures++
		var fe *FixError
		switch {
		case !errors.As(err, &fe):
			logged = ""
			in.log.Warn("imap: connection lost, reconnecting", "err", err, "in", wait.Round(time.Millisecond))
		case fe.Fix != logged:
			wait, logged = fixWait, fe.Fix
			in.log.Error("imap: "+fe.Fix, "err", fe.Err, "retry_in", wait)
		default:
			wait = fixWait
			in.log.Debug("imap: still failing", "err", err, "retry_in", wait)
		}
		if !sleep(ctx, wait) {
			break
		}
	}
	return nil
}

// session is one connection, from dial to failure or shutdown.
type session struct {
	in      *Inbox
	c       *imapclient.Client
	caps    imap.CapSet
	newMail chan struct{}
	pos     Position
	failed  int // scans in a row with a handler failure
}

func (in *Inbox) session(ctx context.Context) error {
	s := &session{in: in, newMail: make(chan struct{}, 1), pos: in.Position()}
	opts := &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			// Runs on the client's reader goroutine: it must not send a
			// command, only note that there is something to search for.
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					poke(s.newMail)
				}
			},
		},
		WordDecoder: &mime.WordDecoder{CharsetReader: charset.Reader},
	}
	c, err := in.dial(ctx, opts)
	if err != nil {
		return needsFix("imap", in.cfg.Username, in.cfg.OAuth, err)
	}
	s.c = c
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := s.open(); err != nil {
		return err
	}
	if in.cfg.OnConnect != nil {
		in.cfg.OnConnect()
	}
	return s.loop(ctx)
}

func (in *Inbox) dial(ctx context.Context, opts *imapclient.Options) (*imapclient.Client, error) {
	cfg := in.cfg
	d := &net.Dialer{Timeout: cfg.Timeout}
	var conn net.Conn
	var err error
	if cfg.Security == TLS {
		td := &tls.Dialer{NetDialer: d, Config: tlsConfig(cfg.TLSConfig, cfg.Addr)}
		conn, err = td.DialContext(ctx, "tcp", cfg.Addr)
	} else {
		conn, err = d.DialContext(ctx, "tcp", cfg.Addr)
	}
	if err != nil {
		return nil, fmt.Errorf("mail: imap: %w", err)
	}
	var c *imapclient.Client
	err = guard(cfg.Timeout, conn, func() error {
		if cfg.Security == StartTLS {
			opts.TLSConfig = tlsConfig(cfg.TLSConfig, cfg.Addr)
			c, err = imapclient.NewStartTLS(conn, opts)
			return err
		}
		c = imapclient.New(conn, opts)
		return c.WaitGreeting()
	})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("mail: imap: %w", err)
	}
	return c, nil
}

// do runs one command under the operation timeout.
func (s *session) do(f func() error) error { return guard(s.in.cfg.Timeout, s.c, f) }

// open logs in, reads the capabilities the server offers once
// authenticated, makes sure the processed folder exists and selects the
// mailbox.
func (s *session) open() error {
	cfg := s.in.cfg
	if err := s.login(); err != nil {
		return err
	}
	// MOVE and UIDPLUS are often announced only after login: ask again
	// rather than trust the greeting's list.
	if err := s.do(func() error {
		caps, err := s.c.Capability().Wait()
		s.caps = caps
		return err
	}); err != nil {
		return fmt.Errorf("mail: imap: capabilities: %w", err)
	}
	for _, folder := range []string{cfg.Processed, cfg.Failed} {
		if folder == "" {
			continue
		}
		if err := s.do(func() error { return s.c.Create(folder, nil).Wait() }); err != nil {
			var ie *imap.Error
			if !errors.As(err, &ie) {
				return fmt.Errorf("mail: imap: creating %s: %w", folder, err)
			}
			// NO [ALREADYEXISTS], or a server that names it otherwise: the
			// folder is there, or COPY will say what is wrong.
		}
		if !s.caps.Has(imap.CapMove) && !s.caps.Has(imap.CapUIDPlus) {
			s.in.log.Warn("imap: the server has neither MOVE nor UIDPLUS; mail is flagged \\Seen and left in place",
				"folder", folder)
		}
	}
	var sel *imap.SelectData
	if err := s.do(func() (err error) {
		sel, err = s.c.Select(cfg.Mailbox, nil).Wait()
		return err
	}); err != nil {
		return fmt.Errorf("mail: imap: select %s: %w", cfg.Mailbox, err)
	}
	if sel.UIDValidity != s.pos.UIDValidity {
		if s.pos.UIDValidity != 0 {
			s.in.log.Warn("imap: UIDVALIDITY changed, reading the mailbox from the start",
				"was", s.pos.UIDValidity, "now", sel.UIDValidity)
		}
		s.pos = Position{UIDValidity: sel.UIDValidity}
		clear(s.in.done)
		s.in.setPosition(s.pos)
	}
	s.in.log.Debug("imap: ready", "uidvalidity", sel.UIDValidity, "messages", sel.NumMessages,
		"idle", s.idle(), "move", s.caps.Has(imap.CapMove), "uidplus", s.caps.Has(imap.CapUIDPlus))
	return nil
}

// login logs in; a refusal the server does not call temporary (RFC 5530:
// UNAVAILABLE, INUSE, LIMIT) is a FixError.
func (s *session) login() error {
	cfg := s.in.cfg
	login := func() error { return s.c.Login(cfg.Username, cfg.Password).Wait() }
	if cfg.OAuth.Mech != "" {
		token, err := cfg.OAuth.token("imap", cfg.Timeout)
		if err != nil {
			return err
		}
		login = func() error { return s.c.Authenticate(oauthClient{cfg.OAuth.Mech, cfg.Username, token}) }
	}
	err := s.do(login)
	if err == nil {
		return nil
	}
	err = fmt.Errorf("mail: imap: login as %s: %w", cfg.Username, err)
	if ie := (*imap.Error)(nil); errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo &&
		!slices.Contains([]imap.ResponseCode{imap.ResponseCodeUnavailable, imap.ResponseCodeInUse, imap.ResponseCodeLimit}, ie.Code) {
		return &FixError{Fix: loginFix("imap", cfg.Username, cfg.OAuth), Err: err}
	}
	return err
}

// CheckIMAP connects to the server of cfg, logs in and logs out, as attu
// serve -check does; a failure only the operator can cure is a *FixError.
func CheckIMAP(ctx context.Context, cfg InboxConfig) error {
	in, err := NewInbox(cfg, func(context.Context, *Incoming) error { return nil })
	if err != nil {
		return err
	}
	c, err := in.dial(ctx, &imapclient.Options{})
	if err != nil {
		return needsFix("imap", cfg.Username, cfg.OAuth, err)
	}
	defer c.Close()
	s := &session{in: in, c: c}
	if err := s.login(); err != nil {
		return err
	}
	return s.do(func() error { return c.Logout().Wait() })
}

func (s *session) idle() bool { return !s.in.cfg.NoIdle && s.caps.Has(imap.CapIdle) }

// loop searches and handles, then waits for the next reason to search,
// until the connection fails or ctx ends.
func (s *session) loop(ctx context.Context) error {
	for {
		if err := s.scan(ctx); err != nil {
			return err
		}
		var retry <-chan time.Time
		if s.failed > 0 {
			retry = time.After(jitter(backoff(s.failed-1, s.in.cfg.RetryMin, s.in.cfg.RetryMax)))
		}
		if err := s.wait(ctx, retry); err != nil || ctx.Err() != nil {
			return err
		}
	}
}

// wait returns at the next reason to search: new mail announced, the
// IDLE restart or poll timer, a kick, or retry. It waits under IDLE when
// the server has it (ended before returning), else polls.
func (s *session) wait(ctx context.Context, retry <-chan time.Time) error {
	var cmd *imapclient.IdleCommand
	every := s.in.cfg.PollInterval
	if s.idle() {
		if s.in.cfg.beforeIdle != nil {
			s.in.cfg.beforeIdle()
		}
		if err := s.do(func() (err error) {
			cmd, err = s.c.Idle()
			return err
		}); err != nil {
			return fmt.Errorf("mail: imap: idle: %w", err)
		}
		every = s.in.cfg.IdleRestart
	}
	t := time.NewTimer(every)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil // the connection is being closed, under IDLE or not
	case <-t.C:
	case <-retry:
	case <-s.in.kick:
	case <-s.newMail:
	case <-s.c.Closed():
		return errClosed
	}
	if cmd == nil {
		return nil
	}
	if err := s.do(func() error {
		if err := cmd.Close(); err != nil {
			return err
		}
		return cmd.Wait()
	}); err != nil {
		return fmt.Errorf("mail: imap: ending idle: %w", err)
	}
	return nil
}

// scan searches for mail above the position and hands each to the
// handler. An error is the connection's; a handler's error only leaves
// its mail for the next scan.
func (s *session) scan(ctx context.Context) error {
	// A mail that succeeds after an earlier failure lets the position move
	// over the later mails handled meanwhile, which the search from a zero
	// position (unseen mail only) no longer returns: search again from the
	// new position. Each pass moves the position on, or ends the loop.
	for {
		last := s.pos.LastUID
		if err := s.scanOnce(ctx); err != nil || ctx.Err() != nil {
			return err
		}
		if s.pos.LastUID == last || len(s.in.done) == 0 {
			return nil
		}
	}
}

func (s *session) scanOnce(ctx context.Context) error {
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{{{Start: imap.UID(s.pos.LastUID + 1), Stop: 0}}}}
	if s.pos.LastUID == 0 && s.in.cfg.Processed == "" {
		// Reading from the start a mailbox where handled mail stays:
		// \Seen is the only trace of what an earlier run (or the same run
		// under another UIDVALIDITY) handled. Above LastUID it is not
		// trusted, since a person may read the mailbox too.
		crit.NotFlag = []imap.Flag{imap.FlagSeen}
	}
	var found *imap.SearchData
	if err := s.do(func() (err error) {
		found, err = s.c.UIDSearch(crit, nil).Wait()
		return err
	}); err != nil {
		return fmt.Errorf("mail: imap: search: %w", err)
	}
	var uids []uint32
	for _, u := range found.AllUIDs() {
		// "n:*" also matches the last mail when its UID is below n.
		if uint32(u) > s.pos.LastUID {
			uids = append(uids, uint32(u))
		}
	}
	slices.Sort(uids)
	todo := slices.DeleteFunc(slices.Clone(uids), func(u uint32) bool { return s.in.done[u] })
	if len(todo) == 0 {
		s.advance(uids)
		return nil
	}
	sizes, err := s.sizes(todo)
	if err != nil {
		return err
	}
	failed := false
	for _, u := range todo {
		size, ok := sizes[u]
		if !ok {
			continue // expunged meanwhile by someone else
		}
		m := &Incoming{UID: u, Size: size, Oversized: size > s.in.cfg.MaxSize}
		m.s.Store(s)
		herr := s.in.handle(ctx, m)
		m.s.Store(nil)
		if ctx.Err() != nil {
			return nil
		}
		folder := s.in.cfg.Processed
		if herr != nil {
			key := Position{UIDValidity: s.pos.UIDValidity, LastUID: u}
			if s.in.attempts[key]++; s.in.attempts[key] < s.in.cfg.MaxAttempts {
				failed = true
				s.in.log.Error("imap: handler failed; the mail will be offered again", "uid", u, "err", herr,
					"attempts", s.in.attempts[key])
				continue
			}
			delete(s.in.attempts, key)
			s.in.log.Error("imap: handler failed again; the mail is given up on and not offered again", "uid", u, "err", herr,
				"attempts", s.in.cfg.MaxAttempts, "folder", s.in.cfg.Failed)
			if s.in.cfg.OnGiveUp != nil {
				s.in.cfg.OnGiveUp(m, herr)
			}
			folder = s.in.cfg.Failed
		}
		if err := s.mark(u, folder); err != nil {
			return err
		}
		s.in.done[u] = true
	}
	if failed {
		s.failed++
	} else {
		s.failed = 0
	}
	s.advance(uids)
	return nil
}

// advance moves LastUID over every handled mail up to the first one not
// handled yet.
func (s *session) advance(uids []uint32) {
	last := s.pos.LastUID
	for _, u := range uids {
		if !s.in.done[u] {
			break
		}
		last = u
	}
	if last == s.pos.LastUID {
		return
	}
	maps.DeleteFunc(s.in.done, func(u uint32, _ bool) bool { return u <= last })
	s.pos.LastUID = last
	s.in.setPosition(s.pos)
}

// sizes fetches RFC822.SIZE of the given mails, before any body.
func (s *session) sizes(uids []uint32) (map[uint32]int64, error) {
	var set imap.UIDSet
	for _, u := range uids {
		set.AddNum(imap.UID(u))
	}
	out := map[uint32]int64{}
	err := s.do(func() error {
		msgs, err := s.c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
		for _, m := range msgs {
			out[uint32(m.UID)] = m.RFC822Size
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("mail: imap: fetching sizes: %w", err)
	}
	return out, nil
}

// fetch downloads one mail with BODY.PEEK, so that \Seen is set only by
// mark, after the handler succeeded.
func (s *session) fetch(m *Incoming) ([]byte, error) {
	sec := &imap.FetchItemBodySection{Peek: true}
	limit := s.in.cfg.MaxSize
	if m.Oversized {
		limit = s.in.cfg.MaxHeaderBytes
		sec = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true,
			Partial: &imap.SectionPartial{Offset: 0, Size: limit}}
	}
	var raw []byte
	var found bool
	err := s.do(func() error {
		cmd := s.c.Fetch(imap.UIDSetNum(imap.UID(m.UID)), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{sec}})
		var rerr error
		for msg := cmd.Next(); msg != nil; msg = cmd.Next() {
			for item := msg.Next(); item != nil; item = msg.Next() {
				b, ok := item.(imapclient.FetchItemDataBodySection)
				if !ok || b.Literal == nil || found {
					continue
				}
				found = true
				raw, rerr = io.ReadAll(io.LimitReader(b.Literal, limit+1))
			}
		}
		if err := cmd.Close(); err != nil {
			return err
		}
		return rerr
	})
	if err != nil {
		return nil, fmt.Errorf("mail: imap: fetching uid %d: %w", m.UID, err)
	}
	if !found {
		return nil, fmt.Errorf("mail: imap: uid %d: no such message", m.UID)
	}
	if int64(len(raw)) > limit {
		if m.Oversized {
			raw = raw[:limit]
		} else {
			// The server reported a smaller size than it sent.
			return nil, &LimitError{Err: ErrTooLarge, Limit: limit}
		}
	}
	return raw, nil
}

// mark records on the server that a mail was handled, or given up on:
// \Seen, then moved to folder (the processed or the failed one) when there
// is one. Without MOVE it copies, flags \Deleted and expunges that one UID
// (RFC 4315 UID EXPUNGE); a plain EXPUNGE would also remove mail someone
// else flagged \Deleted, so without UIDPLUS the mail stays, flagged \Seen.
func (s *session) mark(uid uint32, folder string) error {
	set := imap.UIDSetNum(imap.UID(uid))
	err := s.do(func() error {
		return s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close()
	})
	switch {
	case err != nil:
	case folder == "":
	case s.caps.Has(imap.CapMove):
		err = s.do(func() error {
			_, err := s.c.Move(set, folder).Wait()
			return err
		})
	case s.caps.Has(imap.CapUIDPlus):
		err = s.do(func() error {
			if _, err := s.c.Copy(set, folder).Wait(); err != nil {
				return err
			}
			if err := s.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
				return err
			}
			return s.c.UIDExpunge(set).Close()
		})
	}
	if err != nil {
		return fmt.Errorf("mail: imap: marking uid %d handled: %w", uid, err)
	}
	return nil
}
