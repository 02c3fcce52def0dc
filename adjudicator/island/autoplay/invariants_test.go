package autoplay

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// The invariants the soak holds the engine to, each checked from what a
// player can see (the positions before and after, and the events) with
// code of its own, not the engine's: the Combat Results Table below is
// typed cell by cell from the standard rules' Combat Results Table (case
// 7.61), headings and all, and read here.

// digestHeadings is each terrain line's differential headings, column 1
// first, as the digest prints them ("+2,3" is +2 and +3, "−6,5" is −6 and
// −5; the last heading is "+10 and more", the first "this and less").
var digestHeadings = map[island.Line]string{
	island.LineRough:  "−2 | −1 | 0 | +1 | +2,3 | +4,5 | +6,7 | +8,9 | +10",
	island.LineBroken: "−3 | −2 | −1 | 0 | +1 | +2,3 | +4,5 | +6,7 | +8,9 | +10",
	island.LineRiver:  "−5 | −4,3 | −2 | −1 | 0 | +1 | +2,3 | +4,5 | +6,7 | +8,9 | +10",
	island.LineClear:  "−7 | −6,5 | −4,3 | −2 | −1 | 0 | +1 | +2,3 | +4,5 | +6,7 | +8,9 | +10",
}

// digestRows is the table's results, die 1 to 6, column 1 to 12; "•" is
// no effect.
var digestRows = [6]string{
	"A1 | A1 | • | • | D1 | D1 | D1 | D2 | D2 | D3 | De | De",
	"A1 | A1 | A1 | • | • | D1 | D1 | D1 | D2 | D2 | D3 | De",
	"A2 | A1 | A1 | A1 | • | • | D1 | D1 | D1 | D2 | D2 | D3",
	"A2 | A2 | A1 | A1 | A1 | • | • | D1 | D1 | D1 | D2 | D2",
	"A3 | A2 | A2 | A1 | A1 | A1 | • | • | D1 | D1 | D1 | D2",
	"Ae | A2 | A2 | A2 | A1 | A1 | A1 | • | • | D1 | D1 | D1",
}

func cells(row string) []string {
	out := strings.Split(row, "|")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// signed reads a digest number: "+4", "−2" (a minus sign) or "0".
func signed(s string) int {
	s = strings.Replace(s, "−", "-", 1)
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("digest heading " + s)
	}
	return n
}

// digestColumn gives the column a differential is read in on a line, by
// the digest: the heading that names it; below the first heading the
// first column, above +10 the +10 column.
func digestColumn(l island.Line, diff int) (int, error) {
	hs, ok := digestHeadings[l]
	if !ok {
		return 0, fmt.Errorf("line %q is none of the table's four", l)
	}
	heads := cells(hs)
	for k, h := range heads {
		lo, hi := h, h
		if a, b, ok := strings.Cut(h, ","); ok {
			// "+2,3" and "−4,3": the second number has the first's sign.
			lo, hi = a, a[:len(a)-len(strings.TrimLeft(a, "+−"))]+b
		}
		l, u := min(signed(lo), signed(hi)), max(signed(lo), signed(hi))
		switch {
		case k == 0 && diff <= u, diff >= l && diff <= u, k == len(heads)-1 && diff >= l:
			return k + 1, nil
		}
	}
	return 0, fmt.Errorf("differential %d is under no heading of line %s", diff, l)
}

// digestResult gives the result of a column and a die by the digest.
func digestResult(col, die int) island.Result {
	r := cells(digestRows[die-1])[col-1]
	if r == "•" {
		return island.NE
	}
	return island.Result(r)
}

// retreatLength is the hexes a result makes its side retreat (rule 7.62,
// IW2), 0 for none.
func retreatLength(r island.Result) int {
	switch r {
	case island.D1, island.A1:
		return 1
	case island.D2, island.A2:
		return 2
	case island.D3, island.A3:
		return 3
	}
	return 0
}

