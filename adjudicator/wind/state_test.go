package wind

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"
)

// cloneShared lists the unexported fields of the position's types, which
// the reflection of TestCloneIsDeep cannot fill, with what Clone does with
// each. A new unexported field fails the test until it is listed here.
var cloneShared = map[string]string{
	"State.m":      "shared: the map is read-only",
	"State.cs":     "shared: the counter mix is read-only",
	"State.index":  "rebuilt for the copy's units (checked by TestCloneIsDeep)",
	"Unit.counter": "shared: a counter is read-only",
}

// deepWalker gives every exported field under a value a value of its own
// (set), or changes every one of them (change): each bool, number and
// string, each element of each slice and each entry of each map, through
// pointers and structs.
type deepWalker struct {
	t      *testing.T
	n      int
	change bool
	seen   map[string]bool // unexported fields met, as "Type.field"
}

func (w *deepWalker) walk(v reflect.Value, path string) {
	w.t.Helper()
	w.n++
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!w.change || !v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if w.change {
			v.SetInt(v.Int() + 1)
		} else {
			v.SetInt(int64(w.n%100 + 1))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if w.change {
			v.SetUint(v.Uint() + 1)
		} else {
			v.SetUint(uint64(w.n%100 + 1))
		}
	case reflect.String:
		if w.change {
			v.SetString(v.String() + "'")
		} else {
			v.SetString(fmt.Sprintf("v%d", w.n))
		}
	case reflect.Pointer:
		if v.IsNil() {
			if w.change {
				w.t.Fatalf("%s: nil pointer after filling", path)
			}
			v.Set(reflect.New(v.Type().Elem()))
		}
		w.walk(v.Elem(), path)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name := t.Name() + "." + f.Name
			if !f.IsExported() {
				if _, ok := cloneShared[name]; !ok {
					w.t.Fatalf("%s.%s is unexported: teach Clone and cloneShared what to do with it", path, f.Name)
				}
				w.seen[name] = true
				continue
			}
			w.walk(v.Field(i), path+"."+f.Name)
		}
	case reflect.Array:
		for i := range v.Len() {
			w.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if w.change {
				w.t.Fatalf("%s: empty slice after filling", path)
			}
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		}
		for i := range v.Len() {
			w.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if v.Len() == 0 {
			if w.change {
				w.t.Fatalf("%s: empty map after filling", path)
			}
			v.Set(reflect.MakeMap(v.Type()))
			for range 2 {
				k := reflect.New(v.Type().Key()).Elem()
				w.walk(k, path+"[key]")
				e := reflect.New(v.Type().Elem()).Elem()
				w.walk(e, fmt.Sprintf("%s[%v]", path, k))
				v.SetMapIndex(k, e)
			}
			return
		}
		for _, k := range v.MapKeys() { // in any order: a change does not count
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k)) // map entries are not addressable: change a copy
			w.walk(e, fmt.Sprintf("%s[%v]", path, k))
			v.SetMapIndex(k, e)
		}
	default:
		w.t.Fatalf("%s: a %s, which TestCloneIsDeep cannot fill: teach it, and Clone", path, v.Kind())
	}
}

// differ reports the paths of the leaves (bools, numbers, strings) where a
// and b, of one shape, are equal.
func differ(a, b reflect.Value, path string, same *[]string) {
	switch a.Kind() {
	case reflect.Pointer:
		differ(a.Elem(), b.Elem(), path, same)
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() {
				differ(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, same)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range min(a.Len(), b.Len()) {
			differ(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), same)
		}
	case reflect.Map:
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				differ(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k), same)
			}
		}
	default:
		if a.Interface() == b.Interface() {
			*same = append(*same, path)
		}
	}
}

// filledState returns a position with every exported field set, down to
// the fields of each unit and two entries in every slice and map.
func filledState(t *testing.T) *State {
	t.Helper()
	s := NewState(nil, nil)
	w := &deepWalker{t: t, seen: map[string]bool{}}
	w.walk(reflect.ValueOf(s), "State")
	for name := range cloneShared {
		if !w.seen[name] {
			t.Fatalf("cloneShared lists %s, which is no longer a field", name)
		}
	}
	s.reindex() // the walk gave the units new ids
	return s
}

