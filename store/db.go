package store

import (
	"bytes"
	"cmp"
	"compress/flate"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/attu-pbem/attu/adjudicator"
)

// SchemaVersion is the layout this package reads and writes. Open migrates
// older files up to it, one version at a time.
const SchemaVersion = 12

// Bucket and key names; see the package documentation for the layout.
var (
	bMeta        = []byte("meta")
	bGames       = []byte("games")
	bLedger      = []byte("ledger")
	bLedgerIndex = []byte("ledger-index")
	bOutbox      = []byte("outbox")
	bDue         = []byte("due") // the due index (due.go)

	bLog       = []byte("log")
	bMarks     = []byte("marks")
	bOrders    = []byte("orders")
	bDice      = []byte("dice")
	bSnapshots = []byte("snapshots")

	kVersion = []byte("version")
	kGame    = []byte("game")
)

// DB is a bbolt file holding any number of games, the ledger of processed
// mails and the outbox. It is safe for concurrent use.
type DB struct {
	bolt *bolt.DB
	now  func() time.Time
}

// Options tunes Open. The zero value is fine.
type Options struct {
	Timeout time.Duration    // how long Open waits for another process to release the file; zero: a second
	NoSync  bool             // no fsync after each commit: for tests and benchmarks only
	Now     func() time.Time // the clock of the times the store records; nil: time.Now
	// ReadOnly opens an existing file for reading, never created or
	// migrated, shared with other readers but not with a writer.
	ReadOnly bool
}

// Open opens or creates the database at path and migrates it to
// SchemaVersion. It returns ErrSchema for a file from a newer release (or
// an older one, read-only) and ErrLocked when another process still holds
// the file after Options.Timeout; read-only, a missing file is an error
// wrapping fs.ErrNotExist.
func Open(path string, opts *Options) (*DB, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.Timeout = cmp.Or(o.Timeout, time.Second)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.ReadOnly {
		// bbolt would refuse a missing file too, but with a less plain
		// error; an empty file is not a database either.
		if fi, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		} else if fi.Size() == 0 {
			return nil, fmt.Errorf("store: %s is empty, not a game database", path)
		}
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout, NoSync: o.NoSync, ReadOnly: o.ReadOnly})
	if errors.Is(err, berrors.ErrTimeout) {
		err = ErrLocked
	}
	if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	db := &DB{bolt: b, now: o.Now}
	if o.ReadOnly {
		err = b.View(checkVersion)
	} else {
		err = b.Update(migrate)
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return db, nil
}

// Close closes the file.
func (db *DB) Close() error { return db.bolt.Close() }

// Bolt returns the underlying bbolt handle, for backups (Tx.WriteTo) and
// tools; writing through it bypasses the store's invariants.
func (db *DB) Bolt() *bolt.DB { return db.bolt }