// replay follows a Combat Phase from its events on a board of its own,
// starting from the position the phase began in, and checks every attack
// on the way.
type replay struct {
	e     *island.Engine
	s     *island.Scenario
	p     island.Position // the position the phase began in
	at    map[string]island.Hex
	by    map[island.Hex]string
	gone  map[string]bool
	side  map[string]island.Side
	class map[string]island.Class
	unit  map[string]island.Unit
	// advanced holds the units that advanced in the phase (rule 7.96).
	advanced map[string]bool
}

func newReplay(e *island.Engine, p island.Position) *replay {
	r := &replay{e: e, s: e.S, p: p, at: map[string]island.Hex{}, by: map[island.Hex]string{}, gone: map[string]bool{},
		side: map[string]island.Side{}, class: map[string]island.Class{}, unit: map[string]island.Unit{}, advanced: map[string]bool{}}
	for i, u := range e.S.Units {
		r.side[u.ID], r.class[u.ID], r.unit[u.ID] = u.Side, e.S.ClassOf(u), u
		if pc := p.Pieces[i]; pc.Where == island.OnMap {
			r.at[u.ID], r.by[pc.Hex] = pc.Hex, u.ID
		}
	}
	return r
}

func (r *replay) move(id string, to island.Hex) error {
	if other, ok := r.by[to]; ok && other != id {
		return fmt.Errorf("%s enters %s, which %s holds", id, to, other)
	}
	delete(r.by, r.at[id])
	r.at[id], r.by[to] = to, id
	return nil
}

func (r *replay) remove(id string) {
	if h, ok := r.at[id]; ok {
		delete(r.by, h)
		delete(r.at, id)
	}
	r.gone[id] = true
}

// controlled reports whether a unit of side s is next to h (rule 6.0).
func (r *replay) controlled(h island.Hex, s island.Side) bool {
	for _, n := range r.s.Grid.Neighbours(h) {
		if id, ok := r.by[n]; ok && r.side[id] == s {
			return true
		}
	}
	return false
}

// enters reports why a unit of side s may not go from a to b in a retreat
// or a displacement (rules 7.71, 7.72), or "" if it may.
func (r *replay) enters(s island.Side, a, b island.Hex) string {
	switch {
	case !r.s.Grid.Adjacent(a, b):
		return fmt.Sprintf("%s is not next to %s", b, a)
	case r.s.TerrainOf(b).Impassable:
		return fmt.Sprintf("%s is impassable", b)
	case r.s.HasClass(a, b, island.ClassProhibited):
		return fmt.Sprintf("%s-%s is a prohibited hexside (rule 7.72)", a, b)
	case r.controlled(b, s.Enemy()):
		return fmt.Sprintf("%s is in an enemy zone of control (rule 7.71)", b)
	}
	if id, ok := r.by[b]; ok && r.side[id] != s {
		return fmt.Sprintf("%s is held by the enemy (rule 5.12)", b)
	}
	return ""
}

// fullPath reports whether unit id could retreat n hexes from h0, each
// hex one farther (IW9), through hexes open to a retreat, and with
// friendFree only through vacant hexes (rule 7.73).
func (r *replay) fullPath(id string, h0 island.Hex, n int, friendFree bool) bool {
	s := r.side[id]
	var walk func(at island.Hex, k int) bool
	walk = func(at island.Hex, k int) bool {
		if k == n {
			return true
		}
		for _, c := range r.s.Grid.Neighbours(at) {
			if !r.s.Grid.On(c) || r.s.Grid.Distance(h0, c) != k+1 || r.enters(s, at, c) != "" {
				continue
			}
			if other, ok := r.by[c]; friendFree && ok && other != id {
				continue
			}
			if walk(c, k+1) {
				return true
			}
		}
		return false
	}
	return walk(h0, 0)
}

// attackTotals re-derives an attack's strengths from the printed values
// (rules 7.0, 8.31, 8.43, 9.11, 10.0) and whether it is artillery alone.
func (r *replay) attackTotals(c *island.CombatReport) (att, def int, artilleryOnly bool) {
	artilleryOnly = true
	for _, id := range c.Attackers {
		u := r.unit[id]
		switch cl := r.class[id]; {
		case cl == island.Artillery:
			att += u.Barrage
		case c.Banzai && (cl == island.Infantry || cl == island.Engineer):
			att += 2 * u.Attack
			artilleryOnly = false
		default:
			att += u.Attack
			artilleryOnly = false
		}
	}
	for _, id := range c.Barrage {
		att += r.unit[id].Barrage
	}
	att += c.GSP
	for _, id := range c.Defenders {
		def += r.unit[id].Defense
	}
	for _, id := range c.FPF {
		def += r.unit[id].FPF
	}
	def += c.FPFGSP
	return att, def, artilleryOnly
}

