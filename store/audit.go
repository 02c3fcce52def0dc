package store

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
)

// Finding is the first thing wrong in an export: the entry (and die, when
// it is about a die) where the record stops matching.
type Finding struct {
	Entry uint64 // 0: the export as a whole
	Die   uint64 // 0: not about one die
	What  string
}

func (f *Finding) Error() string {
	s := f.What
	if f.Die != 0 {
		s = fmt.Sprintf("die %d: %s", f.Die, s)
	}
	if f.Entry != 0 {
		s = fmt.Sprintf("entry %d: %s", f.Entry, s)
	}
	return s
}

// Report is the outcome of an audit.
type Report struct {
	Game       string
	Entries    int
	Orders     int
	Dice       int
	RolledBack int  // entries undone by a rollback
	SeedShown  bool // the seed was in the export, so every die was re-derived
	Replayed   bool // the engine replayed every order
	Head       string
	FinalState string   // SHA-256 of the final position
	Bad        *Finding // nil when every check passed
	Luck       *Luck    // computed from the live entries' dice
}

// OK reports whether the audit found nothing wrong.
func (r *Report) OK() bool { return r.Bad == nil }

// Audit checks an export as the package documentation says, stopping at
// the first mismatch, which Report.Bad names. Without a seed (a game
// still running) the dice are taken as recorded. The rules r replay every
// step; they must be the game's own system (Export.System).
func Audit(x *Export, r Rules) *Report {
	a := &auditor{x: x, rules: r, rep: &Report{Game: x.Game, Head: x.Head}, dice: map[uint64]Roll{},
		orders: map[uint64]ExportOrders{}, entries: map[uint64]*Entry{}, states: map[uint64][]byte{}}
	a.run()
	if a.rep.Bad == nil {
		live := map[uint64]bool{}
		for _, seq := range a.live {
			live[seq] = true
		}
		a.rep.Luck = computeLuck(x.Dice, live, r.Faces(), luckRules(r))
	}
	return a.rep
}

type auditor struct {
	x       *Export
	rules   Rules
	rep     *Report
	seed    []byte
	entries map[uint64]*Entry
	dice    map[uint64]Roll
	orders  map[uint64]ExportOrders
	states  map[uint64][]byte // the JSON of the position after each entry
	live    []uint64          // the entries in force, oldest first
	cur     uint64            // the entry being checked
}

type failure struct{ f *Finding }

func (a *auditor) fail(entry, die uint64, format string, args ...any) {
	panic(failure{&Finding{Entry: entry, Die: die, What: fmt.Sprintf(format, args...)}})
}

