package referee

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind/autoplay"
	"github.com/attu-pbem/attu/store"
)

// crashEnv names the database the child process of TestServiceCrash plays in.
const crashEnv = "ATTU_REFEREE_CRASH_DB"

// crashSeedEnv replays a failing TestServiceCrash: set it to the seed the
// test logged.
const crashSeedEnv = "ATTU_REFEREE_CRASH_SEED"

// TestMain runs the crash child instead of the tests when TestServiceCrash
// starts this test binary with crashEnv set.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
	}
	os.Exit(m.Run())
}

// crashMailbox is the child's view of the mailbox: the messages the
// players send are derived from what the database holds, so that a child
// started after a kill hands the service the message the killed one was
// handling, as a mail daemon re-reads unprocessed mail.
type crashMailbox struct {
	svc *Service
	db  *store.DB
	rng *rand.Rand
}

// crashChild plays games through the service until it is killed: orders
// from the awaited side, messages handed over twice, commands, and the
// clock passing deadlines. It prints "committed ID" once the service
// returned for message ID ("tick" for the clock), and exits on its own
// after 20 s should the parent vanish.
func crashChild(path string) {
	db, err := store.Open(path, &store.Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	svc := New(db, Config{System: windsys.Rules{}, Address: "attu@example.org"})
	mb := &crashMailbox{svc: svc, db: db, rng: rand.New(rand.NewPCG(uint64(os.Getpid()), 9))}
	// The child lives until it is killed; should the test itself die
	// first, the child sees its stdin close and ends. No fixed time limit:
	// on a loaded machine a handful of messages may take long.
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(4)
	}()
	fmt.Println("ready")
	var last *Message
	for {
		id, err := mb.current()
		if err != nil {
			fmt.Println("game:", err)
			os.Exit(3)
		}
		g, err := db.Game(id)
		if err != nil {
			fmt.Println("game:", err)
			os.Exit(3)
		}
		tokens, err := crashTokens(db, id)
		if err != nil {
			fmt.Println("tokens:", err)
			os.Exit(3)
		}
		now := time.Now().UTC()
		var m *Message
		switch n := mb.rng.IntN(20); {
		case n < 2 && last != nil:
			m = last // handed over again
		case n < 4:
			m = &Message{From: addressOf(adjudicator.JP), To: []string{"attu+" + id + "@example.org"},
				MessageID: fmt.Sprintf("<status.%s.%d@players.test>", id, g.Entries), Text: "status\n"}
		case n < 5:
			if err := svc.Tick(g.Deadline.Add(time.Minute)); err != nil {
				fmt.Println("tick:", err)
				os.Exit(3)
			}
			fmt.Println("committed tick")
			continue
		default:
			st, err := windsys.State(db.Position(id))
			if err != nil {
				fmt.Println("state:", err)
				os.Exit(3)
			}
			side := g.Wait.Side
			pick := pickFrom(rand.New(rand.NewPCG(g.Entries, 7)))
			o := autoplay.Orders(st, pick)
			m = &Message{From: addressOf(side), To: []string{"attu+" + id + "@example.org"}, Subject: "orders",
				MessageID: fmt.Sprintf("<orders.%s.%d@players.test>", id, g.Entries), Orders: orderFile(id, tokens[side], o)}
		}
		if err := svc.Handle(m, now); err != nil {
			fmt.Println("handle:", err)
			os.Exit(3)
		}
		last = m
		fmt.Println("committed", m.MessageID)
	}
}

// current returns the game being played, creating the next one when there
// is none or the last has ended.
func (mb *crashMailbox) current() (string, error) {
	ids, err := mb.db.Games()
	if err != nil {
		return "", err
	}
	n := len(ids)
	if n > 0 {
		g, err := mb.db.Game(ids[n-1])
		if err != nil {
			return "", err
		}
		if g.Status != store.Ended {
			return g.ID, nil
		}
	}
	id := fmt.Sprintf("g%02d", n+1)
	_, err = mb.svc.Create(NewGame{ID: id, US: usAddr, JP: jpAddr, Umpire: umpireAddr, Setup: "random"}, time.Now())
	if errors.Is(err, store.ErrGameExists) {
		err = nil
	}
	return id, err
}

// crashTokens reads a game's tokens from its welcome mails in the outbox.
func crashTokens(db *store.DB, id string) (map[adjudicator.Side]string, error) {
	mails, err := db.Outbox(id)
	if err != nil {
		return nil, err
	}
	out := map[adjudicator.Side]string{}
	for _, m := range mails {
		for _, side := range sides {
			if strings.Contains(m.MessageID, ".welcome-"+side.String()+".") {
				_, tok, _ := strings.Cut(m.Text, "\n  token: ")
				tok, _, _ = strings.Cut(tok, "\n")
				out[side] = tok
			}
		}
	}
	if len(out) != 3 {
		return nil, fmt.Errorf("game %s: %d tokens in the welcome mails", id, len(out))
	}
	return out, nil
}

// crashKills is how many times TestServiceCrash kills its child: 15 in a
// plain run, 10 under -short, 50 in .ci/run.
var crashKills = flag.Int("kills", 0, "TestServiceCrash: how many times the child is killed (0: 15, 10 with -short)")

