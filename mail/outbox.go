package mail

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Queue is where an Outbox finds mail to send and records what became of
// it. store.DB keeps such a queue; the daemon adapts its Mail type to
// Queued.
type Queue interface {
	// Pending returns up to max mails not sent yet and due at now,
	// oldest first.
	Pending(now time.Time, max int) ([]Queued, error)
	// MarkSent records that the mails ids were accepted by the SMTP
	// server at t, all or none, in one write.
	MarkSent(ids []uint64, t time.Time) error
	// Retry records a failed attempt and when to try again.
	Retry(id uint64, cause error, next time.Time) error
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
// Queue.MarkSent then fails (or the process dies in between); it goes out with
// the same Message-ID, so the receiving side deduplicates by Message-ID
// (attu's own inbox does, through its ledger).
type Outbox struct {
	q    Queue
	s    *Sender
	cfg  OutboxConfig
	log  *slog.Logger
	kick chan struct{}
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
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// Run sends queued mail until ctx ends, then returns nil. Failures are
// logged and retried, never returned. It is the outbox's one goroutine.
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
	now := o.cfg.Now()
	pending, err := o.q.Pending(now, o.cfg.Batch)
	if err != nil {
		o.log.Error("outbox: reading the queue", "err", err)
		return o.cfg.RetryMin
	}
	if len(pending) == 0 {
		return o.cfg.Interval
	}
	ms := make([]*Outgoing, len(pending))
	for i := range pending {
		ms[i] = &pending[i].Mail
	}
	errs := o.s.sendAll(ctx, ms)
	// What the server accepted is recorded even when ctx has ended: left
	// unrecorded, it would go out a second time after a restart.
	var sent []uint64
	for i, q := range pending {
		if errs[i] == nil {
			sent = append(sent, q.ID)
		}
	}
	wait := o.cfg.Interval
	if len(pending) == o.cfg.Batch {
		wait = 0 // more may be waiting
	}
	recorded := true
	if len(sent) > 0 {
		if err := o.q.MarkSent(sent, o.cfg.Now()); err != nil {
			// Sent but not recorded: they will go out again, with the
			// same Message-IDs.
			o.log.Error("outbox: recording sent mails", "ids", sent, "err", err)
			wait, recorded = o.cfg.RetryMin, false
		}
	}
	for i, q := range pending {
		if errs[i] == nil {
			if recorded {
				o.log.Info("outbox: sent", "id", q.ID, "message_id", q.Mail.MessageID, "to", q.Mail.To)
			}
			continue
		}
		if ctx.Err() != nil && errors.Is(errs[i], ctx.Err()) {
			continue // not tried because ctx ended: no failed attempt
		}
		delay := backoff(q.Attempts, o.cfg.RetryMin, o.cfg.RetryMax)
		o.log.Warn("outbox: sending failed, will retry", "id", q.ID, "message_id", q.Mail.MessageID,
			"attempt", q.Attempts+1, "in", delay, "err", errs[i])
		if err := o.q.Retry(q.ID, errs[i], now.Add(delay)); err != nil {
			o.log.Error("outbox: recording a failed attempt", "id", q.ID, "err", err)
			delay = o.cfg.RetryMin
		}
		wait = min(wait, delay)
	}
	return wait
}