func (a *auditor) run() {
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(failure); ok {
				a.rep.Bad = f.f
				return
			}
			// A forged export can lead the engine where no real game goes.
			a.rep.Bad = &Finding{Entry: a.cur, What: fmt.Sprintf("the replay broke down: %v", r)}
		}
	}()
	x := a.x
	a.rep.Replayed = true
	if x.SystemName() != a.rules.System() {
		a.fail(0, 0, "the game is played by the rules of %s; these are the rules of %s", x.SystemName(), a.rules.System())
	}
	if err := checkFaces(a.rules.Faces()); err != nil {
		a.fail(0, 0, "the rules' die: %v", err)
	}
	if x.Seed != "" {
		seed, err := hex.DecodeString(x.Seed)
		if err != nil || len(seed) != SeedSize {
			a.fail(1, 0, "the seed is not %d bytes of hex", SeedSize)
		}
		a.seed = seed
		a.rep.SeedShown = true
	}
	for i, r := range x.Dice {
		if r.Seq != uint64(i+1) {
			a.fail(r.Entry, r.Seq, "the dice log is out of order at position %d", i+1)
		}
		a.dice[r.Seq] = r
	}
	for _, o := range x.Orders {
		if _, dup := a.orders[o.Entry]; dup {
			a.fail(o.Entry, 0, "two order files for one entry")
		}
		a.orders[o.Entry] = o
	}
	marks := map[uint64]uint64{}
	prev := ""
	secrets := false
	nextDie := uint64(1)
	for i, xe := range x.Log {
		seq := uint64(i + 1)
		a.cur = seq
		raw, err := Canonical(xe.Entry)
		if err != nil {
			a.fail(seq, 0, "not valid JSON: %v", err)
		}
		h := hashHex(raw)
		e := new(Entry)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(e); err != nil {
			a.fail(seq, 0, "cannot be read: %v", err)
		}
		switch {
		case e.Seq != seq:
			a.fail(seq, 0, "numbered %d", e.Seq)
		case h != xe.Hash:
			a.fail(seq, 0, "altered: it hashes to %.16s…, the log lists %.16s…", h, xe.Hash)
		case e.Prev != prev:
			a.fail(seq, 0, "does not chain to entry %d (prev %.16s…, entry %d hashes to %.16s…)", seq-1, e.Prev, seq-1, prev)
		}
		secrets = a.checkSecret(e, secrets)
		if seq == uint64(len(x.Log)) && e.Secret == "" && (x.Format == ExportFormat || x.Format == ExportFormatSecrets) {
			a.fail(seq, 0, "it has no secret, though an export in the layout %s has one in its last entry: the secrets were taken out of the log", x.Format)
		}
		a.entries[seq] = e
		prev = h
		if seq == 1 && e.Kind != KindCreate || seq != 1 && e.Kind == KindCreate {
			a.fail(seq, 0, "a game's first entry, and only it, is its creation")
		}
		if e.Kind != KindOrders && a.orders[seq].Entry != 0 {
			a.fail(seq, 0, "an order file is attached to a %s entry", e.Kind)
		}
		switch e.Kind {
		case KindCreate, KindOrders:
			if e.DiceTo != 0 && e.DiceFrom != nextDie {
				a.fail(seq, 0, "its dice start at %d; the next die was %d", e.DiceFrom, nextDie)
			}
			if e.Kind == KindCreate {
				a.create(e)
			} else {
				a.step(e)
			}
			if e.DiceTo != 0 {
				nextDie = e.DiceTo
			}
		case KindRollback:
			at := slices.Index(a.live, e.To)
			if e.To == 0 || at < 0 {
				a.fail(seq, 0, "rolls back to entry %d, which is not in force", e.To)
			}
			for _, undone := range a.live[at+1:] {
				marks[undone] = seq
			}
			a.live = a.live[:at+1]
			to := a.entries[e.To]
			if e.State != to.State || e.Next != to.Next {
				a.fail(seq, 0, "its position or wait is not that of entry %d", e.To)
			}
			a.states[seq] = a.states[e.To]
		case KindEnd, KindNote:
			top := a.entries[a.live[len(a.live)-1]]
			if e.State != top.State {
				a.fail(seq, 0, "its position is not that of entry %d", top.Seq)
			}
			if e.Kind == KindNote && e.Next != top.Next {
				a.fail(seq, 0, "a note, but the game waits for %s after it and %s before", e.Next, top.Next)
			}
			if e.DiceTo != 0 {
				a.fail(seq, 0, "a %s entry rolls no dice", e.Kind)
			}
			a.states[seq] = a.states[top.Seq]
		default:
			a.fail(seq, 0, "unknown kind %q", e.Kind)
		}
		a.live = append(a.live, seq)
	}
	if len(x.Log) == 0 {
		a.fail(0, 0, "the log is empty")
	}
	if prev != x.Head {
		a.fail(uint64(len(x.Log)), 0, "the chain ends at %.16s…, not at the head %.16s…", prev, x.Head)
	}
	if n := uint64(len(x.Dice)); nextDie != n+1 {
		r := x.Dice[nextDie-1]
		a.fail(r.Entry, r.Seq, "in the dice log, but no entry rolled it")
	}
	for i, xe := range x.Log {
		seq := uint64(i + 1)
		if xe.RolledBackBy != marks[seq] {
			a.fail(seq, 0, "marked as rolled back by entry %d; the log says %d", xe.RolledBackBy, marks[seq])
		}
		if marks[seq] != 0 {
			a.rep.RolledBack++
		}
	}
	for seq := range a.orders {
		if a.entries[seq] == nil {
			a.fail(seq, 0, "an order file for an entry the log does not have")
		}
	}
	a.rep.Entries, a.rep.Orders, a.rep.Dice = len(x.Log), len(x.Orders), len(x.Dice)
	a.rep.FinalState = a.entries[uint64(len(x.Log))].State
}