// line re-derives the defenders' CRT line (rules 7.41-7.45, 8.62; IW3):
// the best of each defender's hex, and of a hexside feature every ground
// attacker attacks it across, unless artillery alone attacks.
func (r *replay) line(c *island.CombatReport, artilleryOnly bool) island.Line {
	best := island.LineClear
	var ground []island.Hex
	for _, id := range c.Attackers {
		if r.class[id] != island.Artillery {
			ground = append(ground, r.at[id])
		}
	}
	better := func(l island.Line) {
		if l.Rank() > best.Rank() {
			best = l
		}
	}
	for _, d := range c.Defenders {
		h := r.at[d]
		better(r.s.TerrainOf(h).Line)
		if artilleryOnly || len(ground) == 0 {
			continue
		}
		for _, f := range r.s.FeaturesOf(h, ground[0]) {
			l := f.Line
			if l == "" && f.Class == island.ClassRiver {
				l = island.LineRiver
			}
			if l == "" {
				continue
			}
			all := true
			for _, g := range ground[1:] {
				has := false
				for _, f2 := range r.s.FeaturesOf(h, g) {
					has = has || f2.Name == f.Name
				}
				all = all && has
			}
			if all {
				better(l)
			}
		}
	}
	return best
}

// combat checks one resolved attack against the board as the replay has
// it, then applies it.
func (r *replay) combat(c *island.CombatReport) error {
	g := r.s.Grid
	for _, id := range append(append([]string(nil), c.Attackers...), c.Defenders...) {
		if r.advanced[id] {
			return fmt.Errorf("%s fights after it advanced in this phase (rule 7.96)", id)
		}
	}
	for _, a := range c.Attackers {
		for _, d := range c.Defenders {
			if !g.Adjacent(r.at[a], r.at[d]) {
				return fmt.Errorf("attacker %s in %s is not next to defender %s in %s (rule 7.23)", a, r.at[a], d, r.at[d])
			}
		}
	}
	att, def, artOnly := r.attackTotals(c)
	if att != c.AttackTotal || def != c.DefenseTotal || artOnly != c.ArtilleryOnly {
		return fmt.Errorf("totals %d against %d (artillery only %v) logged, %d against %d (%v) from the units", c.AttackTotal, c.DefenseTotal, c.ArtilleryOnly, att, def, artOnly)
	}
	if artOnly && (len(c.FPF) > 0 || c.FPFGSP > 0) {
		return fmt.Errorf("final protective fire against artillery alone (rule 8.45)")
	}
	if c.Differential != c.AttackTotal-c.DefenseTotal {
		return fmt.Errorf("differential %d logged for %d against %d", c.Differential, c.AttackTotal, c.DefenseTotal)
	}
	if l := r.line(c, artOnly); l != c.Line {
		return fmt.Errorf("line %s logged, %s from the terrain", c.Line, l)
	}
	col, err := digestColumn(c.Line, c.Differential)
	if err != nil {
		return err
	}
	if col != c.Column {
		return fmt.Errorf("column %d logged for %+d on the %s line; the table gives %d", c.Column, c.Differential, c.Line, col)
	}
	if c.Die < 1 || c.Die > 6 {
		return fmt.Errorf("die %d", c.Die)
	}
	if res := digestResult(col, c.Die); res != c.Result {
		return fmt.Errorf("result %s logged for column %d, die %d; the table gives %s", c.Result, col, c.Die, res)
	}
	void := c.Result == island.D1 && artOnly // rule 8.15
	if void != c.Void {
		return fmt.Errorf("void %v logged for %s, artillery only %v", c.Void, c.Result, artOnly)
	}
	// The losers: who carries the result out (rules 7.62, 8.14, 8.33).
	var losers []string
	switch c.Result {
	case island.D1, island.D2, island.D3, island.De:
		if !void {
			losers = c.Defenders
		}
	case island.A1, island.A2, island.A3, island.Ae:
		losers = c.Attackers
	}
	// The paths of retreat (rule 7.91): every hex a loser leaves.
	vacated := map[island.Hex]bool{}
	for _, id := range losers {
		vacated[r.at[id]] = true
	}
	for _, ret := range c.Retreats {
		for k, h := range ret.Path {
			if ret.Eliminated || k < len(ret.Path)-1 {
				vacated[h] = true
			}
		}
	}
	winners := c.Defenders
	if contains(losers, firstOf(c.Defenders)) {
		winners = c.Attackers
	}
	next := map[string]bool{} // winners next to a loser when the result came
	for _, w := range winners {
		for _, l := range losers {
			next[w] = next[w] || g.Adjacent(r.at[w], r.at[l])
		}
	}
	elim := map[string]bool{}
	for _, id := range c.Eliminated {
		elim[id] = true
	}
	n := retreatLength(c.Result)
	if n == 0 {
		if len(c.Retreats) > 0 {
			return fmt.Errorf("retreats after %s", c.Result)
		}
		want := 0
		if c.Result == island.De || c.Result == island.Ae {
			want = len(losers)
		}
		if len(c.Eliminated) != want {
			return fmt.Errorf("%d eliminated after %s, want %d", len(c.Eliminated), c.Result, want)
		}
		for _, id := range losers {
			if !elim[id] {
				return fmt.Errorf("%s survives %s", id, c.Result)
			}
			r.remove(id)
		}
	} else {
		if len(c.Retreats) != len(losers) {
			return fmt.Errorf("%d retreats after %s for %d units", len(c.Retreats), c.Result, len(losers))
		}
		for _, ret := range c.Retreats {
			if !contains(losers, ret.Unit) {
				return fmt.Errorf("%s retreats, but does not carry out %s", ret.Unit, c.Result)
			}
			if err := r.retreat(ret, n); err != nil {
				return fmt.Errorf("retreat of %s after %s: %w", ret.Unit, c.Result, err)
			}
			if ret.Eliminated != elim[ret.Unit] {
				return fmt.Errorf("%s: eliminated in its retreat %v, in the list %v", ret.Unit, ret.Eliminated, elim[ret.Unit])
			}
		}
	}
	for _, id := range c.Removals {
		if !c.Banzai || !contains(c.Attackers, id) {
			return fmt.Errorf("%s removed for Banzai (rule 10.0) in an attack it made no Banzai in", id)
		}
		r.remove(id)
	}
	for _, adv := range c.Advances {
		if !contains(winners, adv.Unit) || !next[adv.Unit] || r.gone[adv.Unit] {
			return fmt.Errorf("%s advances, but is not a winner that fought next to a loser, or is gone (rules 7.91, 7.94)", adv.Unit)
		}
		if !vacated[adv.To] {
			return fmt.Errorf("%s advances to %s, off every path of retreat (rule 7.95)", adv.Unit, adv.To)
		}
		r.advanced[adv.Unit] = true
		if err := r.move(adv.Unit, adv.To); err != nil {
			return fmt.Errorf("advance: %w", err)
		}
	}
	return nil
}