// TestServiceCrash kills a process that plays games through the service,
// over and over, at a random moment after it reported a random number of
// handled messages, and checks after each kill that every message it
// reported is in the ledger, that no message was applied twice, that each
// applied message queued its reports once, and that the file passes the
// consistency check. At the end every game must audit.
func TestServiceCrash(t *testing.T) {
	kills := 15
	switch {
	case *crashKills > 0:
		kills = *crashKills
	case testing.Short():
		kills = 10
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv(crashSeedEnv); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("%s: %v", crashSeedEnv, err)
		}
	}
	t.Logf("seed %d (replay with %s=%d)", seed, crashSeedEnv, seed)
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(seed, 2))
	reported := map[string]bool{}
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		// The child reads its stdin until it closes, which happens when
		// this process ends, so no child outlives a failed test.
		if _, err := cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(out)
		fail := func(format string, args ...any) {
			t.Helper()
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: "+format, append([]any{i}, args...)...)
		}
		if line, _ := r.ReadString('\n'); line != "ready\n" {
			fail("child said %q", line)
		}
		// Wait for 1 to 5 handled messages, then kill within the next few
		// milliseconds: mid-transaction, mid-fsync or between messages.
		want := 1 + rng.IntN(5)
		for n := 0; n < want; n++ {
			line, err := r.ReadString('\n')
			id, ok := strings.CutPrefix(strings.TrimSpace(line), "committed ")
			if err != nil || !ok {
				fail("child said %q (%v)", line, err)
			}
			reported[id] = true
		}
		time.Sleep(time.Duration(rng.IntN(4000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		for {
			line, err := r.ReadString('\n')
			if id, ok := strings.CutPrefix(strings.TrimSpace(line), "committed "); ok {
				reported[id] = true
			}
			if err != nil {
				break
			}
		}
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child was not killed but ended: %v", i, cmd.ProcessState)
		}
		db, err := store.Open(path, nil)
		if err != nil {
			t.Fatalf("kill %d: open: %v", i, err)
		}
		if err := checkOnce(db, reported); err != nil {
			db.Close()
			t.Fatalf("kill %d: %v", i, err)
		}
		db.Close()
	}
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids, _ := db.Games()
	entries := 0
	for _, id := range ids {
		x, err := db.Export(id, true)
		if err != nil {
			t.Fatal(err)
		}
		if rep := store.Audit(x, windsys.Rules{}); !rep.OK() {
			t.Fatalf("game %s: audit: %v", id, rep.Bad)
		}
		entries += len(x.Log)
	}
	t.Logf("%d kills; %d messages reported handled; %d games, %d log entries, all audited", kills, len(reported), len(ids), entries)
}

// checkOnce checks the file after a kill: consistent, every game at its
// time in the due index, every reported
// message in the ledger, no message applied twice, every applied message's
// reports queued once, no Message-ID queued twice.
func checkOnce(db *store.DB, reported map[string]bool) error {
	if err := db.Check(windsys.Rules{}); err != nil {
		return err
	}
	if err := dueMismatch(db); err != nil {
		return err
	}
	for id := range reported {
		if id == "tick" {
			continue
		}
		if _, ok, err := db.Processed(store.MailRef{MessageID: id}); err != nil || !ok {
			return fmt.Errorf("message %s was reported handled but is not in the ledger (%v)", id, err)
		}
	}
	mails, err := db.Outbox("")
	if err != nil {
		return err
	}
	byReceipt := map[uint64][]store.Mail{}
	ids := map[string]bool{}
	for _, m := range mails {
		if ids[m.MessageID] {
			return fmt.Errorf("mail %s queued twice", m.MessageID)
		}
		ids[m.MessageID] = true
		if m.Receipt != 0 {
			byReceipt[m.Receipt] = append(byReceipt[m.Receipt], m)
		}
	}
	games, err := db.Games()
	if err != nil {
		return err
	}
	for _, g := range games {
		log, err := db.Log(g, 1)
		if err != nil {
			return err
		}
		applied := map[string]uint64{}
		for _, e := range log {
			if e.Kind != store.KindOrders || e.MessageID == "" {
				continue
			}
			if prev, dup := applied[e.MessageID]; dup {
				return fmt.Errorf("game %s: message %s applied twice (entries %d and %d)", g, e.MessageID, prev, e.Seq)
			}
			applied[e.MessageID] = e.Seq
			r, ok, err := db.Processed(store.MailRef{MessageID: e.MessageID})
			if err != nil || !ok || r.Entry != e.Seq {
				return fmt.Errorf("game %s: entry %d: receipt %+v", g, e.Seq, r)
			}
			reports := byReceipt[r.Seq]
			var to []string
			for _, m := range reports {
				to = append(to, m.To[0])
			}
			slices.Sort(to)
			// The side awaited next gets its report, the sender its
			// acceptance when no report follows (everyone the final
			// report): each mail to another reader, every one on the
			// receipt.
			if len(reports) == 0 || len(r.Mails) != len(reports) || len(slices.Compact(to)) != len(to) {
				return fmt.Errorf("game %s: message %s queued %d mails (%v), its receipt lists %d", g, e.MessageID, len(reports), to, len(r.Mails))
			}
		}
	}
	return nil
}
