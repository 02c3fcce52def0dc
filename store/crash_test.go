package store

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashEnv names the database the child process of TestCrash plays in.
const crashEnv = "ATTU_STORE_CRASH_DB"

// TestMain runs the crash child instead of the tests when TestCrash starts
// this test binary with crashEnv set.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path)
	}
	os.Exit(m.Run())
}

// crashChild is the child process of TestCrash: it plays steps in a loop
// until it is killed, and ends when its stdin closes, should the parent
// vanish.
func crashChild(path string) {
	db, err := Open(path, &Options{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	if _, err := db.Game("g1"); errors.Is(err, ErrNoGame) {
		if _, err := createGameErr(db, "g1"); err != nil {
			fmt.Println("create:", err)
			os.Exit(2)
		}
	}
	d := newDriver(db, "g1", uint64(os.Getpid()))
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(4)
	}()
	fmt.Println("ready")
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 3))
	for i := 0; ; i++ {
		var err error
		var e *Entry
		switch n := rng.IntN(40); {
		case n == 0:
			e, err = rollbackSome(db)
		case n < 4:
			ref := NewMailRef(fmt.Sprintf("<junk.%d.%d@x>", os.Getpid(), i), nil)
			_, err = db.Refuse(ref, "g1", "not an order file", []Mail{{MessageID: fmt.Sprintf("<err.%d.%d@attu.test>", os.Getpid(), i), To: []string{"x@example.org"}}})
		default:
			e, err = d.step()
		}
		if err != nil {
			fmt.Println("step:", err)
			os.Exit(3)
		}
		if e != nil {
			// The entry is committed: the parent may kill from now on,
			// and the file must keep it.
			fmt.Printf("committed %d\n", e.Seq)
		}
	}
}

func rollbackSome(db *DB) (*Entry, error) {
	g, err := db.Game("g1")
	if err != nil || g.Entries < 6 {
		return nil, err
	}
	log, err := db.Log("g1", g.Entries-5)
	if err != nil {
		return nil, err
	}
	for _, e := range log {
		if e.RolledBackBy == 0 && e.Seq < g.Entries {
			return rollback(db, "g1", e.Seq, "crash test", time.Time{}, nil)
		}
	}
	return nil, nil
}

// crashSeedEnv replays a failing TestCrash: set it to the seed the test
// logged.
const crashSeedEnv = "ATTU_CRASH_SEED"

// crashKills is how many times TestCrash kills its child: 30 in a
// plain run, 20 under -short, 120 in .ci/run.
var crashKills = flag.Int("kills", 0, "TestCrash: how many times the child is killed (0: 30, 20 with -short)")

// TestCrash kills a process that applies steps, over and over, at a random
// moment after it reported a random number of committed entries, and
// checks after each kill that the file opens, passes the consistency check
// (the due index among it), still holds every entry the child reported
// committed and lists the game as due at its time. At the end the
// game it holds must pass an audit.
func TestCrash(t *testing.T) {
	kills := 30
	switch {
	case *crashKills > 0:
		kills = *crashKills
	case testing.Short():
		kills = 20
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
	var committed uint64 // the highest entry any child reported committed
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		// The child ends when its stdin closes, that is when this process
		// ends, so no child outlives a failed test.
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
		line, _ := r.ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child said %q", i, line)
		}
		// Wait for 1 to 4 committed entries, then kill within the next
		// few milliseconds: mid-transaction, mid-fsync or between steps.
		want := 1 + rng.IntN(4)
		for n := 0; n < want; {
			line, err := r.ReadString('\n')
			if err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: the child stopped before committing: %q %v", i, line, err)
			}
			if seq, ok := committedSeq(line); ok {
				committed = max(committed, seq)
				n++
			} else {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: child said %q", i, line)
			}
		}
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		// Whatever the child reported before it died was committed too.
		for {
			line, err := r.ReadString('\n')
			if seq, ok := committedSeq(line); ok {
				committed = max(committed, seq)
			}
			if err != nil {
				break
			}
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child was not killed but ended: %v", i, err)
		}

		db, err := Open(path, nil)
		if err != nil {
			t.Fatalf("kill %d: open: %v", i, err)
		}
		if err := db.Check(toyEngine()); err != nil {
			db.Close()
			t.Fatalf("kill %d: %v", i, err)
		}
		g, err := db.Game("g1")
		due, derr := db.Due(g.Due)
		db.Close()
		if err != nil || derr != nil {
			t.Fatalf("kill %d: %v %v", i, err, derr)
		}
		// The due index lost nothing: the game is due at its record's
		// time (the consistency check above holds them to each other).
		if g.Entries > 1 && (g.Due.IsZero() || len(due) != 1 || due[0] != "g1") {
			t.Fatalf("kill %d: the game is due at %v, the index lists %v by then", i, g.Due, due)
		}
		if g.Entries < committed {
			t.Fatalf("kill %d: the child reported entry %d committed, the file holds %d entries", i, committed, g.Entries)
		}
	}
	db := mustOpen(t, path)
	defer closeChecked(t, db)
	rep := mustAudit(t, mustExport(t, db, "g1", true))
	t.Logf("%d kills; %d entries (%d rolled back), %d dice survive and pass the audit",
		kills, rep.Entries, rep.RolledBack, rep.Dice)
	if uint64(rep.Entries) < committed {
		t.Errorf("the audit saw %d entries, the children committed %d", rep.Entries, committed)
	}
}

// committedSeq reads a child's "committed N" line.
func committedSeq(line string) (uint64, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "committed ")
	if !ok {
		return 0, false
	}
	seq, err := strconv.ParseUint(rest, 10, 64)
	return seq, err == nil
}