// TestCloneIsDeep fills every field of a position, clones it, changes
// every field of the copy (each element of each slice and map, through
// every unit) and checks that the original did not change. It walks the
// types by reflection, so a field added later is covered without editing
// the test; an unexported field must be listed in cloneShared.
func TestCloneIsDeep(t *testing.T) {
	orig, want := filledState(t), filledState(t)
	if !reflect.DeepEqual(orig, want) {
		t.Fatal("filling is not deterministic")
	}
	c := orig.Clone()
	if !reflect.DeepEqual(c, orig) {
		t.Fatal("the clone differs from the original")
	}
	if c.m != orig.m || c.cs != orig.cs {
		t.Error("the clone has another map or counter mix")
	}
	for i, u := range c.Units {
		if u == orig.Units[i] {
			t.Fatalf("unit %d is shared", i)
		}
		if got, ok := c.Unit(u.ID); !ok || got != u {
			t.Fatalf("the clone's index finds %s at %p, not its own unit %p", u.ID, got, u)
		}
		if u.counter != orig.Units[i].counter {
			t.Fatalf("unit %d has another counter", i)
		}
	}

	w := &deepWalker{t: t, change: true, seen: map[string]bool{}}
	w.walk(reflect.ValueOf(c), "State")
	var same []string
	differ(reflect.ValueOf(c), reflect.ValueOf(orig), "State", &same)
	if len(same) > 0 {
		t.Errorf("changing the clone changed the original at %d places, among them %v", len(same), same[:min(len(same), 8)])
	}
	if !reflect.DeepEqual(orig, want) {
		t.Error("the original changed with its clone")
	}
	t.Logf("%d values set and changed", w.n)
}

// TestConcurrentReaders reads one position from several goroutines at
// once, as a server answering several players may; run with -race, it
// fails if a read writes the position (a lazily built index or cache).
func TestConcurrentReaders(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var positions []*State
	for range 3 {
		positions = append(positions, randomState(r))
	}
	// The ways a position comes to be: created, cloned, decoded.
	decoded := new(State)
	if err := json.Unmarshal(mustJSON(t, positions[0]), decoded); err != nil {
		t.Fatal(err)
	}
	if err := decoded.Attach(nil, nil); err != nil {
		t.Fatal(err)
	}
	positions = append(positions, NewState(nil, nil), positions[1].Clone(), decoded)
	for i, s := range positions {
		var wg sync.WaitGroup
		results := make([]string, 4)
		for g := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[g] = readAll(s)
			}()
		}
		wg.Wait()
		for g := range results {
			if results[g] != results[0] {
				t.Fatalf("position %d: reader %d read %q, reader 0 %q", i, g, results[g], results[0])
			}
		}
	}
}

// readAll runs the read-only queries on s and sums up what they answer.
func readAll(s *State) string {
	n := 0
	for _, u := range s.Units {
		if v, ok := s.Unit(u.ID); ok && v == u {
			n++
		}
		if u.OnMap() {
			n += len(s.UnitsAt(u.Hex)) + len(s.Reachable(u))
			if s.InSupply(u) {
				n++
			}
		}
	}
	hexes, _ := s.Occupants()
	for _, side := range []Side{US, JP, Umpire} {
		o := s.Outlook(side) // what a report is made of, each side's at once
		n += len(o.Units) + len(o.Standing) + len(o.Options)
	}
	us, jp := s.View(US), s.View(JP)
	w := s.Wait()
	return fmt.Sprintf("%d %d %d %d %s %v %d", n, len(hexes), len(us.Units), len(jp.Units), w,
		s.Validate() == nil, len(CheckActions(s, Orders{Side: w.Side, Turn: s.Turn})))
}

// TestPlaceInBoxTurnsFaceUp checks that a unit placed in a box leaves the
// map as the rules remove units: face up, no melee declared, so that a
// setup moving a hidden unit to the pool leaves a sound position.
func TestPlaceInBoxTurnsFaceUp(t *testing.T) {
	s := NewState(nil, nil)
	if err := s.Place("J01", 2717, ""); err != nil {
		t.Fatal(err)
	}
	u, _ := s.Unit("J01")
	u.FaceDown, u.Melee = true, 2618
	if err := s.Place("J01", 2817, ""); err != nil || !u.FaceDown {
		t.Fatalf("moved on the map: face down %v (%v), want kept", u.FaceDown, err)
	}
	if err := s.Place("J01", 0, BoxPool); err != nil {
		t.Fatal(err)
	}
	if u.OnMap() || u.Box != BoxPool || u.FaceDown || u.Melee != 0 {
		t.Fatalf("placed in the pool: %+v", *u)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}