// checkSecret checks e's secret, given whether an entry before it had one
// (after which every entry has one), and returns whether e or one before
// it has one.
func (a *auditor) checkSecret(e *Entry, before bool) bool {
	switch {
	case e.Secret != "" && !validSecret(e.Secret):
		a.fail(e.Seq, 0, "its secret is not 26 or more characters of base32 (128 random bits)")
	case e.Secret == "" && before:
		a.fail(e.Seq, 0, "it has no secret, though an entry before it has one")
	}
	return before || e.Secret != ""
}

func (a *auditor) create(e *Entry) {
	if e.Commitment != a.x.Commitment {
		a.fail(1, 0, "the commitment %.16s… is not the export's %.16s…", e.Commitment, a.x.Commitment)
	}
	if a.seed != nil && Commitment(a.seed) != e.Commitment {
		a.fail(1, 0, "the revealed seed does not match the commitment made at creation")
	}
	s, err := a.rules.Position(a.x.InitialState)
	if err != nil {
		a.fail(1, 0, "the opening position cannot be read: %v", err)
	}
	if err := s.Validate(); err != nil {
		a.fail(1, 0, "the opening position is not one the rules can reach: %v", err)
	}
	b := a.encode(1, s)
	if h := hashHex(b); h != e.State {
		a.fail(1, 0, "the opening position hashes to %.16s…, the entry says %.16s…", h, e.State)
	}
	d := &auditDice{a: a, e: e, next: e.DiceFrom}
	if e.DiceTo != 0 {
		if err := a.rules.Opening(s, d); err != nil {
			a.fail(1, 0, "the opening position is not what its dice drew: %v", err)
		}
	}
	if d.next == e.DiceFrom {
		d.alone() // the rules drew nothing again: the dice against the seed
	} else {
		d.done()
	}
	a.states[1] = b
}

// done requires that the replay rolled every die the entry recorded.
func (d *auditDice) done() {
	if e := d.e; e.DiceTo != 0 && d.next != e.DiceTo {
		d.a.fail(e.Seq, d.next, "recorded but the replay did not roll it (the entry lists dice %d to %d)", e.DiceFrom, e.DiceTo-1)
	}
}

// alone checks the entry's dice without a replay: against the seed, or
// that they are faces at all.
func (d *auditDice) alone() {
	for seq := d.e.DiceFrom; seq < d.e.DiceTo; seq++ {
		d.Roll(d.a.dice[seq].Die)
	}
}

