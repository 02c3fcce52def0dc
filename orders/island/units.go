package island

import (
	"fmt"
	"strconv"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

var classes = []string{string(iw.Infantry), string(iw.Engineer), string(iw.Armor), string(iw.Artillery), string(iw.Other)}

// kinds reads the counter types and the class the rules treat each as
// (ruling IW14).
func (b *builder) kinds() {
	if len(b.f.Kinds) == 0 {
		b.missing(b.f.Pos, "kinds", "list the counter types with their class, like field-artillery: artillery")
		return
	}
	for _, e := range b.f.Kinds {
		if b.oneOf(e.Value, "kinds."+e.Key.Value+": class", classes) {
			b.classes[e.Key.Value] = iw.Class(e.Value.Value)
			b.sc.Kinds = append(b.sc.Kinds, iw.Kind{Name: e.Key.Value, Class: iw.Class(e.Value.Value)})
		}
	}
}

// unitList reads both sides' counters.
func (b *builder) unitList() {
	u := b.f.Units
	if u == nil {
		b.missing(b.f.Pos, "units", "list each side's counters under units: us: and japan:")
		return
	}
	for _, side := range []struct {
		side iw.Side
		list []unitEntry
	}{{iw.US, u.US}, {iw.Japan, u.Japan}} {
		if len(side.list) == 0 {
			b.missing(u.Pos, "units."+string(side.side), "list the side's counters")
		}
		for _, e := range side.list {
			b.unit(side.side, e)
		}
	}
}

func (b *builder) unit(side iw.Side, e unitEntry) {
	if !e.ID.Set() {
		b.missing(e.Pos, "id", "give the counter's id, like 1/5")
		return
	}
	id := e.ID.Value
	if id == "" || strings.ContainsAny(id, " \t,") {
		b.ps.at(e.ID.Pos, "write it without spaces or commas, like 2/5 or 2/5Mar", "unit id %q has spaces or commas", id)
		return
	}
	if first, dup := b.unitPos[id]; dup {
		b.ps.at(e.ID.Pos, "give every counter its own id", "unit id %s is given twice (first at line %d)", id, first.Line)
		return
	}
	b.unitPos[id] = e.ID.Pos
	u := iw.Unit{ID: id, Name: e.Name.Value, Side: side}
	if !e.Kind.Set() {
		b.missing(e.Pos, "unit "+id+": kind", "give its counter type, one of kinds")
	} else if class, ok := b.classes[e.Kind.Value]; ok {
		u.Kind = e.Kind.Value
		b.values(&u, class, e)
	} else if !b.kindListed(e.Kind.Value) {
		fix := "add it to kinds with its class"
		if len(b.f.Kinds) > 0 {
			fix = "use one of kinds (" + b.kindList() + ") or add it there"
		}
		b.ps.at(e.Kind.Pos, fix, "unit %s: kind %q is not in kinds", id, e.Kind.Value)
	}
	b.units[id] = &u
	b.sc.Units = append(b.sc.Units, u)
}

func (b *builder) kindListed(name string) bool { return b.kindNames[name] }

func (b *builder) kindList() string { return keys(b.f.Kinds) }

// values reads a counter's printed values in rule 3.0's order.
func (b *builder) values(u *iw.Unit, class iw.Class, e unitEntry) {
	v := e.Values
	form, example := "Attack-Defense-Movement", "5-4-4"
	if class == iw.Artillery {
		form, example = "Barrage-FPF-Range/Defense-Movement", "6-3-5/2-3"
	}
	fix := fmt.Sprintf("write them as printed, %s, like %s (rule 3.0)", form, example)
	if !v.Set() {
		b.missing(e.Pos, "unit "+u.ID+": values", fix)
		return
	}
	groups := strings.Split(v.Value, "/")
	want := []int{3}
	if class == iw.Artillery {
		want = []int{3, 2}
	}
	var nums []int
	ok := len(groups) == len(want)
	for i, g := range groups {
		fields := strings.Split(strings.TrimSpace(g), "-")
		if i < len(want) && len(fields) != want[i] {
			ok = false
		}
		for _, s := range fields {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 0 || n > 99 {
				ok = false
			}
			nums = append(nums, n)
		}
	}
	if !ok {
		what := fmt.Sprintf("unit %s (%s, class %s): values %q are not %s", u.ID, u.Kind, class, v.Value, form)
		if class == iw.Artillery && len(groups) == 1 {
			what = fmt.Sprintf("unit %s (%s, class artillery): values %q lack the artillery's Barrage, FPF and Range", u.ID, u.Kind, v.Value)
		} else if class != iw.Artillery && len(groups) == 2 {
			what = fmt.Sprintf("unit %s (%s, class %s): values %q are an artillery unit's", u.ID, u.Kind, class, v.Value)
			fix += ", or make its kind one of class artillery"
		}
		b.ps.at(v.Pos, fix, "%s", what)
		return
	}
	if class == iw.Artillery {
		u.Barrage, u.FPF, u.Range, u.Defense, u.Movement = nums[0], nums[1], nums[2], nums[3], nums[4]
		if u.Barrage < 1 || u.Range < 1 {
			b.ps.at(v.Pos, "artillery needs a Barrage of 1 or more and a Range of 1 or more (rules 2.32, 8.11)", "unit %s: values %q give Barrage %d and Range %d", u.ID, v.Value, u.Barrage, u.Range)
		}
		return
	}
	u.Attack, u.Defense, u.Movement = nums[0], nums[1], nums[2]
}

// MaxAreaHexes is how many hexes all areas together may hold: a map of
// 99x99 hexes in a few dozen areas, and no file that blocks of the whole
// map, copied thousands of times, make expensive to read.
const MaxAreaHexes = 50000

// areaList reads the named areas: hex ids and blocks "AAAA..BBBB".
func (b *builder) areaList() {
	total := 0
	for _, e := range b.f.Areas {
		name := e.Key.Value
		var hexes []iw.Hex
		seen := map[iw.Hex]bool{}
		add := func(h iw.Hex, p Pos) {
			if seen[h] {
				b.ps.at(p, "name each hex of an area once", "area %s: hex %s is in it twice", name, h)
				return
			}
			seen[h] = true
			hexes = append(hexes, h)
		}
		before := len(b.ps.list)
		for _, s := range e.Value {
			from, to, block := strings.Cut(s.Value, "..")
			if !block {
				if h, ok := b.enterable(s, "area "+name); ok {
					add(h, s.Pos)
				}
				continue
			}
			a, okA := b.hexText(from, s.at(0), "area "+name)
			z, okZ := b.hexText(to, s.at(len(from)+2), "area "+name)
			if !okA || !okZ {
				continue
			}
			if a.Col > z.Col || a.Row > z.Row {
				b.ps.at(s.Pos, fmt.Sprintf("write the north-west corner first: %02d%02d..%02d%02d", min(a.Col, z.Col), min(a.Row, z.Row), max(a.Col, z.Col), max(a.Row, z.Row)), "area %s: block %s runs backwards", name, s.Value)
				continue
			}
			for c := a.Col; c <= z.Col; c++ {
				for r := a.Row; r <= z.Row; r++ {
					h := iw.Hex{Col: c, Row: r}
					if t, ok := b.hexes[h]; !ok || !t.Impassable {
						add(h, s.Pos)
					}
				}
			}
		}
		if len(e.Value) == 0 {
			b.ps.at(e.Key.Pos, "list its hexes", "area %s is empty", name)
		}
		b.badArea[name] = len(b.ps.list) > before || !b.gridOK
		if total += len(hexes); total > MaxAreaHexes {
			b.ps.at(e.Key.Pos, "name fewer hexes: areas are for set-up, entry and victory", "the areas hold more than %d hexes in all", MaxAreaHexes)
			return
		}
		b.areas[name] = hexes
		if b.sc.Areas == nil {
			b.sc.Areas = map[string][]iw.Hex{}
		}
		b.sc.Areas[name] = hexes
	}
}

// area looks an area up by name.
func (b *builder) area(s Str, what string) ([]iw.Hex, bool) {
	hexes, ok := b.areas[s.Value]
	if !ok {
		fix := "define it under areas"
		if len(b.f.Areas) > 0 {
			fix = "use one of areas (" + keys(b.f.Areas) + ") or define it there"
		}
		b.ps.at(s.Pos, fix, "%s: area %q is not defined", what, s.Value)
	}
	return hexes, ok
}

// unitRef looks a unit up by id.
func (b *builder) unitRef(s Str, what string) (*iw.Unit, bool) {
	u, ok := b.units[s.Value]
	if !ok {
		if _, listed := b.unitPos[s.Value]; !listed {
			b.ps.at(s.Pos, "use the id of a counter listed under units", "%s: unit %q is not in units", what, s.Value)
		}
	}
	return u, ok
}

// enters records that a unit enters play here (placed or arriving); a
// unit enters exactly once.
func (b *builder) enters(s Str, what string) (*iw.Unit, bool) {
	u, ok := b.unitRef(s, what)
	if !ok {
		return nil, false
	}
	if first, dup := b.entered[s.Value]; dup {
		b.ps.at(s.Pos, "place it under setup or bring it in on the track, once", "%s: unit %s already enters play at line %d", what, s.Value, first.Line)
		return nil, false
	}
	b.entered[s.Value] = s.Pos
	return u, true
}

// setup reads the Initial Deployment Charts (rule 3.0): a unit on a named
// hex, or units in an area where their owner places them.
func (b *builder) setup() {
	s := b.f.Setup
	if s == nil {
		b.missing(b.f.Pos, "setup", "say where each side's units begin (rule 3.0)")
		return
	}
	if s.First.Set() {
		if side, ok := b.side(s.First, s.Pos, "setup.first"); ok {
			b.sc.Setup.First = side
		}
	}
	onHex := map[iw.Hex]string{}
	inArea := map[string]int{}
	var areaPlaced []placement
	for _, p := range s.Place {
		ids := p.Units
		if p.Unit.Set() {
			ids = append([]Str{p.Unit}, ids...)
		}
		switch {
		case len(ids) == 0:
			b.missing(p.Pos, "unit", "name the unit placed, like {unit: 1/5, hex: 0304}")
		case p.Hex.Set() && p.Area.Set():
			b.ps.at(p.Area.Pos, "keep hex for a named hex or area for the owner's choice", "a placement has both hex and area")
		case !p.Hex.Set() && !p.Area.Set():
			b.missing(p.Pos, "hex or area", "give the hex the unit starts in, or the area its owner places it in")
		case p.Hex.Set() && len(ids) > 1:
			b.ps.at(p.Hex.Pos, "place each unit on its own hex", "%d units on hex %s: no two units of a side may share a hex (rule 5.31)", len(ids), p.Hex.Value)
		}
		var hex *iw.Hex
		if p.Hex.Set() {
			if h, ok := b.enterable(p.Hex, "setup"); ok {
				hex = &h
				if other, taken := onHex[h]; taken && len(ids) > 0 {
					b.ps.at(p.Hex.Pos, "place it on another hex", "setup: hex %s already holds %s; units never stack (rule 5.31)", p.Hex.Value, other)
				} else if len(ids) > 0 {
					onHex[h] = ids[0].Value
				}
			}
		}
		if p.Area.Set() {
			if _, ok := b.area(p.Area, "setup"); ok {
				inArea[p.Area.Value] += len(ids)
				areaPlaced = append(areaPlaced, p)
			}
		}
		for _, id := range ids {
			if _, ok := b.enters(id, "setup"); ok {
				b.sc.Setup.Placements = append(b.sc.Setup.Placements, iw.Placement{Unit: id.Value, Hex: hex, Area: p.Area.Value})
			}
		}
	}
	if len(areaPlaced) > 0 && !s.First.Set() {
		b.missing(s.Pos, "setup.first", "units are placed in areas, so say which side places first: first: us or first: japan (rule 3.0)")
	}
	b.areaRoom(areaPlaced, inArea, onHex)
}

// areaRoom checks that each area has a free hex for every unit placed in
// it, the hexes named for other units left out (no stacking, rule 5.31).
func (b *builder) areaRoom(placed []placement, count map[string]int, onHex map[iw.Hex]string) {
	checked := map[string]bool{}
	for _, p := range placed {
		name := p.Area.Value
		if checked[name] || b.badArea[name] {
			continue
		}
		checked[name] = true
		free := 0
		for _, h := range b.areas[name] {
			if _, taken := onHex[h]; !taken {
				free++
			}
		}
		if count[name] > free {
			b.ps.at(p.Area.Pos, "make the area larger or place fewer units in it", "setup: %d units are placed in area %s, which has %d free hexes (units never stack, rule 5.31)", count[name], name, free)
		}
	}
}

// track reads the Turn Record/Reinforcement Track: per Game-Turn its date,
// Ground Support Points and reinforcements (rule 3.0).
func (b *builder) track() {
	last := 0
	for _, t := range b.f.Track {
		if !t.Turn.Set() {
			b.missing(t.Pos, "turn", "give the Game-Turn of this space of the track")
			continue
		}
		ok := b.turn(t.Turn, "track")
		if ok && t.Turn.Value <= last {
			b.ps.at(t.Turn.Pos, "list each Game-Turn once, in order", "track: turn %d comes after turn %d", t.Turn.Value, last)
			ok = false
		}
		if ok {
			last = t.Turn.Value
		}
		if ok && strings.TrimSpace(t.Date.Value) != "" {
			if b.sc.Dates == nil {
				b.sc.Dates = map[int]string{}
			}
			b.sc.Dates[t.Turn.Value] = strings.TrimSpace(t.Date.Value)
		}
		if t.Support.Set() {
			b.support(t.Support, t.Turn.Value, ok)
		}
		for _, a := range t.Reinforcements {
			b.arrival(a, t.Turn.Value, ok)
		}
	}
}

// support reads "U/J" Ground Support Points, U.S. first; one number is
// U.S. only (rule 3.0).
func (b *builder) support(s Str, turn int, turnOK bool) {
	parts := strings.Split(s.Value, "/")
	var pts []int
	for _, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n > 999 {
			pts = nil
			break
		}
		pts = append(pts, n)
	}
	if len(pts) == 0 || len(pts) > 2 {
		b.ps.at(s.Pos, "write the points as printed on the track, U.S./Japanese like 3/1, or one number for the U.S. alone (rule 3.0)", "track turn %d: support %q is not Ground Support Points", turn, s.Value)
		return
	}
	if !turnOK {
		return
	}
	for i, side := range []iw.Side{iw.US, iw.Japan}[:len(pts)] {
		if pts[i] > 0 {
			b.sc.GroundSupport = append(b.sc.GroundSupport, iw.Support{Turn: turn, Side: side, Points: pts[i]})
		}
	}
}