// migrations[v] brings a file from schema version v to v+1; nil when
// version v+1 only tells an earlier release that it cannot read what this
// one writes. Version 0 is an empty file. Never edit a released
// migration: append a new one. A migration that would have to rewrite a
// hashed entry refuses the game instead, naming it (eachGame).
var migrations = []func(tx *bolt.Tx) error{
	0: func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bGames, bLedger, bLedgerIndex, bOutbox} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	},
	// Version 2: a step is a side's orders and everything the rules resolve
	// after them (no more entries of kind "procedure"), and stored order
	// files carry no token.
	1: eachGame("was written by a development release (%v): export it with that release", func(gb *bolt.Bucket) error {
		err := gb.Bucket(bLog).ForEach(func(k, v []byte) error {
			var e struct{ Kind Kind }
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			if e.Kind == "procedure" {
				return fmt.Errorf("entry %d is a server procedure", binary.BigEndian.Uint64(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		return gb.Bucket(bOrders).ForEach(func(k, v []byte) error {
			if err := checkRedacted(v); err != nil {
				return fmt.Errorf("entry %d: %w", binary.BigEndian.Uint64(k), err)
			}
			return nil
		})
	}),
	// Version 3: each die in the dice log has a typed purpose, the side
	// that rolled it and who may see it ("seen", always written, its zero
	// the umpire alone), where version 2 wrote the purpose in words and
	// left "seen" out for dice both sides saw; and an ended game waits for
	// kind "ended". The form is told by the shape of "seen".
	2: eachGame("was written by an earlier release, whose dice log this one cannot read (%v): finish or export it with that release", func(gb *bolt.Bucket) error {
		_, v := gb.Bucket(bDice).Cursor().First()
		if v == nil {
			return nil
		}
		var r struct {
			Seen json.RawMessage `json:"seen"`
		}
		if err := json.Unmarshal(v, &r); err != nil || len(r.Seen) == 0 || r.Seen[0] != '"' {
			return errors.New("its dice are in words")
		}
		return nil
	}),
	// Version 4: logs may hold notes (KindNote) and a game's record the
	// game service's own (Game.Service).
	3: nil,
	// Version 5: events are data (wind.Event: a kind, how much each
	// player sees of it, its facts), no longer a sentence and the one side
	// that may read it.
	4: eachGame("was written by a development release (%v): export it with that release", func(gb *bolt.Bucket) error {
		return gb.Bucket(bLog).ForEach(func(k, v []byte) error {
			var e struct {
				Events []map[string]json.RawMessage `json:"events"`
			}
			if err := json.Unmarshal(v, &e); err != nil {
				return err
			}
			for _, ev := range e.Events {
				if _, words := ev["text"]; words {
					return fmt.Errorf("entry %d holds its events as sentences", binary.BigEndian.Uint64(k))
				}
			}
			return nil
		})
	}),
	// Version 6: the outbox keeps attachment bodies once, by content and
	// compressed, apart from the mails (migrateOutbox, blob.go).
	5: migrateOutbox,
	// Version 7: a sent mail keeps no picture the game service can draw
	// again; each records the log entry it was drawn from
	// (migrateDrawn, blob.go).
	6: migrateDrawn,
	// Version 8: every text and attachment body is compressed on its own,
	// none against another (migrateBlobs, blob.go).
	7: migrateBlobs,
	// Version 9: every new log entry commits a random secret
	// (Entry.Secret); older entries keep none.
	8: nil,
	// Version 10: the ledger index is keyed by a hash of the Message-ID,
	// which may be longer than a bbolt key (migrateLedgerKeys, outbox.go).
	9: migrateLedgerKeys,
	// Version 11: a game's record names its system (Game.System); every
	// game before is War in the Wind's (migrateSystem).
	10: migrateSystem,
	// Version 12: the due index of Game.Due, every game not ended due at
	// once (migrateDue, due.go).
	11: migrateDue,
}

// migrateSystem writes into every game's record the system it is played
// by, SystemBefore, leaving the rest of the record as it was.
func migrateSystem(tx *bolt.Tx) error {
	return eachGame("cannot be given its system: %w", func(gb *bolt.Bucket) error {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(gb.Get(kGame), &rec); err != nil {
			return err
		}
		if _, ok := rec["system"]; ok {
			return nil
		}
		rec["system"], _ = json.Marshal(SystemBefore)
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return gb.Put(kGame, b)
	})(tx)
}

// eachGame is a migration that runs check on every game and refuses the
// first game it finds wrong, saying why in the words of refusal.
func eachGame(refusal string, check func(gb *bolt.Bucket) error) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		games := tx.Bucket(bGames)
		return games.ForEachBucket(func(id []byte) error {
			if err := check(games.Bucket(id)); err != nil {
				return fmt.Errorf("game %s "+refusal, id, err)
			}
			return nil
		})
	}
}

// checkVersion accepts a file of this release's schema, for reading only.
func checkVersion(tx *bolt.Tx) error {
	meta := tx.Bucket(bMeta)
	if meta == nil || len(meta.Get(kVersion)) != 8 || tx.Bucket(bGames) == nil {
		return errors.New("not a game database (no schema version)")
	}
	switch v := binary.BigEndian.Uint64(meta.Get(kVersion)); {
	case v > SchemaVersion:
		return fmt.Errorf("%w (file has version %d, this release reads %d)", ErrSchema, v, SchemaVersion)
	case v < SchemaVersion:
		return fmt.Errorf("%w: the file has version %d and a read-only open does not migrate it to %d; open it once for writing",
			ErrSchema, v, SchemaVersion)
	}
	return nil
}

func migrate(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bMeta)
	if err != nil {
		return err
	}
	v := uint64(0)
	if b := meta.Get(kVersion); b != nil {
		v = binary.BigEndian.Uint64(b)
	}
	if v > SchemaVersion {
		return fmt.Errorf("%w (file has version %d, this release reads %d)", ErrSchema, v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		if migrations[v] == nil {
			continue
		}
		if err := migrations[v](tx); err != nil {
			return fmt.Errorf("migrating schema %d to %d: %w", v, v+1, err)
		}
	}
	return meta.Put(kVersion, u64(SchemaVersion))
}

func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

// Status is where a game stands.
type Status string

// Statuses.
const (
	Active Status = "active"
	Paused Status = "paused"
	Ended  Status = "ended"
)

// GameOptions are the choices made when the game was created.
type GameOptions struct {
	USSetup  string        `json:"us_setup,omitempty"` // e.g. "historic" (12.5) or "free" (12.6)
	JPSetup  string        `json:"jp_setup,omitempty"` // "historic" (12.3) or "free" (12.4)
	Rules    []string      `json:"rules,omitempty"`    // optional rules in force, e.g. "vp-chits" (14.0)
	Deadline time.Duration `json:"deadline,omitempty"` // time allowed per wait
	Reminder time.Duration `json:"reminder,omitempty"` // how long before the deadline to remind
}

// Player is a side's registered address and the hash of its secret token.
type Player struct {
	Side      adjudicator.Side `json:"side"`
	Address   string           `json:"address"`
	TokenHash []byte           `json:"token_hash"`
}

// Game is a game's record: everything but its log, dice and snapshots.
type Game struct {
	ID string `json:"id"`
	// System names the game system whose rules the game is played by
	// (Rules.System); empty in a game stored before there were several,
	// which is War in the Wind's (SystemBefore).
	System     string      `json:"system,omitempty"`
	Scenario   string      `json:"scenario"`
	Options    GameOptions `json:"options"`
	Players    []Player    `json:"players"`
	Seed       []byte      `json:"seed"`       // secret until the game ends
	Commitment string      `json:"commitment"` // SHA-256(Seed), hex
	Status     Status      `json:"status"`
	// Wait is what the game waits for: the Wait of the position in
	// force, as the last live entry's Next records it.
	Wait     adjudicator.Wait `json:"wait"`
	Deadline time.Time        `json:"deadline,omitzero"`
	Created  time.Time        `json:"created"`
	Entries  uint64           `json:"entries"`   // sequence number of the last log entry
	Head     string           `json:"head"`      // hash of the last log entry
	Current  uint64           `json:"current"`   // the entry whose snapshot is the position in force
	DiceNext uint64           `json:"dice_next"` // sequence number of the next die; never decreases
	// Due is when the host next has something to do in the game (a
	// deadline, a reminder, a stand-in's turn...), as it sets it
	// (Txn.SetDue); zero for never. DB.Due finds the games due by it.
	Due time.Time `json:"due,omitzero"`
	// Service is the game service's own record of the game, which the
	// store keeps and writes with it (Txn.SetService) without reading it.
	Service json.RawMessage `json:"service,omitempty"`
}

// SystemName is the game's system: System, or SystemBefore for a game
// stored before there were several.
func (g *Game) SystemName() string { return cmp.Or(g.System, SystemBefore) }

// Player returns the player of side s.
func (g *Game) Player(s adjudicator.Side) (Player, bool) {
	for _, p := range g.Players {
		if p.Side == s {
			return p, true
		}
	}
	return Player{}, false
}

// CheckToken reports, in constant time, whether token is side s's token.
func (g *Game) CheckToken(s adjudicator.Side, token string) bool {
	p, ok := g.Player(s)
	h := HashToken(token)
	if !ok {
		subtle.ConstantTimeCompare(h, h)
		return false
	}
	return subtle.ConstantTimeCompare(h, p.TokenHash) == 1
}

// NewToken returns a fresh secret token for a side: 120 random bits in
// lower-case base32 without padding, easy to paste into an order file.
func NewToken() (string, error) {
	var b [15]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store: drawing a token: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:])), nil
}