func (a *auditor) step(e *Entry) {
	top := a.entries[a.live[len(a.live)-1]]
	if top.Kind == KindEnd {
		a.fail(e.Seq, 0, "the game had ended at entry %d", top.Seq)
	}
	if e.Turn != top.Next.Turn || e.Wait != top.Next.Kind {
		a.fail(e.Seq, 0, "answers turn %d %s, but the game waited for %s", e.Turn, e.Wait, top.Next)
	}
	o := a.checkOrders(e, top.Next)
	d := &auditDice{a: a, e: e, next: e.DiceFrom}
	in := a.position(e.Seq, a.states[top.Seq])
	out, events, refused := a.rules.Resolve(in, o, d)
	if refused != nil {
		a.fail(e.Seq, 0, "the replay refuses it: %v", errors.Join(problemErrs(refused.Problems)...))
	}
	if out == nil {
		a.fail(e.Seq, 0, "the replay gives no position")
	}
	d.done()
	if err := out.Validate(); err != nil {
		a.fail(e.Seq, 0, "the replay reaches a position the rules cannot: %v", err)
	}
	got, want := splitEvents(events), splitEvents(e.Events)
	if got == nil || want == nil {
		a.fail(e.Seq, 0, "its events are not a list")
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w []byte
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if !bytes.Equal(g, w) {
			a.fail(e.Seq, 0, "event %d: recorded %s, the replay gives %s", i+1, orNone(w), orNone(g))
		}
	}
	b := a.encode(e.Seq, out)
	if h := hashHex(b); h != e.State {
		a.fail(e.Seq, 0, "the replayed position hashes to %.16s…, the entry says %.16s…", h, e.State)
	}
	if w := out.Wait(); w != e.Next {
		a.fail(e.Seq, 0, "the game then waits for %s, but the entry says %s", w, e.Next)
	}
	a.states[e.Seq] = b
}

// splitEvents returns the events of a list in JSON, each in canonical
// form (Canonical), as the log stores it; an empty list for none, nil when
// b is not a list.
func splitEvents(b json.RawMessage) []json.RawMessage {
	if len(b) == 0 {
		return []json.RawMessage{}
	}
	var evs []json.RawMessage
	if err := json.Unmarshal(b, &evs); err != nil {
		return nil
	}
	for i, ev := range evs {
		if c, err := Canonical(ev); err == nil {
			evs[i] = c
		}
	}
	if evs == nil {
		evs = []json.RawMessage{}
	}
	return evs
}

// position decodes the JSON b of a position for entry seq's replay, a
// fresh value of its own.
func (a *auditor) position(seq uint64, b []byte) Position {
	p, err := a.rules.Position(b)
	if err != nil {
		a.fail(seq, 0, "the position before it cannot be read: %v", err)
	}
	return p
}

// encode returns the JSON of position p, as a snapshot holds it.
func (a *auditor) encode(seq uint64, p Position) []byte {
	b, err := json.Marshal(p)
	if err != nil {
		a.fail(seq, 0, "the position cannot be written: %v", err)
	}
	return b
}

func (a *auditor) checkOrders(e *Entry, w adjudicator.Wait) Orders {
	xo, ok := a.orders[e.Seq]
	if !ok {
		a.fail(e.Seq, 0, "the order file is missing")
	}
	raw := xo.Raw()
	if h := hashHex(raw); h != e.RawSHA256 {
		a.fail(e.Seq, 0, "the order file hashes to %.16s…, the entry says %.16s…", h, e.RawSHA256)
	}
	if xo.Side != e.Side || xo.Turn != e.Turn || xo.Wait != e.Wait || !xo.Received.Equal(e.Received) || xo.MessageID != e.MessageID {
		a.fail(e.Seq, 0, "the order file's side, turn, wait, receipt time or Message-ID differ from the entry's")
	}
	if len(e.Orders) == 0 {
		a.fail(e.Seq, 0, "an orders entry without orders")
	}
	recorded, err := a.rules.Orders(e.Orders)
	if err != nil {
		a.fail(e.Seq, 0, "its orders cannot be read: %v", err)
	}
	if ow := recorded.Answering(); w.Side != adjudicator.NoSide && e.Side != w.Side || ow.Side != e.Side || ow.Turn != e.Turn || ow.Kind != e.Wait {
		a.fail(e.Seq, 0, "orders from %s for turn %d %s, but the game waited for %s", ow.Side, ow.Turn, ow.Kind, w)
	}
	o, err := a.rules.Reread(raw)
	if err != nil {
		a.fail(e.Seq, 0, "the order file does not decode: %v", err)
	}
	if o == nil {
		return recorded
	}
	got, _ := json.Marshal(o)
	got, _ = Canonical(got)
	want, _ := Canonical(e.Orders)
	if got == nil || !bytes.Equal(got, want) {
		a.fail(e.Seq, 0, "the order file decodes to other orders than those recorded")
	}
	return o
}