// arrival reads one group of reinforcements: units of one side, entering
// at entry hexes or anywhere in an area.
func (b *builder) arrival(a arrival, turn int, turnOK bool) {
	what := fmt.Sprintf("track turn %d", turn)
	r := iw.Reinforcement{Turn: turn}
	switch {
	case len(a.Units) == 0:
		b.ps.at(a.Pos, "list the units that arrive, or remove the entry", "%s: a reinforcement of no units", what)
	case len(a.Entry) > 0 && a.Area.Set():
		b.ps.at(a.Area.Pos, "keep entry hexes or an area, not both", "%s: reinforcements have both entry and area", what)
	case len(a.Entry) == 0 && !a.Area.Set():
		b.missing(a.Pos, "entry or area", "give the hexes they enter at, like entry: [0101], or an area")
	}
	ok := turnOK
	for _, id := range a.Units {
		u, known := b.enters(id, what)
		if !known {
			ok = false
			continue
		}
		if r.Side == "" {
			r.Side = u.Side
		} else if u.Side != r.Side {
			b.ps.at(id.Pos, "list each side's reinforcements in their own entry", "%s: unit %s is %s's, the others %s's", what, id.Value, u.Side, r.Side)
			ok = false
		}
		r.Units = append(r.Units, id.Value)
	}
	for _, e := range a.Entry {
		if h, good := b.enterable(e, what+" entry"); good {
			r.Entry = append(r.Entry, h)
		} else {
			ok = false
		}
	}
	if a.Area.Set() {
		if _, good := b.area(a.Area, what); good {
			r.Area = a.Area.Value
		} else {
			ok = false
		}
	}
	if ok {
		b.sc.Reinforcements = append(b.sc.Reinforcements, r)
	}
}

// everyUnitEnters reports units neither placed nor arriving.
func (b *builder) everyUnitEnters() {
	if b.f.Setup == nil {
		return // "setup is missing" says it
	}
	for _, u := range b.sc.Units {
		if _, ok := b.entered[u.ID]; !ok {
			b.ps.at(b.unitPos[u.ID], "place it under setup.place or bring it in under track reinforcements", "unit %s never enters play", u.ID)
		}
	}
}