// retreat checks one unit's retreat of n hexes (rules 7.7, 7.8) and
// applies it with its displacements.
func (r *replay) retreat(ret island.Retreat, n int) error {
	id := ret.Unit
	h0, ok := r.at[id]
	if !ok {
		return fmt.Errorf("%s is not on the map", id)
	}
	s := r.side[id]
	g := r.s.Grid
	if !ret.Eliminated && len(ret.Path) != n {
		return fmt.Errorf("it survives a path of %d hexes, not %d (rule 7.74)", len(ret.Path), n)
	}
	if len(ret.Path) > n {
		return fmt.Errorf("a path of %d hexes, more than %d", len(ret.Path), n)
	}
	if ret.Eliminated {
		if len(ret.Path) > 0 && r.fullPath(id, h0, n, false) {
			return fmt.Errorf("eliminated after %d hexes although a path of %d was open", len(ret.Path), n)
		}
		if r.fullPath(id, h0, n, true) {
			return fmt.Errorf("eliminated although a path of %d vacant hexes was open", n)
		}
	}
	if len(ret.Displaced) > 0 && r.fullPath(id, h0, n, true) {
		return fmt.Errorf("displaces friends although a path of %d vacant hexes was open (rule 7.73)", n)
	}
	at := h0
	for k, h := range ret.Path {
		if f, ok := r.by[h]; ok && f != id && !displacedFromHex(ret.Displaced, f, h) {
			return fmt.Errorf("hex %d of its path, %s, holds %s, which it does not displace (rule 7.81)", k+1, h, f)
		}
		if d := g.Distance(h0, h); d != k+1 {
			return fmt.Errorf("hex %d of its path, %s, is %d from %s, not %d", k+1, h, d, h0, k+1)
		}
		if why := r.enters(s, at, h); why != "" {
			return fmt.Errorf("hex %d of its path: %s", k+1, why)
		}
		at = h
	}
	for _, d := range ret.Displaced {
		if r.side[d.Unit] != s || r.at[d.Unit] != d.From || d.Unit == id {
			return fmt.Errorf("displaces %s from %s, where no friend of it stands", d.Unit, d.From)
		}
		if !contains(hexStrings(ret.Path), d.From.String()) && !r.displacedFrom(ret.Displaced, d.From) {
			return fmt.Errorf("displaces %s from %s, off its path and off the chain", d.Unit, d.From)
		}
		if why := r.enters(s, d.From, d.To); why != "" {
			return fmt.Errorf("displaces %s to %s: %s", d.Unit, d.To, why)
		}
		delete(r.by, d.From)
		r.at[d.Unit] = d.To
	}
	// The displacements are checked against the board before this retreat;
	// once all are made, no two units may share a hex.
	for _, d := range ret.Displaced {
		r.by[r.at[d.Unit]] = d.Unit
	}
	if len(r.by) != len(r.at) {
		return fmt.Errorf("its displacements leave two units in one hex")
	}
	if ret.Eliminated {
		r.remove(id)
		return nil
	}
	return r.move(id, ret.Path[len(ret.Path)-1])
}

