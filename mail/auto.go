package mail

import (
	"strings"
	"sync"
	"time"
)

// IsAutomatic tells whether a mail was sent by a program rather than a
// person, so that attu must not answer it (RFC 3834 section 2): a reply to
// an auto-reply or a bounce starts a mail loop. own is attu's own
// address; mail from it (or a plus-address of it) is automatic too. The
// reason is for the log.
func IsAutomatic(m *Message, own string) (bool, string) {
	if v := strings.ToLower(firstWord(m.AutoSubmitted)); v != "" && v != "no" {
		return true, "Auto-Submitted: " + m.AutoSubmitted // RFC 3834 section 5
	}
	switch strings.ToLower(firstWord(m.Precedence)) {
	case "bulk", "junk", "list":
		return true, "Precedence: " + m.Precedence
	}
	if m.ListID != "" {
		return true, "List-Id: " + m.ListID // RFC 2919
	}
	if m.NullReturnPath {
		return true, "null return path" // RFC 5321 section 4.5.5: a bounce
	}
	if strings.EqualFold(m.ContentType, "multipart/report") {
		return true, "delivery or disposition report" // RFC 6522
	}
	if len(m.AutoReply) > 0 {
		return true, m.AutoReply[0]
	}
	for _, a := range []string{m.From, m.Sender, m.ReturnPath} {
		if a == "" {
			continue
		}
		if isOwn(a, own) {
			return true, "from attu's own address " + a
		}
		if robotAddress(a) {
			return true, "from " + a
		}
	}
	return false, ""
}

func isOwn(a, own string) bool {
	if own == "" {
		return false
	}
	if SameAddress(a, own) {
		return true
	}
	_, ok := GameFromAddress(a, own)
	return ok
}

// robotAddress tells whether a local part names a program: the mail
// system's own senders and list software (RFC 3834 section 2 names them).
func robotAddress(a string) bool {
	local, _, ok := splitAddress(strings.ToLower(a))
	if !ok {
		return false
	}
	switch local {
	case "mailer-daemon", "postmaster", "listserv", "majordomo", "noreply", "no-reply", "do-not-reply", "donotreply":
		return true
	}
	return strings.HasPrefix(local, "owner-") || strings.HasSuffix(local, "-request") ||
		strings.HasSuffix(local, "-bounces") || local == "bounce" || strings.HasPrefix(local, "bounces")
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t;("); i >= 0 {
		s = s[:i]
	}
	return s
}

// RateLimiter allows at most N events per sender within a sliding window,
// so a sender who keeps sending bad mail (or a loop attu failed to spot)
// gets a bounded number of error replies. It is safe for concurrent use.
type RateLimiter struct {
	n      int
	window time.Duration
	now    func() time.Time

	mu   sync.Mutex
	seen map[string][]time.Time
}

// NewRateLimiter allows n events per sender within window; now is the
// clock (time.Now when nil).
func NewRateLimiter(n int, window time.Duration, now func() time.Time) *RateLimiter {
	if now == nil {
		now = time.Now
	}
	return &RateLimiter{n: n, window: window, now: now, seen: map[string][]time.Time{}}
}

// maxSenders bounds the memory of a RateLimiter: beyond it, senders with
// no event inside the window are forgotten.
const maxSenders = 10000

// Allow records an event for sender and tells whether it is within the
// limit. A refused event is not recorded, so a sender comes back under the
// limit as soon as its oldest event leaves the window.
func (r *RateLimiter) Allow(sender string) bool {
	key := strings.ToLower(strings.TrimSpace(sender))
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) > maxSenders {
		for k, ts := range r.seen {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= r.window {
				delete(r.seen, k)
			}
		}
	}
	ts := r.seen[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= r.window {
		i++
	}
	ts = ts[i:]
	if len(ts) >= r.n {
		r.seen[key] = ts
		return false
	}
	r.seen[key] = append(ts, now)
	return true
}
