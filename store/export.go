package store

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"github.com/attu-pbem/attu/adjudicator"
)

// ExportFormat names the layout of Export. Since attu-export/5 it names
// the game's system (Export.System). Since attu-export/4 the log's last
// entry carries its secret (Entry.Secret, schema 9), as does every entry
// after the first that has one, so that the audit can tell an export whose
// secrets were taken out, its chain computed again, from one of a game
// without them. A game carried over from a release without secrets and not
// played since has none, and is exported as ExportFormatBefore. Audit
// reads these three and refuses any other; the two older ones are War in
// the Wind's.
const (
	ExportFormat        = "attu-export/5"
	ExportFormatSecrets = "attu-export/4"
	ExportFormatBefore  = "attu-export/3"
)

// Export is a whole game as one JSON document: what anyone needs to check
// every die and every result. See Audit.
type Export struct {
	Format string `json:"format"`
	// System is the game's system (Game.System), absent in the layouts
	// before attu-export/5, whose games are War in the Wind's.
	System       string          `json:"system,omitempty"`
	Game         string          `json:"game"`
	Scenario     string          `json:"scenario"`
	Options      GameOptions     `json:"options"`
	Status       Status          `json:"status"`
	Exported     time.Time       `json:"exported"`
	Commitment   string          `json:"commitment"`
	Seed         string          `json:"seed,omitempty"` // the secret seed in hex, once the game has ended or the umpire forces it
	Head         string          `json:"head"`           // the hash of the last log entry
	InitialState json.RawMessage `json:"initial_state"`  // the opening position (entry 1's State is its hash)
	Orders       []ExportOrders  `json:"orders"`         // the accepted order files
	Log          []ExportEntry   `json:"log"`
	Dice         []Roll          `json:"dice"`
	// ScenarioFile is the scenario file the game was created with, when
	// its system carries it (an Island War scenario the operator added):
	// the audit checks it against the SHA-256 the opening position
	// records.
	ScenarioFile string `json:"scenario_file,omitempty"`
}

// ExportOrders is one accepted order file with its receipt time, in YAML
// when it is valid UTF-8 (always, for files the parser accepted), else in
// Base64.
type ExportOrders struct {
	Entry     uint64               `json:"entry"`
	Side      adjudicator.Side     `json:"side"`
	Turn      int                  `json:"turn"`
	Wait      adjudicator.WaitKind `json:"wait"`
	Received  time.Time            `json:"received"`
	MessageID string               `json:"message_id,omitempty"`
	YAML      string               `json:"yaml,omitempty"`
	Base64    []byte               `json:"base64,omitempty"`
}

// Raw returns the order file's bytes.
func (o ExportOrders) Raw() []byte {
	if o.Base64 != nil {
		return o.Base64
	}
	return []byte(o.YAML)
}

// ExportEntry is one log entry with its hash (of its canonical JSON, see
// Canonical) and, when a rollback undid it, that rollback's entry.
type ExportEntry struct {
	Hash         string          `json:"hash"`
	RolledBackBy uint64          `json:"rolled_back_by,omitempty"`
	Entry        json.RawMessage `json:"entry"`
}

// Export returns a game as an Export. The seed is included when the game has
// ended or reveal is true (the umpire forcing it).
func (db *DB) Export(id string, reveal bool) (*Export, error) {
	now := db.now().UTC()
	x, err := inGame(db, id, func(w *gameTx) (*Export, error) { return w.export(now, reveal) })
	if err != nil {
		return nil, fmt.Errorf("store: export %s: %w", id, err)
	}
	return x, nil
}