// HashToken returns the stored form of a token. Tokens are long random
// strings, so a plain SHA-256 is enough; no token is ever stored in clear.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// NewGame is what Create needs.
type NewGame struct {
	ID       string
	Scenario string
	Options  GameOptions
	// Players gives each side's address and token (the umpire is a side
	// too), of which only the hash is stored.
	Players []NewPlayer
	Seed    []byte // nil to draw one
	// Start makes the opening position with the game's own dice, so that
	// what the opening draws (in War in the Wind the Komandorski chits of
	// rule 12.1) comes from the committed seed, logged and audited with
	// log entry 1. It returns the position and the JSON of its events.
	Start func(d adjudicator.Dice) (Position, json.RawMessage, error)
	// Rules are the game's system: Game.System records its name, and
	// Start rolls its die.
	Rules    Rules
	Deadline time.Time
	Due      time.Time       // Game.Due
	Outbox   []Mail          // the welcome mails
	Service  json.RawMessage // Game.Service
}

// NewPlayer is a side's address and token in clear.
type NewPlayer struct {
	Side    adjudicator.Side
	Address string
	Token   string
}

// Create stores a new game, its log entry 1 and opening snapshot, and
// queues the welcome mails, in one transaction; ErrGameExists when the id
// is taken.
func (db *DB) Create(ng NewGame) (*Game, error) {
	if ng.ID == "" || ng.Start == nil || ng.Rules == nil {
		return nil, fmt.Errorf("store: create: a game needs an id, a start and rules")
	}
	if err := checkFaces(ng.Rules.Faces()); err != nil {
		return nil, fmt.Errorf("store: create: %w", err)
	}
	seed := ng.Seed
	if seed == nil {
		var err error
		if seed, err = NewSeed(); err != nil {
			return nil, err
		}
	}
	now := db.now().UTC()
	g := &Game{
		ID: ng.ID, System: ng.Rules.System(), Scenario: ng.Scenario, Options: ng.Options,
		Seed: seed, Commitment: Commitment(seed),
		Status: Active, Deadline: ng.Deadline, Due: ng.Due.UTC(), Created: now,
		DiceNext: 1, Service: ng.Service,
	}
	for _, p := range ng.Players {
		g.Players = append(g.Players, Player{Side: p.Side, Address: p.Address, TokenHash: HashToken(p.Token)})
	}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		games := tx.Bucket(bGames)
		if games.Bucket([]byte(ng.ID)) != nil {
			return ErrGameExists
		}
		gb, err := games.CreateBucket([]byte(ng.ID))
		if err != nil {
			return err
		}
		for _, name := range [][]byte{bLog, bMarks, bOrders, bDice, bSnapshots} {
			if _, err := gb.CreateBucket(name); err != nil {
				return err
			}
		}
		// The opening answers no wait: its entry and dice are of turn 0.
		dice := NewDice(seed, 1, 1, 0, adjudicator.WaitNone).WithFaces(ng.Rules.Faces())
		state, events, err := ng.Start(dice)
		if err != nil {
			return fmt.Errorf("the opening: %w", err)
		}
		if state == nil {
			return fmt.Errorf("the start made no state")
		}
		e := &Entry{Kind: KindCreate, Time: now, Events: events, Scenario: ng.Scenario, Commitment: g.Commitment}
		w := gameTx{b: gb, g: g}
		if err := w.append(e, dice, state); err != nil {
			return err
		}
		g.Wait = e.Next
		if _, err := queueMails(tx, g.ID, ng.Outbox, e.Seq, 0, now); err != nil {
			return err
		}
		return w.save()
	})
	if err != nil {
		return nil, fmt.Errorf("store: create %s: %w", ng.ID, err)
	}
	return g, nil
}

