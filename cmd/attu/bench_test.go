package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"io"
	"log/slog"
	"math/rand/v2"
	netmail "net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/mail/loopback"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// benchMail is a loopback mail system with the mailboxes of the
// benchmarks: attu's, the players', the umpire's, and one for the raw
// mail loop.
type benchMail struct {
	sys  *loopback.System
	pass map[string]string
	addr map[string]string
}

func startBenchMail(tb testing.TB) *benchMail {
	tb.Helper()
	sys, err := loopback.Start(nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { sys.Close() })
	m := &benchMail{sys: sys, pass: map[string]string{}, addr: map[string]string{}}
	for _, u := range []string{"attu", "us", "jp", "umpire", "raw"} {
		m.pass[u] = randomPassword()
		if m.addr[u], err = sys.AddUser(u, m.pass[u]); err != nil {
			tb.Fatal(err)
		}
	}
	return m
}

// inbox is the IMAP configuration of user's mailbox, as attu serve would
// have it (IDLE, restarted at the default interval).
func (m *benchMail) inbox(user string) mail.InboxConfig {
	return mail.InboxConfig{Addr: m.sys.IMAPAddr(), Security: mail.Plain, Username: user, Password: m.pass[user],
		Processed: user + "-done", Timeout: 10 * time.Second}
}

func (m *benchMail) smtp() mail.SMTPConfig {
	return mail.SMTPConfig{Addr: m.sys.SMTPAddr(), Security: mail.Plain, Timeout: 10 * time.Second}
}

// playerMail is an orders file as a player's mail program sends it.
func playerMail(from, to string, n int, name string, orders []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: <%s>\r\nTo: <%s>\r\nSubject: orders\r\nDate: %s\r\nMessage-ID: <bench%d.%d@players.test>\r\n",
		from, to, time.Now().Format(time.RFC1123Z), n, time.Now().UnixNano())
	const boundary = "attu-bench"
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"" + boundary + "\"\r\n")
	b.WriteString("\r\n--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nMy orders are attached.\r\n")
	b.WriteString("--" + boundary + "\r\nContent-Type: application/yaml; charset=utf-8\r\n")
	b.WriteString(`Content-Disposition: attachment; filename="` + name + "\"\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.TrimRight(string(orders), "\n"), "\n", "\r\n"))
	b.WriteString("\r\n--" + boundary + "--\r\n")
	return b.Bytes()
}

// benchGames creates games as the benchmarks need them and writes each
// awaited side's next orders (autoplay, from the stored position).
type benchGames struct {
	tb     testing.TB
	db     *store.DB
	svc    *referee.Service
	m      *benchMail
	pick   func(int) int
	n      int
	id     string
	tokens map[adjudicator.Side]string
}

func (g *benchGames) create() {
	g.tb.Helper()
	g.n++
	c, err := g.svc.Create(referee.NewGame{ID: fmt.Sprintf("b%d", g.n), Name: "Benchmark", Setup: "historic",
		US: g.m.addr["us"], JP: g.m.addr["jp"], Umpire: g.m.addr["umpire"]}, time.Now())
	if err != nil {
		g.tb.Fatal(err)
	}
	g.id, g.tokens = c.Game.ID, c.Tokens
}

// next returns the game's next order mail and who sends it, starting a
// new game when the current one has ended or played 20 turns.
func (g *benchGames) next(n int) (from string, raw []byte) {
	g.tb.Helper()
	gm, err := g.db.Game(g.id)
	if err != nil {
		g.tb.Fatal(err)
	}
	if gm.Status == store.Ended || gm.Wait.Turn > 20 {
		return "", nil
	}
	st, err := windsys.State(g.db.Position(g.id))
	if err != nil {
		g.tb.Fatal(err)
	}
	o := autoplay.Orders(st, g.pick)
	file, err := orderFile(g.id, g.tokens[o.Side], o)
	if err != nil {
		g.tb.Fatal(err)
	}
	user := "us"
	if o.Side == adjudicator.JP {
		user = "jp"
	}
	from = g.m.addr[user]
	return from, playerMail(from, "attu+"+g.id+"@"+g.m.sys.Domain(), n, fmt.Sprintf("turn%d.yaml", o.Turn), file)
}

