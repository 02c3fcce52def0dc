package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

func TestCreateStepReopenContinue(t *testing.T) {
	db, path := openTestDB(t)
	g := createTestGame(t, db, "g1")
	if g.Commitment != Commitment(testSeed()) || g.DiceNext != 1 || g.Entries != 1 {
		t.Fatalf("new game: %+v", g)
	}
	if _, err := db.Create(NewGame{Rules: toyEngine(), ID: "g1", Start: startAt(openingState())}); !errors.Is(err, ErrGameExists) {
		t.Fatalf("second create: %v", err)
	}
	newDriver(db, "g1", 1).play(t, 12)
	before, _ := db.Game("g1")
	closeChecked(t, db)

	db = mustOpen(t, path)
	t.Cleanup(func() { closeChecked(t, db) })
	after, err := db.Game("g1")
	if err != nil {
		t.Fatal(err)
	}
	if after.Head != before.Head || after.Entries != 13 || after.DiceNext != before.DiceNext {
		t.Fatalf("after reopening: %+v, before %+v", after, before)
	}
	newDriver(db, "g1", 2).play(t, 12)
	g, _ = db.Game("g1")
	if g.Entries != 25 || g.DiceNext <= before.DiceNext {
		t.Fatalf("after continuing: %d entries, next die %d", g.Entries, g.DiceNext)
	}
	rep := mustAudit(t, mustExport(t, db, "g1", true))
	if rep.Entries != 25 || !rep.SeedShown || !rep.Replayed || rep.Dice != int(g.DiceNext-1) {
		t.Fatalf("report: %+v", rep)
	}
	if ids, _ := db.Games(); len(ids) != 1 || ids[0] != "g1" {
		t.Fatalf("games: %v", ids)
	}
}