// Game returns a game's record.
func (db *DB) Game(id string) (*Game, error) {
	return inGame(db, id, func(w *gameTx) (*Game, error) { return w.g, nil })
}

// Games returns the ids of every game, sorted.
func (db *DB) Games() ([]string, error) {
	return view(db, func(tx *bolt.Tx) (ids []string, err error) {
		err = tx.Bucket(bGames).ForEachBucket(func(k []byte) error {
			ids = append(ids, string(k))
			return nil
		})
		return ids, err
	})
}

// Position returns the JSON of the position in force in a game, for the
// game's system to decode.
func (db *DB) Position(id string) ([]byte, error) {
	return inGame(db, id, func(w *gameTx) ([]byte, error) { return w.snapshot(w.g.Current) })
}

// gameTx is one game inside a transaction.
type gameTx struct {
	b   *bolt.Bucket
	g   *Game
	due time.Time // g.Due as stored, whose key the due index holds
}

// view returns what fn reads in a read transaction.
func view[T any](db *DB, fn func(tx *bolt.Tx) (T, error)) (T, error) {
	var out T
	err := db.bolt.View(func(tx *bolt.Tx) (err error) {
		out, err = fn(tx)
		return err
	})
	return out, err
}

// inGame returns what fn reads from game id in a read transaction.
func inGame[T any](db *DB, id string, fn func(w *gameTx) (T, error)) (T, error) {
	return view(db, func(tx *bolt.Tx) (T, error) {
		w, err := openGame(tx, id)
		if err != nil {
			var zero T
			return zero, err
		}
		return fn(w)
	})
}