// waitQuiet waits until no delivery has come for a while: the welcome
// mails of a new game, say, are all out.
func waitQuiet(tb testing.TB, sys *loopback.System, quiet time.Duration) {
	tb.Helper()
	n := len(sys.Deliveries())
	for {
		ctx, cancel := context.WithTimeout(context.Background(), quiet)
		ds, err := sys.WaitDeliveries(ctx, n+1)
		cancel()
		if err != nil {
			return
		}
		n = len(ds)
	}
}

// deliverAndWait delivers raw to rcpt and waits until want(deliveries
// since) says every mail it causes has arrived; it returns the time from
// the delivery to the last of them.
func deliverAndWait(tb testing.TB, sys *loopback.System, from, rcpt string, raw []byte, want func(since []loopback.Delivery) bool) time.Duration {
	tb.Helper()
	before := len(sys.Deliveries())
	t0 := time.Now()
	if err := sys.Deliver(from, rcpt, raw); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for n := before + 2; ; n++ {
		ds, err := sys.WaitDeliveries(ctx, n)
		if err != nil {
			for _, d := range ds[before:] {
				tb.Logf("delivered to %s: %.300s", d.To, d.Data)
			}
			tb.Fatalf("after %d deliveries: %v", len(ds)-before-1, err)
		}
		since := ds[before+1:]
		if want(since) {
			return since[len(since)-1].Time.Sub(t0)
		}
		n = len(ds)
	}
}

// messageIDOf reads the Message-ID of a mail written by playerMail.
func messageIDOf(raw []byte) string {
	_, rest, _ := strings.Cut(string(raw), "Message-ID: ")
	id, _, _ := strings.Cut(rest, "\r\n")
	return strings.Trim(id, "<>") // as the extractor reads it
}

// handledHook is a log handler that notes when the daemon has committed a
// mail (its "handled" line), for the benchmark's split of the latency.
type handledHook struct{ f func(time.Time) }

func (h handledHook) Enabled(context.Context, slog.Level) bool { return true }
func (h handledHook) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "handled" {
		h.f(time.Now())
	}
	return nil
}
func (h handledHook) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h handledHook) WithGroup(string) slog.Handler      { return h }

// memQueue is an outbox in memory, for the raw mail loop.
type memQueue struct {
	mu   sync.Mutex
	next uint64
	q    []mail.Queued
}

func (q *memQueue) add(ms []mail.Outgoing) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, m := range ms {
		q.next++
		q.q = append(q.q, mail.Queued{ID: q.next, Mail: m})
	}
}

func (q *memQueue) Pending(_ time.Time, max int) ([]mail.Queued, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.q)
	if max > 0 {
		n = min(n, max)
	}
	return slices.Clone(q.q[:n]), nil
}

func (q *memQueue) MarkSent(ids []uint64, _ time.Time) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.q = slices.DeleteFunc(q.q, func(m mail.Queued) bool { return slices.Contains(ids, m.ID) })
	return nil
}

func (q *memQueue) Retry(uint64, error, time.Time) error { return nil }

// Next says every mail not sent is due: Pending returns them all.
func (q *memQueue) Next() (time.Time, bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return time.Time{}, len(q.q) > 0, nil
}

// sentMails returns the mails ids as the daemon sent them, for the raw
// loop to send again: the store's record, with the map picture, which the
// store does not keep, taken from the delivered copy.
func sentMails(tb testing.TB, db *store.DB, ids []uint64, ds []loopback.Delivery) []mail.Outgoing {
	tb.Helper()
	var out []mail.Outgoing
	for _, id := range ids {
		o, err := db.Mail(id)
		if err != nil {
			tb.Fatal(err)
		}
		if len(o.To) != 1 {
			tb.Fatalf("mail %d goes to %d addresses", o.ID, len(o.To))
		}
		for i, a := range o.Attachments {
			if !a.Dropped {
				continue
			}
			for _, d := range slices.Backward(ds) {
				if h, err := netmail.ReadMessage(bytes.NewReader(d.Data)); err == nil && h.Header.Get("Message-ID") == o.MessageID {
					o.Attachments[i].Data, o.Attachments[i].Dropped = attachmentIn(tb, d.Data, a.Name), false
					break
				}
			}
			if o.Attachments[i].Dropped || len(o.Attachments[i].Data) == 0 {
				tb.Fatalf("mail %d: no %s delivered", o.ID, a.Name)
			}
		}
		m := mail.Outgoing{From: o.From, To: o.To, Subject: o.Subject, MessageID: o.MessageID,
			InReplyTo: o.InReplyTo, References: o.References, Date: o.Queued, Text: o.Text}
		for _, a := range o.Attachments {
			m.Attachments = append(m.Attachments, mail.Attachment{Name: a.Name, Type: a.Type, Data: a.Data})
		}
		out = append(out, m)
	}
	return out
}