func mustExport(t testing.TB, db *DB, id string, reveal bool) *Export {
	t.Helper()
	x, err := db.Export(id, reveal)
	if err != nil {
		t.Fatal(err)
	}
	// Through JSON and back, as attu export and attu audit do.
	var buf bytes.Buffer
	if err := x.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	y, err := ReadExport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

func TestRollbackThenContinue(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	d := newDriver(db, "g1", 3)
	d.play(t, 9) // us, jp, us, jp, us, jp, us, jp, us → entries 2..10
	g, _ := db.Game("g1")
	diceBefore := g.DiceNext
	b4, err := db.PositionAt("g1", 4)
	if err != nil {
		t.Fatal(err)
	}
	snap4, err := decodeTestState(b4)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := rollback(db, "g1", 4, "umpire: US orders sent by mistake", time.Time{}, []Mail{{MessageID: "<rb@attu.test>", To: []string{"us@example.org"}, Subject: "rolled back"}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ = db.Game("g1")
	e4, _ := db.Log("g1", 4)
	if g.Current != 4 || g.Wait != e4[0].Next || g.DiceNext != diceBefore || rb.To != 4 {
		t.Fatalf("after rollback: %+v", g)
	}
	s, _ := testState(db, "g1")
	if stateHash(s) != stateHash(snap4) {
		t.Fatal("position in force is not entry 4's")
	}
	log, _ := db.Log("g1", 1)
	for _, e := range log {
		want := uint64(0)
		if e.Seq > 4 && e.Seq < rb.Seq {
			want = rb.Seq
		}
		if e.RolledBackBy != want {
			t.Errorf("entry %d rolled back by %d, want %d", e.Seq, e.RolledBackBy, want)
		}
	}
	// Rolling back to an undone entry, or to the head, is refused.
	if _, err := rollback(db, "g1", 6, "", time.Time{}, nil); !errors.Is(err, ErrRollback) {
		t.Fatalf("rollback to an undone entry: %v", err)
	}
	if _, err := rollback(db, "g1", rb.Seq, "", time.Time{}, nil); !errors.Is(err, ErrRollback) {
		t.Fatalf("rollback to the head: %v", err)
	}
	// Continue: new dice, never the old ones again.
	e, err := d.step()
	if err != nil {
		t.Fatal(err)
	}
	if e.DiceTo != 0 && e.DiceFrom != diceBefore {
		t.Fatalf("after rollback the dice start at %d, want %d", e.DiceFrom, diceBefore)
	}
	d.play(t, 6)
	// A second rollback, to the first rollback entry itself.
	if _, err := rollback(db, "g1", rb.Seq, "again", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	d.play(t, 5)
	if _, err := db.end("g1", "U.S. victory (3.8)"); err != nil {
		t.Fatal(err)
	}
	none := &wind.Orders{Side: wind.US, Turn: 1, Wait: wind.WaitActions}
	if _, err := db.apply("g1", Step{Orders: none, Raw: orderFile("g1", RedactedToken, none)}, toyEngine()); !errors.Is(err, ErrNotActive) {
		t.Fatalf("step after the end: %v", err)
	}
	x := mustExport(t, db, "g1", false)
	if x.Seed == "" {
		t.Fatal("ended game exported without its seed")
	}
	rep := mustAudit(t, x)
	if rep.RolledBack == 0 {
		t.Fatal("audit saw no rolled-back entries")
	}
	var out strings.Builder
	rep.WriteText(&out)
	t.Log("\n" + out.String())
}

func TestApplyIsAllOrNothing(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	before, _ := db.Game("g1")
	mails, _ := db.Outbox("")
	boom := errors.New("boom")
	o := &wind.Orders{Side: wind.US, Turn: 1, Wait: wind.WaitActions}
	// The step rolls its dice and chains its entry, then its reply fails.
	rolled := 0
	_, err := db.apply("g1", Step{Orders: o, Raw: orderFile("g1", RedactedToken, o)}, toyEngine(), func(out *Outcome) (reply, error) {
		rolled = int(out.Entry.DiceTo - out.Entry.DiceFrom)
		return reply{Outbox: []Mail{{MessageID: "<lost@attu.test>", To: []string{"us@example.org"}}}}, boom
	})
	if !errors.Is(err, boom) || rolled == 0 {
		t.Fatalf("%v after %d dice", err, rolled)
	}
	after, _ := db.Game("g1")
	if after.DiceNext != before.DiceNext || after.Head != before.Head {
		t.Fatal("a failed step left traces")
	}
	if m, _ := db.Outbox(""); len(m) != len(mails) {
		t.Fatal("a failed step queued mail")
	}
}

func TestLedgerExactlyOnce(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	d := newDriver(db, "g1", 4)
	d.play(t, 2) // now U.S. actions of turn 2
	g, _ := db.Game("g1")
	o := &wind.Orders{Side: wind.US, Turn: g.Wait.Turn, Wait: g.Wait.Kind}
	raw := orderFile("g1", RedactedToken, o)
	ref := NewMailRef("<once@players.test>", raw)
	rf := func(*Outcome) (reply, error) {
		return reply{Outbox: []Mail{{MessageID: "<reply.once@attu.test>", To: []string{"us@example.org"}}}}, nil
	}
	e, err := db.apply("g1", Step{Orders: o, Raw: raw, Received: time.Now(), Mail: &ref}, toyEngine(), rf)
	if err != nil {
		t.Fatal(err)
	}
	r, ok, err := db.Processed(ref)
	if err != nil || !ok || r.Entry != e.Seq || r.Outcome != "accepted" || len(r.Mails) != 1 {
		t.Fatalf("receipt %+v %v %v", r, ok, err)
	}
	// The same mail again (say after a crash before it was marked \Seen).
	if _, err := db.apply("g1", Step{Orders: o, Raw: raw, Received: time.Now(), Mail: &ref}, toyEngine(), rf); !errors.Is(err, ErrProcessed) {
		t.Fatalf("second apply: %v", err)
	}
	// Stale orders: the game now waits for the Japanese.
	ref2 := NewMailRef("<stale@players.test>", raw)
	_, err = db.apply("g1", Step{Orders: o, Raw: raw, Mail: &ref2}, toyEngine(), rf)
	var refused *RefusedError
	if !errors.Is(err, ErrStale) || !errors.As(err, &refused) || len(refused.Problems) != 1 ||
		refused.Problems[0].String() != "1:1: the game waits for the Japanese actions of turn 2 (May 12, day), not U.S. actions" {
		t.Fatalf("stale orders: %v", err)
	}
	rr, err := db.Refuse(ref2, "g1", "stale: the game waits for turn 1 actions from jp", []Mail{{MessageID: "<err.stale@attu.test>", To: []string{"us@example.org"}}})
	if err != nil || rr.Entry != 0 || len(rr.Mails) != 1 {
		t.Fatalf("refuse: %+v %v", rr, err)
	}
	if _, err := db.Refuse(ref2, "g1", "again", nil); !errors.Is(err, ErrProcessed) {
		t.Fatalf("second refuse: %v", err)
	}
	if _, err := db.Refuse(NewMailRef("<nogame@x>", nil), "", "no game named", nil); err != nil {
		t.Fatal(err)
	}
}

// Tokens never leave the server: an order file that still carries one is
// refused before anything is written, whatever way it is written.
func TestApplyRefusesTokens(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 6).play(t, 2) // now U.S. actions of turn 2
	g, _ := db.Game("g1")
	o := &wind.Orders{Side: wind.US, Turn: g.Wait.Turn, Wait: g.Wait.Kind}
	for _, raw := range []string{
		string(orderFile("g1", "us-token", o)),
		"side: us\ntoken: \"REDACTED \"\n",
		"side: us\ntoken: [REDACTED]\n",
		"side: us\n---\ntoken: us-token\n",
		"token: [\n",
	} {
		_, err := db.apply("g1", Step{Orders: o, Raw: []byte(raw)}, toyEngine())
		if !errors.Is(err, ErrToken) {
			t.Errorf("%q: %v", raw, err)
		}
	}
	if after, _ := db.Game("g1"); after.Head != g.Head {
		t.Fatal("a refused file left traces")
	}
	if _, err := db.apply("g1", Step{Orders: o, Raw: orderFile("g1", RedactedToken, o)}, toyEngine()); err != nil {
		t.Fatal(err)
	}
}

func TestOutbox(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 5).play(t, 1)
	now := time.Now()
	p, err := db.Pending(now, 0)
	if err != nil || len(p) != 4 { // welcome + three reports
		t.Fatalf("pending: %d %v", len(p), err)
	}
	for i := 1; i < len(p); i++ {
		if p[i].ID <= p[i-1].ID {
			t.Fatal("outbox not in queue order")
		}
	}
	if err := db.MarkSentAll([]uint64{p[0].ID}, now); err != nil {
		t.Fatal(err)
	}
	if err := db.Retry(p[1].ID, errors.New("421 try later"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if p, _ := db.Pending(now, 0); len(p) != 2 {
		t.Fatalf("pending after one sent and one deferred: %d", len(p))
	}
	if p, _ := db.Pending(now.Add(2*time.Minute), 1); len(p) != 1 || p[0].LastError != "421 try later" {
		t.Fatalf("pending later: %+v", p)
	}
	if err := db.MarkSentAll([]uint64{9999}, now); !errors.Is(err, ErrNoMail) {
		t.Fatal(err)
	}
}

func TestTokensAndStatus(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	g, _ := db.Game("g1")
	if !g.CheckToken(wind.US, "us-token") || g.CheckToken(wind.US, "jp-token") || g.CheckToken(wind.NoSide, "") {
		t.Fatal("token check")
	}
	for _, p := range g.Players {
		if bytes.Contains(p.TokenHash, []byte("token")) {
			t.Fatal("token stored in clear")
		}
	}
	tok, err := NewToken()
	if err != nil || len(tok) != 24 {
		t.Fatalf("token %q %v", tok, err)
	}
	if _, err := db.Transact("g1", nil, func(tx *Txn) error {
		tx.SetPlayer(wind.US, "new-us@example.org", tok)
		return tx.SetStatus(Paused)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := newDriver(db, "g1", 6).step(); !errors.Is(err, ErrNotActive) {
		t.Fatalf("step while paused: %v", err)
	}
	db.Transact("g1", nil, func(tx *Txn) error {
		tx.SetDeadline(time.Date(1943, 5, 12, 0, 0, 0, 0, time.UTC))
		return tx.SetStatus(Active)
	})
	g, _ = db.Game("g1")
	if !g.CheckToken(wind.US, tok) || g.Players[0].Address != "new-us@example.org" || g.Deadline.Day() != 12 || g.Status != Active {
		t.Fatalf("after changes: %+v", g)
	}
	if _, err := db.Game("nope"); !errors.Is(err, ErrNoGame) {
		t.Fatal(err)
	}
}

func TestSchemaVersion(t *testing.T) {
	_, path := openTestDB(t)
	// A file from a newer release is refused.
	newer := path + ".newer"
	b, err := bolt.Open(newer, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Update(func(tx *bolt.Tx) error {
		m, _ := tx.CreateBucket(bMeta)
		return m.Put(kVersion, u64(SchemaVersion+1))
	})
	b.Close()
	if _, err := Open(newer, nil); !errors.Is(err, ErrSchema) {
		t.Fatalf("newer file: %v", err)
	}
	// An empty bbolt file (version 0) is migrated.
	empty := path + ".empty"
	b, _ = bolt.Open(empty, 0o600, nil)
	b.Close()
	db := mustOpen(t, empty)
	defer closeChecked(t, db)
	db.bolt.View(func(tx *bolt.Tx) error {
		if v := binary.BigEndian.Uint64(tx.Bucket(bMeta).Get(kVersion)); v != SchemaVersion {
			t.Errorf("version %d", v)
		}
		return nil
	})
}

func TestCheckFindsDamage(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 7).play(t, 4)
	for _, damage := range []struct {
		name string
		f    func(g *bolt.Bucket, tx *bolt.Tx) error
	}{
		{"snapshot deleted", func(g *bolt.Bucket, tx *bolt.Tx) error { return g.Bucket(bSnapshots).Delete(u64(3)) }},
		{"die deleted", func(g *bolt.Bucket, tx *bolt.Tx) error { return g.Bucket(bDice).Delete(u64(2)) }},
		{"mail deleted", func(g *bolt.Bucket, tx *bolt.Tx) error { return tx.Bucket(bOutbox).Delete(u64(2)) }},
		{"receipt deleted", func(g *bolt.Bucket, tx *bolt.Tx) error { return tx.Bucket(bLedger).Delete(u64(1)) }},
		{"entry altered", func(g *bolt.Bucket, tx *bolt.Tx) error {
			v := bytes.Replace(g.Bucket(bLog).Get(u64(2)), []byte("weather"), []byte("Weather"), 1)
			return g.Bucket(bLog).Put(u64(2), v)
		}},
	} {
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			if err := damage.f(tx.Bucket(bGames).Bucket([]byte("g1")), tx); err != nil {
				return err
			}
			if checkErrs := checkTx(tx, []Rules{toyEngine()}); len(checkErrs) == 0 {
				t.Errorf("%s: Check found nothing", damage.name)
			}
			return errors.New("undo")
		})
		if err == nil || err.Error() != "undo" {
			t.Fatal(err)
		}
	}
}

func TestExportHidesSeedWhileRunning(t *testing.T) {
	db, _ := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 8).play(t, 8)
	x := mustExport(t, db, "g1", false)
	if x.Seed != "" {
		t.Fatal("seed revealed while the game runs")
	}
	raw, _ := json.Marshal(x)
	if bytes.Contains(raw, []byte("token")) && bytes.Contains(raw, []byte("token_hash")) {
		t.Fatal("export carries token hashes")
	}
	rep := mustAudit(t, x)
	if rep.SeedShown {
		t.Fatal("report claims the seed was checked")
	}
}

// A version 1 file migrates when its games hold nothing version 2 forbids,
// and is refused, naming the game, when an order file kept its token.
func TestMigrateVersion1(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 9).play(t, 2)
	setVersion := func(db *DB, v uint64) {
		db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(kVersion, u64(v)) })
	}
	setVersion(db, 1)
	db.Close()
	db = mustOpen(t, path) // migrated to version 2
	closeChecked(t, db)
	db = mustOpen(t, path)
	setVersion(db, 1)
	db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bGames).Bucket([]byte("g1")).Bucket(bOrders).Put(u64(2), []byte("side: us\ntoken: us-token\n"))
	})
	db.Close()
	if _, err := Open(path, nil); err == nil || !strings.Contains(err.Error(), "game g1") {
		t.Fatalf("a version 1 file with a token: %v", err)
	}
}