// auditDice hands the replay the dice the log recorded, checking each
// against what the replay asks for and, with the seed, against the seed.
type auditDice struct {
	a    *auditor
	e    *Entry
	next uint64
}

func (d *auditDice) Roll(die adjudicator.Die) int {
	e := d.e
	if e.DiceTo == 0 || d.next >= e.DiceTo {
		d.a.fail(e.Seq, 0, "the replay rolls more dice than the entry recorded (%s)", describeDie(die))
	}
	seq := d.next
	r, ok := d.a.dice[seq]
	if !ok {
		d.a.fail(e.Seq, seq, "missing from the dice log")
	}
	if r.Entry != e.Seq || r.Turn != e.Turn || r.Wait != e.Wait {
		d.a.fail(e.Seq, seq, "logged as rolled by entry %d in turn %d %s", r.Entry, r.Turn, r.Wait)
	}
	if r.Die != die {
		d.a.fail(e.Seq, seq, "logged as %s, but the replay rolls %s", describeDie(r.Die), describeDie(die))
	}
	// The rules choose the die, not the record: were the faces free, a
	// host could pick for each roll the die that gives the face it wants.
	faces := d.a.rules.Faces()
	if r.Sides() != faces {
		d.a.fail(e.Seq, seq, "logged as a die of %d faces, the rules roll a d%d", r.Sides(), faces)
	}
	if d.a.seed != nil {
		face, raw := Derive(d.a.seed, seq, faces)
		if face != r.Face || !slices.Equal(r.Raw, ints(raw)) {
			d.a.fail(e.Seq, seq, "logged as %d (raw %v), the seed gives %d (raw %v)", r.Face, r.Raw, face, ints(raw))
		}
	} else if r.Face < 1 || r.Face > faces {
		d.a.fail(e.Seq, seq, "face %d is not 1 to %d", r.Face, faces)
	}
	d.next++
	return r.Face
}

// describeDie names a die by its typed fields, for a finding.
func describeDie(d adjudicator.Die) string {
	s := fmt.Sprintf("a %s die", d.Purpose)
	if d.Side != adjudicator.NoSide {
		s += " of " + d.Side.String()
	}
	if d.Unit != "" {
		s += " for " + d.Unit
	}
	if d.Hex != 0 {
		s += " at " + d.Hex.String()
	}
	return s
}

func problemErrs(ps []Problem) []error {
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = errors.New(p.Msg)
	}
	return errs
}

func ints(b []byte) []int {
	out := make([]int, len(b))
	for i, c := range b {
		out[i] = int(c)
	}
	return out
}

func orNone(b []byte) string {
	if b == nil {
		return "nothing"
	}
	return string(b)
}

// WriteText writes the verdict and the dice-luck summary for people.
func (r *Report) WriteText(w io.Writer) {
	if r.Bad != nil {
		fmt.Fprintf(w, "AUDIT FAILED for game %s\n  %s\n", r.Game, r.Bad)
		return
	}
	fmt.Fprintf(w, "Audit of game %s: OK\n", r.Game)
	fmt.Fprintf(w, "  %d log entries (%d rolled back), %d order files, %d dice\n", r.Entries, r.RolledBack, r.Orders, r.Dice)
	fmt.Fprintf(w, "  chain head  %s\n  final state %s\n", r.Head, r.FinalState)
	if r.SeedShown {
		fmt.Fprintln(w, "  seed matches the commitment; every die re-derived from it")
	} else {
		fmt.Fprintln(w, "  seed not revealed (the game is running): dice taken as logged, not re-derived")
	}
	if r.Replayed {
		fmt.Fprintln(w, "  every order replayed through the rules: events, dice and positions match")
	}
	if r.Luck != nil {
		fmt.Fprintln(w)
		r.Luck.WriteText(w)
	}
}