// export returns the game as Export does, exported at now.
func (w *gameTx) export(now time.Time, reveal bool) (x *Export, err error) {
	g := w.g
	x = &Export{Format: ExportFormat, System: g.SystemName(), Game: g.ID, Scenario: g.Scenario, Options: g.Options, Status: g.Status,
		Exported: now, Commitment: g.Commitment, Head: g.Head, Orders: []ExportOrders{}, Dice: []Roll{}}
	if g.Status == Ended || reveal {
		x.Seed = hex.EncodeToString(g.Seed)
	}
	if x.InitialState, err = w.snapshot(1); err != nil {
		return nil, err
	}
	marks := w.b.Bucket(bMarks)
	orders := w.b.Bucket(bOrders)
	err = w.b.Bucket(bLog).ForEach(func(k, v []byte) error {
		xe := ExportEntry{Hash: hashHex(v), Entry: append(json.RawMessage(nil), v...)}
		if m := marks.Get(k); m != nil {
			xe.RolledBackBy = binary.BigEndian.Uint64(m)
		}
		x.Log = append(x.Log, xe)
		raw := orders.Get(k)
		if raw == nil {
			return nil
		}
		// Only the head of the entry is read: the rest (the orders and
		// events) is most of it.
		var e struct {
			Seq       uint64               `json:"seq"`
			Turn      int                  `json:"turn"`
			Wait      adjudicator.WaitKind `json:"wait"`
			Side      adjudicator.Side     `json:"side"`
			Received  time.Time            `json:"received"`
			MessageID string               `json:"message_id"`
		}
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("entry %d: %w", binary.BigEndian.Uint64(k), err)
		}
		xo := ExportOrders{Entry: e.Seq, Side: e.Side, Turn: e.Turn, Wait: e.Wait, Received: e.Received, MessageID: e.MessageID}
		if utf8.Valid(raw) {
			xo.YAML = string(raw)
		} else {
			xo.Base64 = append([]byte(nil), raw...)
		}
		x.Orders = append(x.Orders, xo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n := len(x.Log); n > 0 && !hasSecret(x.Log[n-1].Entry) {
		x.Format, x.System = ExportFormatBefore, ""
	}
	return x, w.b.Bucket(bDice).ForEach(func(k, v []byte) error {
		var r Roll
		if err := json.Unmarshal(v, &r); err != nil {
			return fmt.Errorf("die %d: %w", binary.BigEndian.Uint64(k), err)
		}
		x.Dice = append(x.Dice, r)
		return nil
	})
}

// WriteJSON writes the export as indented JSON: what a json.Encoder with
// SetIndent("", "  ") writes.
func (x *Export) WriteJSON(w io.Writer) error {
	b, err := x.JSON()
	if err == nil {
		_, err = w.Write(b)
	}
	return err
}

// JSON returns the export as WriteJSON writes it.
func (x *Export) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// GzipJSON is JSON gzip-compressed, the export as a final report attaches
// it: a tenth of its size, its log and positions being repetitive.
// ReadExport, and so attu audit, reads it as it is; gunzip restores JSON.
func (x *Export) GzipJSON() ([]byte, error) {
	b, err := x.JSON()
	if err != nil {
		return nil, err
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.DefaultCompression)
	w.Write(b)
	if err := w.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// ReadExport reads an export written by WriteJSON, or the same
// gzip-compressed (RFC 1952) as the final reports attach it (GzipJSON).
func ReadExport(r io.Reader) (*Export, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("store: reading export: %w", err)
		}
		defer z.Close()
		r = z
	} else {
		r = br
	}
	x := new(Export)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(x); err != nil {
		return nil, fmt.Errorf("store: reading export: %w", err)
	}
	switch {
	case x.Format != ExportFormat && x.Format != ExportFormatSecrets && x.Format != ExportFormatBefore:
		return nil, fmt.Errorf("store: export format %q, this release reads %q, %q and %q", x.Format, ExportFormat, ExportFormatSecrets, ExportFormatBefore)
	case x.Format == ExportFormat && x.System == "":
		return nil, fmt.Errorf("store: an export in the layout %s names its game's system", ExportFormat)
	case x.Format != ExportFormat && x.System != "":
		return nil, fmt.Errorf("store: an export in the layout %s names no system; system %q is of a later layout", x.Format, x.System)
	}
	return x, nil
}

// hasSecret reports whether the stored entry raw carries a secret.
func hasSecret(raw []byte) bool {
	var e struct {
		Secret string `json:"secret"`
	}
	return json.Unmarshal(raw, &e) == nil && e.Secret != ""
}

// SystemName is the game's system: System, or SystemBefore for an export
// made before there were several.
func (x *Export) SystemName() string { return cmp.Or(x.System, SystemBefore) }
