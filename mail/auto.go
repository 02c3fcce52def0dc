package mail

import (
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
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
		if isOwn(a, own) {
			return true, "from attu's own address " + a
		}
		if robotAddress(a) {
			return true, "from " + a
		}
	}
	return false, ""
}

// isOwn tells whether a is the mailbox own or a plus-address of it. The
// local parts compare without the case of ASCII letters here, unlike in
// SameAddress: taking more mail for attu's own only keeps attu silent,
// and a mail system that changes the case of attu's address must not
// start a loop of attu answering itself.
func isOwn(a, own string) bool {
	a, own = asciiLower(a), asciiLower(own)
	_, game := GameFromAddress(a, own)
	return SameAddress(a, own) || game
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

// Limiter bounds the answers each sender gets, so that a sender who keeps
// sending mail attu cannot read (or a loop attu failed to spot) gets a
// bounded number of answers: a token bucket per sender (rate.Limiter) that
// holds n answers and refills at n per window, so n answers at once, then
// one each window/n. Senders compare without regard to case. It is safe
// for concurrent use.
type Limiter struct {
	n       int
	every   rate.Limit
	mu      sync.Mutex
	senders map[string]*rate.Limiter
}

// NewLimiter allows each sender n answers per window.
func NewLimiter(n int, window time.Duration) *Limiter {
	return &Limiter{n: n, every: rate.Every(window / time.Duration(n)), senders: map[string]*rate.Limiter{}}
}

// maxSenders bounds the memory of a Limiter: beyond it, the senders whose
// bucket is full again are forgotten, which changes nothing for them.
const maxSenders = 10000

// Allow tells whether sender may get an answer at now, and if so counts it.
func (l *Limiter) Allow(sender string, now time.Time) bool {
	key := strings.ToLower(strings.TrimSpace(sender))
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.senders) >= maxSenders {
		for k, r := range l.senders {
			if r.TokensAt(now) >= float64(l.n) {
				delete(l.senders, k)
			}
		}
	}
	r := l.senders[key]
	if r == nil {
		r = rate.NewLimiter(l.every, l.n)
		l.senders[key] = r
	}
	return r.AllowN(now, 1)
}
