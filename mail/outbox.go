package mail

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// Queue is where an Outbox finds mail to send and records what became of
// it. store.DB keeps such a queue (Pending, MarkSent, Retry, each written
// in its own transaction); the daemon adapts its Mail type to Queued.
type Queue interface {
	// Pending returns up to max mails not sent yet and due at now,
	// oldest first.
	Pending(now time.Time, max int) ([]Queued, error)
	// MarkSent records that mail id was accepted by the SMTP server at t.
	MarkSent(id uint64, t time.Time) error
	// Retry records a failed attempt and when to try again.
	Retry(id uint64, cause error, next time.Time) error
}

// BatchQueue is a Queue that can also record many sent mails at once, in
// one write (one fsync for a whole batch, where MarkSent would take one
// each). The Outbox uses it when the Queue offers it.
type BatchQueue interface {
	Queue
	// MarkSentAll records that every mail of ids was accepted at t, all
	// or none.
	MarkSentAll(ids []uint64, t time.Time) error
}

// Queued is a mail waiting in a Queue.
type Queued struct {
	ID       uint64
	Attempts int // attempts made so far
	Mail     Outgoing
}

// OutboxConfig tunes an Outbox. Zero values take the defaults given with
// each field.
type OutboxConfig struct {
	// Batch is the most mails sent over one connection; 50 when zero.
	Batch int
	// Interval is the longest sleep between two looks at the queue, which
	// is when retries fall due; 30 seconds when zero. Kick wakes the
	// worker sooner.
	Interval time.Duration
	// RetryMin and RetryMax bound the wait before the next attempt at a
	// mail, doubled after each failure; 1 minute and 1 hour when zero.
	RetryMin, RetryMax time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger receives the outbox's log; slog.Default when nil.
	Logger *slog.Logger
}

// Outbox is the worker that sends queued mail: one goroutine (Run) that
// sleeps until kicked or until its timer fires, sends what is due over
// one connection, and records each mail as sent or to retry with a capped
// exponential backoff.
//
// Delivery is at least once. A mail the server accepted is sent again if
// MarkSent then fails (or the process dies in between); it goes out with
// the same Message-ID, so the receiving side deduplicates by Message-ID
// (attu's own inbox does, through its ledger).
type Outbox struct {
	q    Queue
	s    *Sender
	cfg  OutboxConfig
	log  *slog.Logger
	kick chan struct{}

	// reading is held while the worker reads the queue and leaves out
	// the mails held, and by Release (see there).
	reading sync.Mutex
	mu      sync.Mutex
	held    map[uint64]bool // mails another sender is sending (Hold)
	// idle says the worker's last look at the queue found nothing to
	// send and nothing was kicked since (Idle); failed are the mails
	// whose last attempt failed, waiting to be tried again.
	idle   bool
	failed map[uint64]bool
}

// Idle reports whether the worker has nothing to send as far as it knows:
// its last look at the queue found no mail due but those held, and it was
// not woken since. A caller sending mail itself (Hold) sends it after
// everything queued before only when the worker is idle.
func (o *Outbox) Idle() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.idle
}

// Hold keeps the worker from sending the mails ids, which the caller is
// sending itself (Sender.Prepare), until Release.
func (o *Outbox) Hold(ids ...uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.held == nil {
		o.held = map[uint64]bool{}
	}
	for _, id := range ids {
		o.held[id] = true
	}
}

// Release lets the worker send the mails ids again if they are still
// queued (the caller's sending failed), and wakes it.
func (o *Outbox) Release(ids ...uint64) {
	// Not while the worker reads the queue: a mail it read as unsent
	// before the caller recorded it sent must still look held to it.
	o.reading.Lock()
	o.mu.Lock()
	for _, id := range ids {
		delete(o.held, id)
	}
	o.mu.Unlock()
	o.reading.Unlock()
	o.Kick()
}

// Waiting reports whether the worker leaves the mail id for now: it is
// held (Hold), or queued after a mail held, so that mail still goes out
// in the order it was queued (ids grow with it). A Queue need not make
// such a mail ready to send.
func (o *Outbox) Waiting(id uint64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.waiting(id)
}

func (o *Outbox) waiting(id uint64) bool {
	for h := range o.held {
		if h <= id {
			return true
		}
	}
	return false
}

// unheld returns the mails of pending the worker may send now: none
// Waiting.
func (o *Outbox) unheld(pending []Queued) []Queued {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.DeleteFunc(pending, func(q Queued) bool { return o.waiting(q.ID) })
}