func firstOf(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// displacedFrom reports whether a unit of the chain was pushed into h.
func (r *replay) displacedFrom(ds []island.Displacement, h island.Hex) bool {
	for _, d := range ds {
		if d.To == h {
			return true
		}
	}
	return false
}

// displacedFromHex reports whether unit f is displaced out of h.
func displacedFromHex(ds []island.Displacement, f string, h island.Hex) bool {
	for _, d := range ds {
		if d.Unit == f && d.From == h {
			return true
		}
	}
	return false
}

func hexStrings(hs []island.Hex) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// checkCombatPhase holds a whole Combat Phase to the rules: from before,
// the position the phase began in, through its events to after.
//
//   - Every unit next to an enemy when the phase began is named in an
//     attack, the phasing ones as attackers, the others as defenders
//     (rules 7.11, 7.12, 8.31; IW10), and every one of those attacks is
//     resolved or skipped by IW20.
//   - Each resolved attack's totals follow from the units' printed values,
//     its line from the terrain, its column and result from the table as
//     the digest prints it, and its retreats are of the result's length
//     or end in elimination, through hexes a retreat may enter.
//   - Replayed event by event, the board ends as after has it, with the
//     ground support spent.
func checkCombatPhase(e *island.Engine, before, after island.Position, evs []island.Event) error {
	r := newReplay(e, before)
	us := before.Phasing
	named := map[string]int{}
	spent := map[island.Side]int{}
	fought := map[string]bool{}
	for _, ev := range evs {
		c := ev.Combat
		if c == nil {
			continue
		}
		for _, id := range append(append([]string(nil), c.Attackers...), c.Defenders...) {
			named[id]++
		}
		if ev.Kind != island.EvCombat {
			continue
		}
		if err := r.combat(c); err != nil {
			return fmt.Errorf("attack %d (%s on %s): %w", c.Index, strings.Join(c.Attackers, ","), strings.Join(c.Defenders, ","), err)
		}
		for _, id := range append(append([]string(nil), c.Attackers...), c.Defenders...) {
			fought[id] = true
		}
		spent[us] += c.GSP
		spent[us.Enemy()] += c.FPFGSP
	}
	for i, pc := range before.Pieces {
		if pc.Where != island.OnMap || !r0Contact(e, before, i) {
			continue
		}
		if named[pc.ID] != 1 {
			role := "defender"
			if e.S.Units[i].Side == us {
				role = "attacker"
			}
			return fmt.Errorf("%s in %s began the Combat Phase next to an enemy and is named as %s in %d attacks, not 1 (rules 7.11, 7.12)", pc.ID, pc.Hex, role, named[pc.ID])
		}
	}
	for i, pc := range after.Pieces {
		id := e.S.Units[i].ID
		h, on := r.at[id]
		switch {
		case pc.Where == island.OnMap && (!on || h != pc.Hex):
			return fmt.Errorf("%s ends the phase in %s; its events leave it in %s (on the map: %v)", id, pc.Hex, h, on)
		case pc.Where != island.OnMap && on:
			return fmt.Errorf("%s ends the phase %s; its events leave it in %s", id, pc.Where, h)
		case pc.Where == island.Eliminated && !r.gone[id] && before.Pieces[i].Where != island.Eliminated:
			return fmt.Errorf("%s is eliminated by no event", id)
		}
		if pc.Where == island.OnMap && fought[id] && pc.Attacked != before.Combats && pc.Defended != before.Combats {
			return fmt.Errorf("%s fought in this Combat Phase (%d) but its piece says it last attacked in %d and was attacked in %d (rule 7.14)", id, before.Combats, pc.Attacked, pc.Defended)
		}
	}
	if after.Turn == before.Turn { // the Game-Turn goes on: its points are left
		for _, s := range []island.Side{island.US, island.Japan} {
			if want := before.GSP[s] - spent[s]; after.GSP[s] != want {
				return fmt.Errorf("%s has %d ground support points after the phase; %d less %d spent is %d", s, after.GSP[s], before.GSP[s], spent[s], want)
			}
		}
	}
	return nil
}

// r0Contact reports whether piece i is next to an enemy in p.
func r0Contact(e *island.Engine, p island.Position, i int) bool {
	s := e.S.Units[i].Side
	for j, pc := range p.Pieces {
		if pc.Where == island.OnMap && e.S.Units[j].Side != s && e.S.Grid.Adjacent(pc.Hex, p.Pieces[i].Hex) {
			return true
		}
	}
	return false
}

// checkBoard holds the invariants of any position: one unit a hex at most
// (so no stacking, rule 5.31, and none in an enemy's hex, rule 5.12), none
// off the map or in impassable terrain, ground support never negative,
// and eliminated units stay eliminated.
func checkBoard(e *island.Engine, p island.Position, gone map[string]bool) error {
	seen := map[island.Hex]string{}
	for i, pc := range p.Pieces {
		switch pc.Where {
		case island.OnMap:
			if gone[pc.ID] {
				return fmt.Errorf("%s came back from elimination", pc.ID)
			}
			if !e.S.Grid.On(pc.Hex) || e.S.TerrainOf(pc.Hex).Impassable {
				return fmt.Errorf("%s in %s", pc.ID, pc.Hex)
			}
			if other, ok := seen[pc.Hex]; ok {
				j, _ := unitIndex(e, other)
				if e.S.Units[j].Side != e.S.Units[i].Side {
					return fmt.Errorf("%s is in %s, the hex of enemy unit %s (rule 5.12)", pc.ID, pc.Hex, other)
				}
				return fmt.Errorf("%s and %s are stacked in %s (rule 5.31)", pc.ID, other, pc.Hex)
			}
			seen[pc.Hex] = pc.ID
		case island.Eliminated:
			gone[e.S.Units[i].ID] = true
		}
	}
	for s, n := range p.GSP {
		if n < 0 {
			return fmt.Errorf("%s has %d ground support points", s, n)
		}
	}
	return nil
}

func unitIndex(e *island.Engine, id string) (int, bool) {
	for i, u := range e.S.Units {
		if u.ID == id {
			return i, true
		}
	}
	return 0, false
}
