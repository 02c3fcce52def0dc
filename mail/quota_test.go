package mail

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// clock is a test's own time, moved on by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// logBuffer collects a logger's lines, also for the test's log.
type logBuffer struct {
	t  *testing.T
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if testing.Verbose() {
		l.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *logBuffer) count(re string) int {
	return len(regexp.MustCompile(re).FindAllStringIndex(l.String(), -1))
}

func newLogBuffer(t *testing.T) (*logBuffer, *slog.Logger) {
	l := &logBuffer{t: t}
	return l, slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// With per_hour 2 and per_day 3, five mails queued at once go two now,
// the third an hour later, the last two a day after the first, each once
// and in queue order; the log says why mail waits. The clock is the
// test's: waking the outbox at a moment stands for its timer firing then.
func TestOutboxQuota(t *testing.T) {
	sys, own := system(t, nil)
	us, _ := sys.AddUser("us", "secret")
	q := &memQueue{}
	for i := range 5 {
		q.add(Outgoing{To: []string{us}, Subject: "report", MessageID: fmt.Sprintf("q%d@attu.test", i+1), Text: "report"})
	}
	clk := &clock{t: time.Date(1943, 5, 11, 6, 0, 0, 0, time.UTC)}
	logs, lg := newLogBuffer(t)
	o := NewOutbox(q, sender(t, sys, own), OutboxConfig{Interval: time.Minute, PerHour: 2, PerDay: 3, Now: clk.Now, Logger: lg})
	runOutbox(t, o)
	delivered := func(n int, what string) {
		t.Helper()
		eventually(t, 5*time.Second, what, func() bool { return len(sys.Deliveries()) >= n })
		// A kick now must send nothing more before the window opens.
		o.Kick()
		time.Sleep(200 * time.Millisecond)
		ds := sys.Deliveries()
		if len(ds) != n {
			t.Fatalf("%s: %d mails delivered, want %d", what, len(ds), n)
		}
		for i, d := range ds {
			if want := fmt.Sprintf("<q%d@attu.test>", i+1); !strings.Contains(string(d.Data), "Message-Id: "+want) &&
				!strings.Contains(string(d.Data), "Message-ID: "+want) {
				t.Errorf("%s: delivery %d is not %s:\n%s", what, i+1, want, d.Data)
			}
		}
		for i, m := range q.snapshot() {
			if (i < n) != !m.sent.IsZero() || i >= n && m.Attempts != 0 {
				t.Errorf("%s: mail %d sent %v after %d attempts", what, i+1, m.sent, m.Attempts)
			}
		}
	}
	delivered(2, "the hour's two")
	if n := logs.count(`level=INFO msg="outbox: the sending quota is used up; mail waits, in order" until="1943-05-11 07:00:00"`); n != 1 {
		t.Errorf("%d log lines say mail waits until 07:00, want 1:\n%s", n, logs)
	}
	clk.advance(59 * time.Minute)
	delivered(2, "a minute before the hour")
	clk.advance(time.Minute)
	o.Kick()
	delivered(3, "the day's third, an hour later")
	if logs.count(`mail waits, in order" until="1943-05-12 06:00:00"`) != 1 {
		t.Errorf("the log does not say mail waits until the next day:\n%s", logs)
	}
	clk.advance(22*time.Hour + 59*time.Minute)
	delivered(3, "a minute before the day is over")
	clk.advance(time.Minute)
	o.Kick()
	delivered(5, "the next day's")
}

// quotaSink is an SMTP server that answers every mail with a quota
// reply while full is set, and counts what it takes, by Message-ID.
type quotaSink struct {
	full   atomic.Bool
	reply  *smtp.SMTPError
	atRcpt bool // the reply comes at RCPT; else at MAIL
	mu     sync.Mutex
	tries  int
	got    map[string]int
}

func (k *quotaSink) start(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &sinkSession{k}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func (k *quotaSink) counts() (tries int, got map[string]int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	got = map[string]int{}
	for id, n := range k.got {
		got[id] = n
	}
	return k.tries, got
}

type sinkSession struct{ k *quotaSink }

func (s *sinkSession) Reset()        {}
func (s *sinkSession) Logout() error { return nil }
func (s *sinkSession) Mail(string, *smtp.MailOptions) error {
	s.k.mu.Lock()
	s.k.tries++
	s.k.mu.Unlock()
	if s.k.full.Load() && !s.k.atRcpt {
		return s.k.reply
	}
	return nil
}

func (s *sinkSession) Rcpt(string, *smtp.RcptOptions) error {
	if s.k.full.Load() && s.k.atRcpt {
		return s.k.reply
	}
	return nil
}

func (s *sinkSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	id := regexp.MustCompile(`(?im)^Message-Id: <([^>]+)>`).FindSubmatch(b)
	if id == nil {
		return fmt.Errorf("no Message-ID")
	}
	s.k.mu.Lock()
	s.k.got[string(id[1])]++
	s.k.mu.Unlock()
	return nil
}

// A provider's quota answer stops all sending until the next window, not
// a retry within seconds; then one mail goes first, and once it is taken
// the rest: none lost, none twice.
func TestOutboxQuotaAnswer(t *testing.T) {
	for _, c := range []struct {
		name   string
		reply  *smtp.SMTPError
		atRcpt bool
	}{
		{"550 5.4.5 at RCPT", &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 4, 5}, Message: "Daily user sending quota exceeded"}, true},
		{"421 4.7.0 at MAIL", &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 7, 0}, Message: "Try again later, closing connection"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			k := &quotaSink{reply: c.reply, atRcpt: c.atRcpt, got: map[string]int{}}
			k.full.Store(true)
			addr := k.start(t)
			s, err := NewSender(SMTPConfig{Addr: addr, Security: Plain, From: "attu@attu.test", Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			q := &memQueue{}
			for i := range 3 {
				q.add(Outgoing{To: []string{"alice@attu.test"}, Subject: "report", MessageID: fmt.Sprintf("a%d@attu.test", i+1), Text: "report"})
			}
			clk := &clock{t: time.Date(1943, 5, 11, 6, 0, 0, 0, time.UTC)}
			logs, lg := newLogBuffer(t)
			o := NewOutbox(q, s, OutboxConfig{Interval: time.Minute, RetryMin: 10 * time.Millisecond, RetryMax: 50 * time.Millisecond, Now: clk.Now, Logger: lg})
			runOutbox(t, o)
			eventually(t, 5*time.Second, "the first attempt", func() bool { return q.snapshot()[0].Attempts >= 1 })
			// Well past RetryMax, with kicks and a wake: nothing is tried.
			tries, _ := k.counts()
			for range 5 {
				o.Kick()
				o.Wake()
				time.Sleep(50 * time.Millisecond)
			}
			clk.advance(59 * time.Minute)
			o.Kick()
			time.Sleep(100 * time.Millisecond)
			if again, got := k.counts(); again != tries || len(got) != 0 {
				t.Fatalf("%d attempts after the quota answer, %d mails taken; want none", again-tries, len(got))
			}
			if n := logs.count(`level=WARN msg="outbox: the provider says the sending quota is used up; no mail goes before the next window"`); n != 1 {
				t.Errorf("%d warnings of the quota answer, want 1:\n%s", n, logs)
			}
			for i, m := range q.snapshot() {
				if m.Attempts > 0 && !m.next.Equal(clk.Now().Add(time.Minute)) {
					t.Errorf("mail %d is to be tried again at %v, want the next window %v", i+1, m.next, clk.Now().Add(time.Minute))
				}
			}
			// The next window: the provider takes mail again.
			k.full.Store(false)
			clk.advance(time.Minute)
			o.Kick()
			eventually(t, 5*time.Second, "all three sent", func() bool {
				_, got := k.counts()
				return len(got) == 3
			})
			time.Sleep(100 * time.Millisecond)
			_, got := k.counts()
			for i := range 3 {
				if id := fmt.Sprintf("a%d@attu.test", i+1); got[id] != 1 {
					t.Errorf("%s taken %d times, want once", id, got[id])
				}
			}
			for i, m := range q.snapshot() {
				if m.sent.IsZero() {
					t.Errorf("mail %d not recorded as sent", i+1)
				}
			}
		})
	}
}

// The quota replies of the common providers are told from a recipient's
// full mailbox and other refusals.
func TestQuotaReply(t *testing.T) {
	for _, c := range []struct {
		reply string
		quota bool
	}{
		{"550 5.4.5 Daily user sending quota exceeded.", true},
		{"421 4.7.0 Try again later, closing connection.", true},
		{"451 4.7.28 too many messages from this account", true},
		{"550 5.1.90 Your message can't be sent because you've reached your daily limit for message recipients", true},
		{"554 5.7.0 Sending limit exceeded", true},
		{"452 4.2.2 The email account that you tried to reach is over quota", false},
		{"550 5.1.1 no such mailbox", false},
		{"451 4.3.0 try again later", false},
	} {
		if got := quotaReply.MatchString("mail: smtp: sending x: sending SMTP RCPT TO command: " + c.reply); got != c.quota {
			t.Errorf("%s: quota %v, want %v", c.reply, got, c.quota)
		}
	}
}