// NewOutbox returns an Outbox sending the mail of q through s.
func NewOutbox(q Queue, s *Sender, cfg OutboxConfig) *Outbox {
	if cfg.Batch <= 0 {
		cfg.Batch = 50
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 30 * time.Second
	}
	if cfg.RetryMin <= 0 {
		cfg.RetryMin = time.Minute
	}
	if cfg.RetryMax <= 0 {
		cfg.RetryMax = time.Hour
	}
	if cfg.RetryMax < cfg.RetryMin {
		cfg.RetryMax = cfg.RetryMin
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Outbox{q: q, s: s, cfg: cfg, log: cfg.Logger, kick: make(chan struct{}, 1)}
}

// Kick wakes the worker to send now, typically right after mail was
// queued; it never blocks.
func (o *Outbox) Kick() {
	o.mu.Lock()
	o.idle = false
	o.mu.Unlock()
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// Run sends queued mail until ctx ends, then returns nil. Failures are
// logged and retried, never returned.
func (o *Outbox) Run(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-o.kick:
		}
		t.Reset(o.flush(ctx))
	}
}

// flush sends one batch of due mail and returns how long to sleep.
func (o *Outbox) flush(ctx context.Context) time.Duration {
	o.mu.Lock()
	o.idle = false
	o.mu.Unlock()
	now := o.cfg.Now()
	o.reading.Lock()
	pending, err := o.q.Pending(now, o.cfg.Batch)
	full := len(pending) == o.cfg.Batch
	pending = o.unheld(pending)
	o.reading.Unlock()
	if err != nil {
		o.log.Error("outbox: reading the queue", "err", err)
		return o.cfg.RetryMin
	}
	if len(pending) == 0 {
		if full {
			return o.cfg.RetryMin // a batch of held mails: look again soon
		}
		o.mu.Lock()
		o.idle = len(o.kick) == 0 && len(o.failed) == 0 // nothing kicked meanwhile
		o.mu.Unlock()
		return o.cfg.Interval
	}
	ms := make([]*Outgoing, len(pending))
	for i := range pending {
		ms[i] = &pending[i].Mail
	}
	errs := o.s.sendAll(ctx, ms)
	o.mu.Lock()
	for i, q := range pending {
		if errs[i] != nil {
			if o.failed == nil {
				o.failed = map[uint64]bool{}
			}
			o.failed[q.ID] = true
		} else {
			delete(o.failed, q.ID)
		}
	}
	o.mu.Unlock()
	// What the server accepted is recorded even when ctx has ended: left
	// unrecorded, it would go out a second time after a restart. A mail
	// not tried because ctx ended is no failed attempt.
	stopping := ctx.Err() != nil
	wait := o.cfg.Interval
	stuck := false // the queue refused to record an outcome
	if bq, ok := o.q.(BatchQueue); ok {
		var ids []uint64
		for i, q := range pending {
			if errs[i] == nil {
				ids = append(ids, q.ID)
			}
		}
		if len(ids) > 0 {
			if err := bq.MarkSentAll(ids, o.cfg.Now()); err != nil {
				// Sent but not recorded: they will go out again, with
				// the same Message-IDs.
				o.log.Error("outbox: recording sent mails", "ids", ids, "err", err)
				stuck = true
			}
		}
	}
	for i, q := range pending {
		if errs[i] == nil {
			if _, ok := o.q.(BatchQueue); ok {
				if !stuck {
					o.log.Info("outbox: sent", "id", q.ID, "message_id", q.Mail.MessageID, "to", q.Mail.To)
				}
				continue
			}
			if err := o.q.MarkSent(q.ID, o.cfg.Now()); err != nil {
				// Sent but not recorded: it will go out again, with the
				// same Message-ID.
				o.log.Error("outbox: recording a sent mail", "id", q.ID, "message_id", q.Mail.MessageID, "err", err)
				stuck = true
			} else {
				o.log.Info("outbox: sent", "id", q.ID, "message_id", q.Mail.MessageID, "to", q.Mail.To)
			}
			continue
		}
		if stopping && errors.Is(errs[i], ctx.Err()) {
			continue
		}
		delay := backoff(q.Attempts, o.cfg.RetryMin, o.cfg.RetryMax)
		o.log.Warn("outbox: sending failed, will retry", "id", q.ID, "message_id", q.Mail.MessageID,
			"attempt", q.Attempts+1, "in", delay, "err", errs[i])
		if err := o.q.Retry(q.ID, errs[i], now.Add(delay)); err != nil {
			o.log.Error("outbox: recording a failed attempt", "id", q.ID, "err", err)
			stuck = true
		}
		wait = min(wait, delay)
	}
	if stuck {
		return min(wait, o.cfg.RetryMin)
	}
	if stopping {
		return 0 // Run returns at once
	}
	if full || wait == o.cfg.Interval {
		// More may be waiting; or, all sent, the next look finds the
		// queue empty and says the worker is idle.
		return 0
	}
	return wait
}