// cpuTime is the CPU time this process has used, user and system: the
// servers, the daemon and the benchmark's own driver all run in it. On a
// shared machine it varies less than the clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// percentile is the p-th percentile (0 to 100) of sorted ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	i := int(float64(len(ds)-1) * p / 100)
	return ds[i]
}

// BenchmarkOrderToReports measures the daemon from the outside: an order
// mail is delivered to attu's mailbox on the loopback IMAP server, the
// daemon (IDLE, the game service, the store with fsync, the reports
// rendered, the outbox worker) answers it, and the time runs until the
// last report it causes has reached the loopback SMTP server. Orders go
// one at a time, from autoplay, through games of up to 20 turns.
//
// The raw loop does what costs the mail servers alone: another mailbox,
// watched with the same IDLE inbox, gets the same order mail right after
// the daemon has answered it, and its handler fetches it and sends the
// same reports the daemon sent for it (already rendered, from memory)
// through the same outbox worker; no adjudication, storage or rendering.
// The two take turns, order by order, so that both meet the servers, the
// heap and the machine in the same state.
//
// Metrics: p50-ms and p99-ms of the daemon, orders/s of the daemon and of
// the raw loop (one order at a time, so the inverse of the mean), and
// their ratio.
func BenchmarkOrderToReports(b *testing.B) {
	m := startBenchMail(b)
	db, err := store.Open(filepath.Join(b.TempDir(), "attu.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: m.addr["attu"]})
	var lastHandled atomic.Value // when the daemon last committed a mail
	lastHandled.Store(time.Time{})
	lg := slog.New(handledHook{func(t time.Time) { lastHandled.Store(t) }})
	d, err := newDaemon(svc, daemon.Config{Address: m.addr["attu"], IMAP: m.inbox("attu"), SMTP: m.smtp(), Tick: time.Minute, Logger: lg})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Add(1)
	go func() { defer wg.Done(); d.Run(ctx) }()

	// The raw loop, over the same servers.
	q := &memQueue{}
	snd, err := mail.NewSender(mail.SMTPConfig{Addr: m.sys.SMTPAddr(), Security: mail.Plain, Timeout: 10 * time.Second, From: m.addr["attu"]})
	if err != nil {
		b.Fatal(err)
	}
	ob := mail.NewOutbox(q, snd, mail.OutboxConfig{Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	var cur []mail.Outgoing
	var curMu sync.Mutex
	in, err := mail.NewInbox(m.inbox("raw"), func(ctx context.Context, in *mail.Incoming) error {
		if _, err := in.Fetch(ctx); err != nil {
			return err
		}
		curMu.Lock()
		q.add(cur)
		curMu.Unlock()
		ob.Kick()
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	wg.Add(2)
	go func() { defer wg.Done(); in.Run(ctx, mail.Position{}) }()
	go func() { defer wg.Done(); ob.Run(ctx) }()

	rng := rand.New(rand.NewPCG(1, 2))
	games := &benchGames{tb: b, db: db, svc: svc, m: m, pick: func(n int) int { return rng.IntN(n) }}
	var e2e, raw []time.Duration
	var handled []time.Duration // from the delivery to the commit
	var e2eCPU, rawCPU time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; {
		from, msg := "", []byte(nil)
		if games.id != "" {
			from, msg = games.next(i)
		}
		if msg == nil {
			b.StopTimer()
			games.create()
			d.Kick()
			waitQuiet(b, m.sys, 500*time.Millisecond)
			b.StartTimer()
			continue
		}
		mid := messageIDOf(msg)
		var r store.Receipt
		cpu0 := cpuTime()
		lat := deliverAndWait(b, m.sys, from, "attu+"+games.id+"@"+m.sys.Domain(), msg, func(since []loopback.Delivery) bool {
			var ok bool
			r, ok, err = db.Processed(store.MailRef{MessageID: mid})
			if err != nil {
				b.Fatal(err)
			}
			return ok && len(since) >= len(r.Mails)
		})
		e2eCPU += cpuTime() - cpu0
		handled = append(handled, lastHandled.Load().(time.Time).Sub(time.Now().Add(-lat)))
		e2e = append(e2e, lat)
		sent := sentMails(b, db, r.Mails, m.sys.Deliveries())
		if len(sent) == 0 {
			b.Fatalf("order %d caused no mail: %v", i, r.Outcome)
		}
		rcpts := 0
		for _, o := range sent {
			rcpts += len(o.To)
		}

		// The same mail through the raw loop.
		curMu.Lock()
		cur = sent
		curMu.Unlock()
		cpu0 = cpuTime()
		lat = deliverAndWait(b, m.sys, from, m.addr["raw"], msg, func(since []loopback.Delivery) bool { return len(since) >= rcpts })
		rawCPU += cpuTime() - cpu0
		raw = append(raw, lat)
		i++
	}
	b.StopTimer()
	cancel()
	wg.Wait()

	mean := func(ds []time.Duration) time.Duration {
		var t time.Duration
		for _, d := range ds {
			t += d
		}
		return t / time.Duration(len(ds))
	}
	e2eRate := 1 / mean(e2e).Seconds()
	rawRate := 1 / mean(raw).Seconds()
	slices.Sort(handled)
	b.ReportMetric(float64(percentile(handled, 50).Microseconds())/1000, "commit-p50-ms")
	slices.Sort(e2e)
	slices.Sort(raw)
	b.ReportMetric(float64(percentile(e2e, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(e2e, 99).Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(percentile(raw, 50).Microseconds())/1000, "raw-p50-ms")
	b.ReportMetric(e2eRate, "orders/s")
	b.ReportMetric(rawRate, "raw-orders/s")
	b.ReportMetric(e2eRate/rawRate, "ratio")
	b.ReportMetric(e2eCPU.Seconds()*1000/float64(len(e2e)), "cpu-ms/order")
	b.ReportMetric(rawCPU.Seconds()*1000/float64(len(raw)), "raw-cpu-ms/order")
	b.ReportMetric(0, "ns/op")
}

// rssChild is the memory benchmark's child (TestMain runs it when
// ATTU_RSS_CHILD is set): ATTU_RSS_CHILD names the database, and
// ATTU_RSS_ADDR, ATTU_RSS_IMAP, ATTU_RSS_SMTP, ATTU_RSS_PASS the mail
// system. It runs the daemon until its standard input closes, then prints
// its memory.
func rssChild() int {
	db, err := store.Open(os.Getenv("ATTU_RSS_CHILD"), nil)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer db.Close()
	addr := os.Getenv("ATTU_RSS_ADDR")
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: addr})
	d, err := newDaemon(svc, daemon.Config{Address: addr,
		IMAP: mail.InboxConfig{Addr: os.Getenv("ATTU_RSS_IMAP"), Security: mail.Plain, Username: "attu", Password: os.Getenv("ATTU_RSS_PASS"),
			Processed: "attu-done", Timeout: 10 * time.Second},
		SMTP: mail.SMTPConfig{Addr: os.Getenv("ATTU_RSS_SMTP"), Security: mail.Plain, Timeout: 10 * time.Second}})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	// One look at every game's deadlines, timed: the daemon starts with
	// one, then repeats it every Tick.
	t0 := time.Now()
	if err := svc.Tick(time.Now()); err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Printf("Tick: %d ms\n", time.Since(t0).Milliseconds())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n') // the parent says when
	runtime.GC()
	status, _ := os.ReadFile("/proc/self/status")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for _, l := range strings.Split(string(status), "\n") {
		for _, k := range []string{"VmRSS:", "VmHWM:", "RssAnon:", "RssFile:"} {
			if strings.HasPrefix(l, k) {
				fmt.Println(strings.Join(strings.Fields(l), " "))
			}
		}
	}
	fmt.Printf("HeapInuse: %d kB\n", ms.HeapInuse/1024)
	cancel()
	<-done
	return 0
}

// memGames is how many games BenchmarkDaemonMemory's daemon holds.
var memGames = flag.Int("memgames", 1000, "the number of games BenchmarkDaemonMemory's daemon holds")

// BenchmarkDaemonMemory measures the resident memory of one daemon
// holding -memgames active games (1,000 unless told): the games are
// created in this process,
// each game's welcome mails marked sent right after it is created, as the
// running daemon sends them at once; then a child process (this
// test binary, see TestMain) runs the daemon over the file against the
// loopback servers of this one. While it runs, one orders mail for each of
// 50 games goes through it, after one look at every game's deadlines
// (Service.Tick, timed: tick-ms); then the child collects its garbage and reports VmRSS (and
// VmHWM, its peak) from /proc/self/status, so this process's own memory
// does not count.
func BenchmarkDaemonMemory(b *testing.B) {
	nGames, nOrders := *memGames, 50
	m := startBenchMail(b)
	path := filepath.Join(b.TempDir(), "attu.db")
	db, err := store.Open(path, &store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	svc := referee.New(db, referee.Config{System: windsys.Rules{}, Address: m.addr["attu"]})
	rng := rand.New(rand.NewPCG(3, 4))
	games := &benchGames{tb: b, db: db, svc: svc, m: m, pick: func(n int) int { return rng.IntN(n) }}
	type order struct {
		from, id string
		raw      []byte
	}
	var orders []order
	for i := range nGames {
		games.create()
		pending, err := db.Pending(time.Now().Add(time.Hour), 0)
		if err != nil {
			b.Fatal(err)
		}
		var ids []uint64
		for _, p := range pending {
			ids = append(ids, p.ID)
		}
		if err := db.MarkSentAll(ids, time.Now()); err != nil {
			b.Fatal(err)
		}
		if i < nOrders {
			from, raw := games.next(i)
			orders = append(orders, order{from, games.id, raw})
		}
	}
	db.Close()
	fi, _ := os.Stat(path)

	var rss, hwm, tickMS float64
	for range b.N {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "ATTU_RSS_CHILD="+path, "ATTU_RSS_ADDR="+m.addr["attu"],
			"ATTU_RSS_IMAP="+m.sys.IMAPAddr(), "ATTU_RSS_SMTP="+m.sys.SMTPAddr(), "ATTU_RSS_PASS="+m.pass["attu"])
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		tick, _ := r.ReadString('\n')
		if l, _ := r.ReadString('\n'); l != "ready\n" {
			b.Fatalf("child: %q %q", tick, l)
		}
		for _, o := range orders {
			deliverAndWait(b, m.sys, o.from, "attu+"+o.id+"@"+m.sys.Domain(), o.raw, func(since []loopback.Delivery) bool { return len(since) >= 1 })
		}
		stdin.Close()
		outb, _ := io.ReadAll(r)
		out := string(outb)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("child: %v\n%s", err, out)
		}
		b.Logf("daemon with %d games (file %.1f MB):\n%s%s", nGames, float64(fi.Size())/(1<<20), tick, out)
		tickMS = kB(tick, "Tick:")
		rss, hwm = kB(out, "VmRSS:")/1024, kB(out, "VmHWM:")/1024
	}
	b.ReportMetric(rss, "RSS-MB")
	b.ReportMetric(hwm, "peak-RSS-MB")
	b.ReportMetric(tickMS, "tick-ms")
	b.ReportMetric(0, "ns/op")
}

// kB reads "key n kB" from the child's report.
func kB(out, key string) float64 {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			n, _ := strconv.ParseFloat(f[1], 64)
			return n
		}
	}
	return 0
}
