package mail

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"math"
	"math/rand/v2"
	"regexp"
	"sync/atomic"
	"time"
)

// Queue is where an Outbox finds mail to send and records what became of
// it; the daemon adapts store.DB to it.
type Queue interface {
	// Pending returns up to max mails not sent yet and due at now, in
	// the order they should go (the store's: oldest first, reports
	// before answers).
	Pending(now time.Time, max int) ([]Queued, error)
	// MarkSent records that the mails ids were accepted by the SMTP
	// server at t, all or none, in one write.
	MarkSent(ids []uint64, t time.Time) error
	// Retry records a failed attempt and when to try again.
	Retry(id uint64, cause error, next time.Time) error
	// Next returns when the earliest unsent mail falls due (at or before
	// now when one is due already); ok is false when no mail waits.
	Next() (next time.Time, ok bool, err error)
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
	Batch int // the most mails sent over one connection; 50 when zero
	// Interval is the longest sleep between two looks at the queue; the
	// worker wakes earlier when a mail falls due. 30 seconds when zero.
	Interval time.Duration
	// RetryMin and RetryMax bound the wait before the next attempt at a
	// mail that failed for a reason that may pass (unreachable, 4yz); see
	// retryWait. 1 second and 5 minutes when zero.
	RetryMin, RetryMax time.Duration
	// PerHour and PerDay cap the mails sent in any hour and any 24 hours,
	// as a provider's sending quota does (attu's mails have one recipient
	// each); no cap when zero. Mail over a cap waits, in Pending's order. The
	// count starts with the outbox; the provider's quota answer stops what
	// it missed.
	PerHour, PerDay int
	Now             func() time.Time // the clock; time.Now when nil
	Logger          *slog.Logger     // receives the outbox's log; slog.Default when nil
}

// A mail the server refused for good (5yz), or that cannot be sent as it
// is, waits refusedRetryMin, doubled after each attempt up to
// refusedRetryMax: trying it soon would fail the same way. Trouble with
// the queue itself waits refusedRetryMin too, so that a store that cannot
// record what was sent does not have it sent again every second.
const (
	refusedRetryMin = time.Minute
	refusedRetryMax = time.Hour
)

// quotaWait is how long all sending stops after a provider's quota answer
// (quotaReply): an hourly quota has room again by then, and a daily one
// is asked once an hour, with one mail.
const quotaWait = time.Hour

// quotaReply matches a provider's reply that the account has sent too
// much: 421 4.7.0 (Gmail), X.4.5 (RFC 3463 section 3.5; Gmail's daily
// quota), X.7.28 (too many mails), 5.1.90 (Outlook's daily limit), or words
// of a sending limit; not X.2.2, a recipient's full mailbox.
var quotaReply = regexp.MustCompile(`(?i)\b(421[ -]"?4\.7\.0|[45]\d\d[ -]"?([45]\.4\.5|[45]\.7\.28|5\.1\.90)\b|[45]\d\d[ -].*(sending (quota|limit)|rate limit|too many (messages|mails)))`)

// Outbox is the worker that sends queued mail: one goroutine (Run) that
// sleeps until kicked or until the earliest of the next mail's due time,
// the next look for a server that was down (probeWait) and Interval;
// sends what is due over one connection; and records each mail as sent
// or when to try again, in the queue (the package doc tells the retries
// and the at-least-once delivery). A mail is tried, and the attempt
// counted, only when it is due or when the server has just answered
// again: a kick, a Wake or a restart during an outage moves no mail's
// next attempt. No mail goes while the sending quota (PerHour, PerDay) is
// used up, for an hour after the provider answered that it is
// (quotaReply), or for five minutes after a FixError, which is logged
// once at ERROR.
type Outbox struct {
	q    Queue
	s    *Sender
	cfg  OutboxConfig
	log  *slog.Logger
	kick chan struct{}
	wake atomic.Bool // set by Wake, taken by the next flush
	// Only Run's goroutine uses the fields below.
	//
	// down is when the server was first found unreachable in the
	// present outage (zero: it answered last time), and probeAt when to
	// look for it again. back says it has just answered again: the mails
	// waiting for it go at the next flush, due or not.
	down, probeAt time.Time
	back          bool
	// refused holds the mails whose last attempt failed for good: a wake
	// leaves them to their own, slower rule. It is lost on restart, which
	// costs such a mail at most one early attempt.
	refused map[uint64]bool
	sent    []time.Time // when each mail of the last day was sent, oldest first
	// paused is when sending may start again after a quota answer; probe
	// sends one mail at a time after one, until a mail goes through.
	paused time.Time
	probe  bool
	// held is the end of the wait for the quota last logged, and logged
	// the fix last logged at ERROR, so that each is logged once.
	held   time.Time
	logged string
}

