package store

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	windsys "github.com/attu-pbem/attu/templates/wind"
	"slices"
	"testing"
	"time"
)

// rolledBackGame plays game g1 ten steps, rolls it back to entry 7 and
// plays ten more.
func rolledBackGame(t testing.TB) *DB {
	t.Helper()
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	d := newDriver(db, "g1", 11)
	d.play(t, 10)
	if _, err := rollback(db, "g1", 7, "umpire", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	d.play(t, 10)
	return db
}

// endedGame plays a game with a rollback in it to the end and exports it.
func endedGame(t testing.TB) *Export {
	t.Helper()
	db := rolledBackGame(t)
	if _, err := db.end("g1", "turns ran out"); err != nil {
		t.Fatal(err)
	}
	x := mustExport(t, db, "g1", false)
	mustAudit(t, x)
	return x
}

// clone deep-copies an export through JSON.
func clone(t *testing.T, x *Export) *Export {
	t.Helper()
	var buf bytes.Buffer
	x.WriteJSON(&buf)
	y, err := ReadExport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

// rechain recomputes every prev, hash and the head, as a forger would.
func rechain(t *testing.T, x *Export) {
	t.Helper()
	prev := ""
	for i := range x.Log {
		var e Entry
		if err := json.Unmarshal(x.Log[i].Entry, &e); err != nil {
			t.Fatal(err)
		}
		e.Prev = prev
		b, _ := encodeEntry(&e)
		x.Log[i].Entry, x.Log[i].Hash = b, hashHex(b)
		prev = x.Log[i].Hash
	}
	x.Head = prev
}

func editEntry(t *testing.T, x *Export, i int, f func(e *Entry)) {
	t.Helper()
	var e Entry
	if err := json.Unmarshal(x.Log[i].Entry, &e); err != nil {
		t.Fatal(err)
	}
	f(&e)
	x.Log[i].Entry, _ = encodeEntry(&e)
}

func expectBad(t *testing.T, x *Export, entry uint64, what string) {
	t.Helper()
	rep := Audit(x, toyEngine())
	if rep.OK() {
		t.Fatalf("%s: the audit passed", what)
	}
	if rep.Bad.Entry != entry {
		t.Fatalf("%s: the audit blames %v, want entry %d", what, rep.Bad, entry)
	}
}

func TestTamperDice(t *testing.T) {
	x := endedGame(t)
	if len(x.Dice) < 30 {
		t.Fatalf("only %d dice", len(x.Dice))
	}
	for i, r := range x.Dice {
		if testing.Short() && i%4 != 0 && i != len(x.Dice)-1 {
			continue // -short: a die in four, and the last
		}
		y := clone(t, x)
		y.Dice[i].Face = r.Face%10 + 1
		expectBad(t, y, r.Entry, fmt.Sprintf("die %d face", r.Seq))
		y = clone(t, x)
		y.Dice[i].Raw[0] ^= 1
		expectBad(t, y, r.Entry, fmt.Sprintf("die %d raw", r.Seq))
	}
}

// tamperEvery is the stride of the order bytes TestTamperOrders flips: 1
// (every byte) in .ci/run, 4 in a plain run, 8 under -short; the last byte
// of each file is always flipped.
var tamperEvery = flag.Int("tamperevery", 0, "TestTamperOrders flips one order byte in this many (0: 4, 8 with -short)")

func TestTamperOrders(t *testing.T) {
	every := 4
	switch {
	case *tamperEvery > 0:
		every = *tamperEvery
	case testing.Short():
		every = 8
	}
	x := endedGame(t)
	n := 0
	for i, o := range x.Orders {
		for j := range len(o.YAML) {
			if j%every != 0 && j != len(o.YAML)-1 {
				continue
			}
			y := *x // Audit only reads: sharing all but the orders is enough
			y.Orders = slices.Clone(x.Orders)
			b := []byte(o.YAML)
			b[j] ^= 1
			y.Orders[i].YAML = string(b)
			expectBad(t, &y, o.Entry, fmt.Sprintf("entry %d byte %d", o.Entry, j))
			n++
		}
		// The decoded orders changed and the chain forged: the replay
		// differs.
		y := clone(t, x)
		editEntry(t, y, int(o.Entry-1), func(e *Entry) {
			ord := entryOrders(e)
			if ord == nil {
				return
			}
			for _, a := range ord.Actions {
				if a.Move != nil {
					a.Move.Path[0]++
				}
				if a.Fire != nil {
					a.Fire.Units = append(a.Fire.Units, a.Fire.Units[0])
				}
			}
			e.Orders, _ = json.Marshal(ord)
		})
		rechain(t, y)
		if len(x.Orders[i].YAML) > 0 && hasActions(y, o.Entry) {
			expectBad(t, y, o.Entry, fmt.Sprintf("entry %d decoded orders", o.Entry))
		}
	}
	t.Logf("%d order bytes altered, each caught at its entry", n)
}

func hasActions(x *Export, seq uint64) bool {
	var e Entry
	json.Unmarshal(x.Log[seq-1].Entry, &e)
	return entryOrders(&e) != nil && len(entryOrders(&e).Actions) > 0
}

func TestTamperEvents(t *testing.T) {
	x := endedGame(t)
	n := 0
	for i := range x.Log {
		var e Entry
		json.Unmarshal(x.Log[i].Entry, &e)
		evs, err := windsys.Events(e.Events)
		if err != nil {
			t.Fatal(err)
		}
		for k := range evs {
			for _, forge := range []bool{false, true} {
				y := clone(t, x)
				editEntry(t, y, i, func(e *Entry) {
					evs, _ := windsys.Events(e.Events)
					evs[k].Kind += "!"
					e.Events, _ = json.Marshal(evs)
				})
				if forge {
					rechain(t, y)
				}
				expectBad(t, y, e.Seq, fmt.Sprintf("entry %d event %d (forged chain %v)", e.Seq, k, forge))
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no events")
	}
}

func TestTamperSeedAndChain(t *testing.T) {
	x := endedGame(t)
	for i := range x.Seed {
		y := clone(t, x)
		b := []byte(y.Seed)
		if b[i] == '0' {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
		y.Seed = string(b)
		expectBad(t, y, 1, fmt.Sprintf("seed digit %d", i))
	}
	// A forged seed with a matching forged commitment changes entry 1.
	y := clone(t, x)
	y.Seed = "ff" + y.Seed[2:]
	y.Commitment = Commitment(mustHex(y.Seed))
	expectBad(t, y, 1, "forged seed and commitment")
	// The head.
	y = clone(t, x)
	y.Head = hashHex([]byte("another head"))
	expectBad(t, y, uint64(len(x.Log)), "head")
	// An entry dropped from the middle.
	y = clone(t, x)
	y.Log = append(y.Log[:5:5], y.Log[6:]...)
	expectBad(t, y, 6, "entry dropped")
	// A rollback mark removed.
	y = clone(t, x)
	for i := range y.Log {
		if y.Log[i].RolledBackBy != 0 {
			y.Log[i].RolledBackBy = 0
			expectBad(t, y, uint64(i+1), "rollback mark")
			break
		}
	}
	// A rollback entry retargeted, chain forged.
	y = clone(t, x)
	for i := range y.Log {
		var e Entry
		json.Unmarshal(y.Log[i].Entry, &e)
		if e.Kind == KindRollback {
			editEntry(t, y, i, func(e *Entry) { e.To-- })
			rechain(t, y)
			expectBad(t, y, e.Seq, "rollback target")
			break
		}
	}
}

func mustHex(s string) []byte {
	var b []byte
	fmt.Sscanf(s, "%x", &b)
	return b
}