func openGame(tx *bolt.Tx, id string) (*gameTx, error) {
	gb := tx.Bucket(bGames).Bucket([]byte(id))
	if gb == nil {
		return &gameTx{}, fmt.Errorf("%w: %q", ErrNoGame, id)
	}
	g := new(Game)
	if err := json.Unmarshal(gb.Get(kGame), g); err != nil {
		return &gameTx{}, fmt.Errorf("store: game %s: %w", id, err)
	}
	return &gameTx{b: gb, g: g, due: g.Due}, nil
}

// save writes the game's record, and its key in the due index with it.
func (w *gameTx) save() error {
	b, err := json.Marshal(w.g)
	if err != nil {
		return err
	}
	if err := saveDue(w.b.Tx(), w.g, w.due); err != nil {
		return err
	}
	w.due = w.g.Due
	return w.b.Put(kGame, b)
}

// append chains e to the log with a secret of its own and moves the
// head. With a position s (the one e's step made), it records the dice d
// rolled, refuses s when unsound and stores it as e's snapshot and State,
// with its wait as e.Next.
func (w *gameTx) append(e *Entry, d *Dice, s Position) error {
	e.Seq = w.g.Entries + 1
	e.Prev = w.g.Head
	e.Secret = rand.Text() // 26 characters of base32, 130 random bits
	var snap []byte
	if s != nil {
		for _, r := range d.Rolls() {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if err := w.b.Bucket(bDice).Put(u64(r.Seq), b); err != nil {
				return err
			}
		}
		if len(d.Rolls()) > 0 {
			e.DiceFrom, e.DiceTo, w.g.DiceNext = w.g.DiceNext, d.Next(), d.Next()
		}
		if err := s.Validate(); err != nil {
			where := fmt.Sprintf("the position after entry %d", e.Seq)
			if e.Kind == KindCreate {
				where = "the opening position"
			}
			return fmt.Errorf("%w: game %s, %s: %w", ErrUnsound, w.g.ID, where, err)
		}
		var err error
		if snap, err = json.Marshal(s); err != nil {
			return fmt.Errorf("encoding state: %w", err)
		}
		e.State, e.Next = hashHex(snap), s.Wait()
	}
	b, err := encodeEntry(e)
	if err != nil {
		return fmt.Errorf("encoding log entry: %w", err)
	}
	if err := w.b.Bucket(bLog).Put(u64(e.Seq), b); err != nil {
		return err
	}
	if snap != nil {
		if err := w.b.Bucket(bSnapshots).Put(u64(e.Seq), packValue(snap)); err != nil {
			return err
		}
		w.g.Current = e.Seq
	}
	w.g.Entries = e.Seq
	w.g.Head = hashHex(b)
	return nil
}