// NewOutbox returns an Outbox sending the mail of q through s.
func NewOutbox(q Queue, s *Sender, cfg OutboxConfig) *Outbox {
	cfg.Batch = positive(cfg.Batch, 50)
	cfg.Interval = positive(cfg.Interval, 30*time.Second)
	cfg.RetryMin = positive(cfg.RetryMin, time.Second)
	cfg.RetryMax = max(positive(cfg.RetryMax, 5*time.Minute), cfg.RetryMin)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.Logger = cmp.Or(cfg.Logger, slog.Default())
	o := &Outbox{q: q, s: s, cfg: cfg, log: cfg.Logger, kick: make(chan struct{}, 1), refused: map[uint64]bool{}}
	// A new worker knows nothing of the server: the mail that waited
	// after a failed attempt before a restart goes at once if it answers.
	o.wake.Store(true)
	return o
}

// Kick wakes the worker to send what is due now, typically right after
// mail was queued; it never blocks.
func (o *Outbox) Kick() { poke(o.kick) }

// Wake is Kick for when the server may be reachable again (the IMAP
// session reconnected): when mail waits after a failed attempt, the
// worker connects to the SMTP server at once, offering no mail, and if
// the server answers, the mails waiting after a temporary failure go now
// too. It never blocks.
func (o *Outbox) Wake() {
	o.wake.Store(true)
	o.Kick()
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

// flush sends one batch of mail, those due and, when the server has just
// answered again, those waiting after a temporary failure; it returns how
// long to sleep.
func (o *Outbox) flush(ctx context.Context) time.Duration {
	now := o.cfg.Now()
	room, until := o.room(now)
	if room == 0 {
		return o.hold(now, until)
	}
	batch := o.cfg.Batch
	if o.probe {
		batch = 1
	}
	early := o.answers(ctx, now)
	pending, full, err := o.due(now, early, min(batch, room))
	if err != nil {
		o.log.Error("outbox: reading the queue", "err", err)
		return refusedRetryMin
	}
	o.back = early && full // the rest of what waited goes next
	if len(pending) == 0 {
		return o.sleep(now)
	}
	ms := make([]*Outgoing, len(pending))
	for i := range pending {
		ms[i] = &pending[i].Mail
	}
	errs := o.s.sendAll(ctx, ms)
	// What the server accepted is recorded even when ctx has ended: left
	// unrecorded, it would go out a second time after a restart.
	recorded := o.recordSent(pending, errs)
	sent := false
	for i, q := range pending {
		switch {
		case errs[i] == nil:
			sent, o.probe, o.logged = true, false, ""
			o.sent = append(o.sent, now)
		case ctx.Err() != nil && errors.Is(errs[i], ctx.Err()):
			// Not tried because ctx ended: no failed attempt.
		default:
			if serverDown(errs[i]) {
				o.unreachable(now)
			}
			recorded = o.retry(q, errs[i], now) && recorded
		}
	}
	switch {
	case !recorded:
		// What was sent goes again at the next attempt, and what failed
		// is due again: not soon.
		return refusedRetryMin
	case sent && !o.down.IsZero():
		// The server is back: what waits for it goes now.
		o.down, o.back = time.Time{}, true
		return 0
	case full:
		return 0 // more may be waiting
	}
	return o.sleep(now)
}

// answers reports whether the server has just answered again, so that the
// mails waiting after a temporary failure go now, due or not. When the
// server was down and it is time to look again (probeAt), or when Wake
// asked, while mail waits that is not due yet, it connects to the server,
// offering no mail; a failure there counts as no mail's attempt.
func (o *Outbox) answers(ctx context.Context, now time.Time) bool {
	if o.back {
		return true
	}
	asked := o.wake.Swap(false)
	if !asked && (o.down.IsZero() || now.Before(o.probeAt)) {
		return false
	}
	next, ok, err := o.q.Next()
	if err != nil || !ok || !next.After(now) {
		// Nothing waits for the server, or what is due is tried anyway
		// and tells whether it answers.
		return false
	}
	if err := o.s.probe(ctx); err != nil {
		if ctx.Err() == nil {
			o.unreachable(now)
			o.log.Debug("outbox: the smtp server still does not answer", "next_look", o.probeAt.Sub(now).Round(time.Millisecond), "err", err)
		}
		return false
	}
	if !o.down.IsZero() {
		o.log.Info("outbox: the smtp server answers again; the mail waiting for it goes now", "down_for", now.Sub(o.down).Round(time.Second))
	}
	o.down = time.Time{}
	return true
}

// unreachable records that the server could not be reached at now, and
// when to look for it again.
func (o *Outbox) unreachable(now time.Time) {
	if o.down.IsZero() {
		o.down = now
	}
	o.probeAt = now.Add(probeWait(now.Sub(o.down), o.cfg.RetryMin, o.cfg.RetryMax))
}

// probeWait is the wait before looking again for a server that has not
// answered for d: an eighth of d, within lo and hi. However long an
// outage, the mail waiting for it goes about an eighth of its length
// after its end (lo at the least, hi at the most), whatever each mail's
// own wait (retryWait) has grown to by then.
func probeWait(d, lo, hi time.Duration) time.Duration {
	return min(max(d/8, lo), hi)
}

// sleep returns how long the worker may sleep after a flush at now: until
// the earliest mail falls due, the next look for a server that is down,
// or Interval, whichever comes first. A kick in between never postpones
// either, as the next flush asks the queue again.
func (o *Outbox) sleep(now time.Time) time.Duration {
	next, ok, err := o.q.Next()
	if err != nil {
		o.log.Error("outbox: reading the queue", "err", err)
		return refusedRetryMin
	}
	if !ok {
		o.down = time.Time{} // nothing waits for the server
		return o.cfg.Interval
	}
	wait := min(o.cfg.Interval, max(next.Sub(now), 0))
	if !o.down.IsZero() {
		wait = min(wait, max(o.probeAt.Sub(now), 0))
	}
	return wait
}

// room returns how many mails may go at now under PerHour, PerDay and a
// pause (a quota answer, a FixError) and, when none may, when one may.
func (o *Outbox) room(now time.Time) (int, time.Time) {
	if now.Before(o.paused) {
		return 0, o.paused
	}
	for len(o.sent) > 0 && !o.sent[0].After(now.Add(-24*time.Hour)) {
		o.sent = o.sent[1:]
	}
	n, next := math.MaxInt, time.Time{}
	for _, c := range []struct {
		max    int
		window time.Duration
	}{{o.cfg.PerHour, time.Hour}, {o.cfg.PerDay, 24 * time.Hour}} {
		if c.max <= 0 {
			continue
		}
		in := 0
		for _, t := range o.sent {
			if t.After(now.Add(-c.window)) {
				in++
			}
		}
		n = min(n, max(c.max-in, 0))
		if in >= c.max {
			if t := o.sent[len(o.sent)-c.max].Add(c.window); t.After(next) {
				next = t
			}
		}
	}
	return n, next
}

// hold returns the wait until sending may start again at until, having
// logged once, when mail is due, that it waits for the quota.
func (o *Outbox) hold(now, until time.Time) time.Duration {
	if !until.Equal(o.held) {
		if ms, err := o.q.Pending(now, 1); err == nil && len(ms) > 0 {
			o.held = until
			o.log.Info("outbox: the sending quota is used up; mail waits, in order", "until", until.Format(time.DateTime),
				"per_hour", o.cfg.PerHour, "per_day", o.cfg.PerDay)
		}
	}
	return until.Sub(now)
}

// due returns up to batch mails to try now: those due at now and, with
// wake, those waiting after a temporary failure. full reports that the
// queue may hold more.
func (o *Outbox) due(now time.Time, wake bool, batch int) (ms []Queued, full bool, err error) {
	if !wake {
		ms, err = o.q.Pending(now, batch)
		return ms, len(ms) == batch, err
	}
	// A mail that failed for a reason that may pass is due again within
	// RetryMax. One refused for good is left out even when due: the next
	// look at the queue, within Interval, takes it.
	all, err := o.q.Pending(now.Add(o.cfg.RetryMax), batch)
	for _, q := range all {
		if q.Attempts == 0 || !o.refused[q.ID] {
			ms = append(ms, q)
		}
	}
	return ms, len(all) == batch, err
}

// recordSent records the mails the server accepted, in one write, and
// reports whether it succeeded.
func (o *Outbox) recordSent(pending []Queued, errs []error) bool {
	var sent []uint64
	for i, q := range pending {
		if errs[i] == nil {
			sent = append(sent, q.ID)
			delete(o.refused, q.ID)
		}
	}
	if len(sent) == 0 {
		return true
	}
	if err := o.q.MarkSent(sent, o.cfg.Now()); err != nil {
		o.log.Error("outbox: recording sent mails", "ids", sent, "err", err)
		return false
	}
	for i, q := range pending {
		if errs[i] == nil {
			o.log.Info("outbox: sent", "id", q.ID, "message_id", q.Mail.MessageID, "to", q.Mail.To)
		}
	}
	return true
}

// retry records a failed attempt at q, made at now, with when to try
// again, and reports whether the queue recorded it.
func (o *Outbox) retry(q Queued, cause error, now time.Time) bool {
	var delay time.Duration
	level, msg := slog.LevelWarn, "outbox: sending failed, will retry"
	var fe *FixError
	switch {
	case quotaReply.MatchString(cause.Error()):
		// The whole account is over its quota, not this mail: nothing goes
		// before the next window.
		delete(o.refused, q.ID)
		delay, msg, o.probe = quotaWait, "outbox: the provider says the sending quota is used up; no mail goes before the next window", true
		if !o.pause(now, delay) {
			level = slog.LevelDebug
		}
	case errors.As(needsFix("smtp", o.s.cfg.Username, o.s.cfg.OAuth, cause), &fe):
		// No mail can go until the operator acts: none tries soon.
		o.refused[q.ID] = true
		o.pause(now, fixWait)
		delay, level, msg = fixWait, slog.LevelDebug, "outbox: still failing"
		if fe.Fix != o.logged {
			level, msg, o.logged = slog.LevelError, "smtp: "+fe.Fix, fe.Fix
		}
	case temporary(cause):
		delete(o.refused, q.ID)
		delay = retryWait(q.Attempts, o.cfg.RetryMin, o.cfg.RetryMax)
	default:
		o.refused[q.ID] = true
		delay = backoff(q.Attempts, refusedRetryMin, refusedRetryMax)
	}
	if o.paused.After(now) {
		delay = max(delay, o.paused.Sub(now)) // the pause holds this mail too
	}
	o.log.Log(context.Background(), level, msg, "id", q.ID, "message_id", q.Mail.MessageID,
		"attempt", q.Attempts+1, "in", delay.Round(time.Millisecond), "temporary", fe == nil && temporary(cause), "err", cause)
	if err := o.q.Retry(q.ID, cause, now.Add(delay)); err != nil {
		o.log.Error("outbox: recording a failed attempt", "id", q.ID, "err", err)
		return false
	}
	return true
}

// pause stops all sending for d from now, unless it is stopped already,
// and reports whether it was not.
func (o *Outbox) pause(now time.Time, d time.Duration) bool {
	if now.Before(o.paused) {
		return false
	}
	o.paused, o.held = now.Add(d), now.Add(d)
	return true
}

// retryWait is the wait after n failed attempts (0 for the first retry) at
// a mail that may go through later: lo grown by half n times, capped at hi,
// then shortened by up to a fifth at random, so that the mails of one
// outage spread out. Growing by half rather than doubling keeps each wait
// under two thirds of the time already waited, once past the first few.
func retryWait(n int, lo, hi time.Duration) time.Duration {
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d += d / 2
	}
	d = min(d, hi)
	return d - rand.N(d/5+1)
}
