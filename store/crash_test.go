package store

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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
// until it is killed, and exits on its own after 20 s should the parent
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
	fmt.Println("ready")
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 3))
	deadline := time.Now().Add(20 * time.Second) // bounded, should the parent vanish
	for i := 0; time.Now().Before(deadline); i++ {
		var err error
		switch n := rng.IntN(40); {
		case n == 0:
			err = rollbackSome(db)
		case n < 4:
			ref := NewMailRef(fmt.Sprintf("<junk.%d.%d@x>", os.Getpid(), i), nil)
			_, err = db.Refuse(ref, "g1", "not an order file", []Mail{{MessageID: fmt.Sprintf("<err.%d.%d@attu.test>", os.Getpid(), i), To: []string{"x@example.org"}}})
		default:
			_, err = d.step()
		}
		if err != nil {
			fmt.Println("step:", err)
			os.Exit(3)
		}
	}
	os.Exit(4)
}

func rollbackSome(db *DB) error {
	g, err := db.Game("g1")
	if err != nil || g.Entries < 6 {
		return err
	}
	log, err := db.Log("g1", g.Entries-5)
	if err != nil {
		return err
	}
	for _, e := range log {
		if e.RolledBackBy == 0 && e.Seq < g.Entries {
			_, err = db.Rollback("g1", e.Seq, "crash test", time.Time{}, nil)
			return err
		}
	}
	return nil
}

// TestCrash kills a process that applies steps at random moments, over and
// over, and checks after each kill that the file opens, passes the
// consistency check and holds only whole steps. At the end the game it
// holds must pass an audit.
func TestCrash(t *testing.T) {
	kills := 120
	if testing.Short() {
		kills = 20
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	var entries uint64
	grew := 0
	for i := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		if line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("kill %d: child said %q", i, line)
		}
		time.Sleep(time.Duration(rng.IntN(15000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("kill %d: the child was not killed but ended: %v", i, err)
		}

		db, err := Open(path, nil)
		if err != nil {
			t.Fatalf("kill %d: open: %v", i, err)
		}
		if err := db.Check(); err != nil {
			db.Close()
			t.Fatalf("kill %d: %v", i, err)
		}
		g, err := db.Game("g1")
		db.Close()
		if err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		if g.Entries > entries {
			grew++
		}
		entries = g.Entries
	}
	db := mustOpen(t, path)
	defer closeChecked(t, db)
	rep := mustAudit(t, mustExport(t, db, "g1", true))
	t.Logf("%d kills; the log grew between %d of them; %d entries (%d rolled back), %d dice survive and pass the audit",
		kills, grew, rep.Entries, rep.RolledBack, rep.Dice)
	if grew < kills/2 {
		t.Errorf("the child made progress between only %d of %d kills", grew, kills)
	}
}