func (w *gameTx) entry(seq uint64) (*Entry, error) {
	b := w.b.Bucket(bLog).Get(u64(seq))
	if b == nil {
		return nil, fmt.Errorf("store: game %s: no log entry %d", w.g.ID, seq)
	}
	e := new(Entry)
	if err := json.Unmarshal(b, e); err != nil {
		return nil, fmt.Errorf("store: game %s: log entry %d: %w", w.g.ID, seq, err)
	}
	return e, nil
}

// position returns the position after entry seq as the rules r read it,
// refused when unsound.
func (w *gameTx) position(r Rules, seq uint64) (Position, error) {
	b, err := w.snapshot(seq)
	if err != nil {
		return nil, err
	}
	return decodePosition(r, b, fmt.Sprintf("game %s, snapshot of entry %d", w.g.ID, seq))
}

// decodePosition reads the position b with the rules r; what is where it
// was stored, for the error. A position the rules cannot reach is never
// played on: ErrUnsound.
func decodePosition(r Rules, b []byte, what string) (Position, error) {
	s, err := r.Position(b)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrUnsound, what, err)
	}
	return s, nil
}

// snapshot returns the JSON of the position after entry seq.
func (w *gameTx) snapshot(seq uint64) ([]byte, error) {
	v := w.b.Bucket(bSnapshots).Get(u64(seq))
	if v == nil {
		return nil, fmt.Errorf("store: game %s: no snapshot at entry %d", w.g.ID, seq)
	}
	b, err := unpackValue(v)
	if err != nil {
		return nil, fmt.Errorf("store: game %s: snapshot %d: %w", w.g.ID, seq, err)
	}
	return b, nil
}

// Snapshots and the outbox's bodies are stored as one format byte and
// the bytes: snapRaw and the bytes themselves, or snapFlate and their
// DEFLATE compression (RFC 1951), ten times smaller for a position.
const (
	snapRaw   = 'j'
	snapFlate = 'z'
)

// flateWriters keeps compressors between values: a new flate.Writer
// allocates its tables afresh, which cost a quarter of a step's work.
var flateWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid
	return zw
}}

// packValue is b as stored, DEFLATE-compressed.
func packValue(b []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b)/4 + 64)
	buf.WriteByte(snapFlate)
	zw := flateWriters.Get().(*flate.Writer)
	zw.Reset(&buf)
	zw.Write(b)
	zw.Close()
	flateWriters.Put(zw)
	return buf.Bytes()
}

// unpackValue reads a stored value back (see packValue).
func unpackValue(v []byte) ([]byte, error) {
	if len(v) == 0 {
		return nil, errors.New("empty")
	}
	switch v[0] {
	case snapRaw:
		return bytes.Clone(v[1:]), nil
	case snapFlate:
		return io.ReadAll(flate.NewReader(bytes.NewReader(v[1:])))
	}
	return nil, fmt.Errorf("unknown format %q", v[0])
}

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
