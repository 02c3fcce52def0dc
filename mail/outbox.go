package mail

import (
	"context"
	"errors"
	"log/slog"
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
	now := o.cfg.Now()
	pending, err := o.q.Pending(now, o.cfg.Batch)
	if err != nil {
		o.log.Error("outbox: reading the queue", "err", err)
		return o.cfg.RetryMin
	}
	if len(pending) == 0 {
		return o.cfg.Interval
	}
	full := len(pending) == o.cfg.Batch
	ms := make([]*Outgoing, len(pending))
	for i := range pending {
		ms[i] = &pending[i].Mail
	}
	errs := o.s.sendAll(ctx, ms)
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
	if full {
		return 0 // more may be waiting
	}
	return wait
}
