package wind

import (
	_ "embed"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

//go:embed data/counters.yaml
var builtinCountersYAML []byte

// Kind is a unit type (rule 2.1).
type Kind uint8

// Unit kinds.
const (
	Infantry Kind = iota + 1
	Recon
	Engineer
	Depot
	Unknown
	Artillery
)

var kindNames = map[Kind]string{Infantry: "infantry", Recon: "recon", Engineer: "engineer", Depot: "depot", Unknown: "unknown", Artillery: "artillery"}

func (k Kind) String() string { return kindNames[k] }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for v, n := range kindNames {
		if n == string(b) {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("kind %q: want infantry, recon, engineer, depot, unknown or artillery", b)
}

// Rating is what a counter prints for one strength (rule 2.2). Range 0 means
// the unit cannot use ranged combat at that strength.
type Rating struct {
	Melee  int `yaml:"melee" json:"melee"`
	Ranged int `yaml:"ranged" json:"ranged"`
	Range  int `yaml:"range" json:"range"`
}

// Class is a kind of counter: its side, type, movement and ratings by steps.
type Class struct {
	ID          string   `yaml:"id"`
	Side        Side     `yaml:"side"`
	Kind        Kind     `yaml:"kind"`
	MP          int      `yaml:"mp"`
	Independent bool     `yaml:"independent"` // stacks with every battalion (4.1)
	Fixed       bool     `yaml:"fixed"`       // may not move (105mm)
	SoftGround  bool     `yaml:"soft_ground"` // rule 8.1.5
	Ratings     []Rating `yaml:"ratings"`     // full strength first
}

// Counter is one unit of the counter mix.
type Counter struct {
	ID        string
	Class     *Class
	Battalion string
	Engineer  string // for a supply depot: the engineer company that creates it
	Table     []int  // for an Unknown unit: infantry yielded for die 1..10
}

// MaxSteps is the counter's full strength (rule 2.4).
func (c *Counter) MaxSteps() int { return len(c.Class.Ratings) }

// Side returns the counter's side.
func (c *Counter) Side() Side { return c.Class.Side }

// Kind returns the counter's type.
func (c *Counter) Kind() Kind { return c.Class.Kind }

// Rating returns the counter's ratings at the given strength; zero ratings
// when steps is out of range.
func (c *Counter) Rating(steps int) Rating {
	n := len(c.Class.Ratings)
	if steps < 1 || steps > n {
		return Rating{}
	}
	return c.Class.Ratings[n-steps]
}

// Counters is the counter mix: every unit that can appear in a game.
type Counters struct {
	byID  map[string]*Counter
	order []string
	// VP is the victory point chits of the optional rule 14.0.
	VP VPMix
}

// VPMix is the victory point chits of rule 14.0: the value chits (each
// worth 1 to 3) and how many "0" and "Cancelled" chits there are.
type VPMix struct {
	Values    []int `yaml:"values"`
	Zero      int   `yaml:"zero"`
	Cancelled int   `yaml:"cancelled"`
}

// Get returns the counter with the given id.
func (cs *Counters) Get(id string) (*Counter, bool) {
	c, ok := cs.byID[id]
	return c, ok
}

// IDs returns every counter id in the order of the counters file.
func (cs *Counters) IDs() []string { return cs.order }

// Of returns the ids of every counter of a side and kind, in file order.
func (cs *Counters) Of(s Side, k Kind) []string {
	var out []string
	for _, id := range cs.order {
		if c := cs.byID[id]; c.Side() == s && c.Kind() == k {
			out = append(out, id)
		}
	}
	return out
}

type countersFile struct {
	Classes  []*Class `yaml:"classes"`
	Counters []struct {
		IDs       []string `yaml:"ids"`
		Class     string   `yaml:"class"`
		Battalion string   `yaml:"battalion"`
		Engineer  string   `yaml:"engineer"`
	} `yaml:"counters"`
	UnknownTables map[string][]int `yaml:"unknown_tables"`
	VPChits       VPMix            `yaml:"vp_chits"`
}

var builtinCounters = parseEmbedded(builtinCountersYAML, ParseCounters)

// BuiltinCounters returns the representative counter mix embedded in attu
// (RULINGS.md R1).
// It is shared and must not be modified.
func BuiltinCounters() *Counters { return builtinCounters.get("counters") }

// ParseCounters reads a counters file and checks it.
func ParseCounters(data []byte) (*Counters, error) {
	var f countersFile
	if err := decodeKnown(data, &f); err != nil {
		return nil, fmt.Errorf("counters: %w", err)
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("counters: "+format, a...)) }
	classes := map[string]*Class{}
	for _, c := range f.Classes {
		if c.ID == "" || classes[c.ID] != nil {
			bad("class %q: ids must be unique and not empty", c.ID)
			continue
		}
		if c.Side != US && c.Side != JP {
			bad("class %s: side must be us or jp", c.ID)
		}
		if c.Kind == 0 || len(c.Ratings) == 0 {
			bad("class %s: needs a kind and at least one rating", c.ID)
		}
		classes[c.ID] = c
	}
	cs := &Counters{byID: map[string]*Counter{}, VP: f.VPChits}
	for _, v := range f.VPChits.Values {
		if v < 1 || v > 3 {
			bad("vp_chits: a value chit is worth 1 to 3 (rule 14.0), not %d", v)
		}
	}
	if f.VPChits.Zero < 0 || f.VPChits.Cancelled < 0 {
		bad("vp_chits: the numbers of 0 and Cancelled chits may not be negative")
	}
	for _, e := range f.Counters {
		cl := classes[e.Class]
		if cl == nil {
			bad("counters %v: no class %q", e.IDs, e.Class)
			continue
		}
		for _, spec := range e.IDs {
			ids, err := expandIDs(spec)
			if err != nil {
				bad("%v", err)
				continue
			}
			for _, id := range ids {
				if cs.byID[id] != nil {
					bad("unit id %s appears twice", id)
					continue
				}
				if strings.ContainsAny(id, " \t:#,[]{}") {
					bad("unit id %q: ids may not contain spaces or YAML punctuation", id)
				}
				cs.byID[id] = &Counter{ID: id, Class: cl, Battalion: e.Battalion, Engineer: e.Engineer}
				cs.order = append(cs.order, id)
			}
		}
	}
	for id, c := range cs.byID {
		if c.Kind() == Unknown {
			t, ok := f.UnknownTables[id]
			if !ok || len(t) != 10 {
				bad("Unknown unit %s needs a table of 10 entries", id)
				continue
			}
			for _, n := range t {
				if n < 1 || n > 3 {
					bad("Unknown unit %s: a table yields 1 to 3 infantry units (rule 2.5)", id)
					break
				}
			}
			c.Table = t
		}
		if c.Kind() == Depot {
			if e, ok := cs.byID[c.Engineer]; !ok || e.Kind() != Engineer {
				bad("supply depot %s: engineer %q is not an engineer unit", id, c.Engineer)
			}
		}
		if c.Side() == US && c.Battalion == "" {
			bad("U.S. unit %s needs a battalion (rule 4.1)", id)
		}
	}
	var names []string
	for id := range f.UnknownTables {
		if c, ok := cs.byID[id]; !ok || c.Kind() != Unknown {
			names = append(names, id)
		}
	}
	sort.Strings(names)
	for _, id := range names {
		bad("unknown_tables lists %s, which is not an Unknown unit", id)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return cs, nil
}

// expandIDs expands "J01..J64" into J01, J02, ... J64; other ids stand alone.
func expandIDs(spec string) ([]string, error) {
	a, b, ok := strings.Cut(spec, "..")
	if !ok {
		return []string{spec}, nil
	}
	pa, na := splitDigits(a)
	pb, nb := splitDigits(b)
	lo, err1 := strconv.Atoi(na)
	hi, err2 := strconv.Atoi(nb)
	if pa != pb || err1 != nil || err2 != nil || lo > hi {
		return nil, fmt.Errorf("id range %q: want PREFIX<n>..PREFIX<m>", spec)
	}
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, fmt.Sprintf("%s%0*d", pa, len(na), i))
	}
	return out, nil
}

func splitDigits(s string) (prefix, digits string) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	return s[:i], s[i:]
}