// A version 2 file whose dice log holds purposes in words is refused,
// naming the game; one whose games have rolled no dice migrates.
func TestMigrateVersion2(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "quiet")
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 10).play(t, 2)
	setVersion := func(db *DB, v uint64) {
		db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(kVersion, u64(v)) })
	}
	setVersion(db, 2)
	db.bolt.Update(func(tx *bolt.Tx) error {
		// Die 1 as version 2 wrote it: words, and no "seen" for a die both
		// sides saw.
		old := `{"seq":1,"entry":2,"turn":1,"wait":"actions","purpose":"weather","raw":[196],"face":6}`
		return tx.Bucket(bGames).Bucket([]byte("g1")).Bucket(bDice).Put(u64(1), []byte(old))
	})
	db.Close()
	if _, err := Open(path, nil); err == nil || !strings.Contains(err.Error(), "game g1") {
		t.Fatalf("a version 2 file with dice in words: %v", err)
	}

	db2, path2 := openTestDB(t)
	createTestGame(t, db2, "quiet")
	setVersion(db2, 2)
	db2.Close()
	db2 = mustOpen(t, path2)
	defer closeChecked(t, db2)
	if g, err := db2.Game("quiet"); err != nil || g.Wait != (wind.Wait{Turn: 1, Side: wind.US, Kind: wind.WaitActions}) {
		t.Fatalf("a version 2 game without dice: %+v, %v", g, err)
	}
}

// A version 4 file migrates when its events are data, and is refused,
// naming the game, when an entry holds events as sentences.
func TestMigrateVersion4(t *testing.T) {
	db, path := openTestDB(t)
	createTestGame(t, db, "g1")
	newDriver(db, "g1", 10).play(t, 2)
	setVersion := func(db *DB, v uint64) {
		db.bolt.Update(func(tx *bolt.Tx) error { return tx.Bucket(bMeta).Put(kVersion, u64(v)) })
	}
	setVersion(db, 4)
	db.Close()
	db = mustOpen(t, path) // migrated to version 5
	closeChecked(t, db)
	db = mustOpen(t, path)
	setVersion(db, 4)
	db.bolt.Update(func(tx *bolt.Tx) error {
		log := tx.Bucket(bGames).Bucket([]byte("g1")).Bucket(bLog)
		var e map[string]any
		if err := json.Unmarshal(log.Get(u64(2)), &e); err != nil {
			return err
		}
		e["events"] = []any{map[string]any{"kind": "move", "text": "1/17-A moves 2821→2720 (1 MP)"}}
		v, _ := json.Marshal(e)
		return log.Put(u64(2), v)
	})
	db.Close()
	if _, err := Open(path, nil); err == nil || !strings.Contains(err.Error(), "game g1") || !strings.Contains(err.Error(), "entry 2") {
		t.Fatalf("a version 4 file with events in words: %v", err)
	}
}
