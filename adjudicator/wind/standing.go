package wind

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Standing holds a side's standing instructions: the decisions the rules
// leave to a player at moments when, playing by email, the player is not at
// the table. Each side keeps one in the state; an orders file
// may replace any field, and for the per-hex maps any hex, and the report
// shows what is in force. An empty field means the default (see
// DefaultStanding).
type Standing struct {
	// Losses is how the owner spreads hits over its units (rules 8.0,
	// 8.2.1.1, 8.2.1.2): "spread" puts each hit on the unit with the most
	// steps left; "concentrate" keeps hitting one unit until it is gone.
	// LossOrder names units to take hits first, in order.
	Losses    string   `json:"losses,omitempty"`
	LossOrder []string `json:"loss_order,omitempty"`
	// Retreat (U.S. only, rule 8.2.1.3) is when U.S. units in a melee
	// retreat after a round: "never", "always" (after the first round),
	// "if-losing" (when the round cost the U.S. more steps than it cost the
	// Japanese) or "below-N" (when the U.S. units in that melee have fewer
	// than N steps left). RetreatAt overrides it per melee hex (the hex of
	// the defenders).
	Retreat   string         `json:"retreat,omitempty"`
	RetreatAt map[Hex]string `json:"retreat_at,omitempty"`
	// Advance (rule 8.2.1.4) is which attacking units move into a vacated
	// defender's hex: "all", "none" or "strongest" (the one with the most
	// steps). AdvanceAt overrides it per melee hex.
	Advance   string         `json:"advance,omitempty"`
	AdvanceAt map[Hex]string `json:"advance_at,omitempty"`
	// UnknownTable (Japanese only, rule 2.5) picks the table rolled when
	// several Unknown units stack: "most" (the table yielding the most
	// infantry on average) or "fewest". UnknownTableAt names, per hex, the
	// Unknown unit whose table to roll.
	UnknownTable   string         `json:"unknown_table,omitempty"`
	UnknownTableAt map[Hex]string `json:"unknown_table_at,omitempty"`
	// FriendlyFire (rule 8.1.6) picks among several nearest friendly units
	// hit by one's own air: "most-steps" or "fewest-steps". The U.S. decides
	// by day, the Japanese at night.
	FriendlyFire string `json:"friendly_fire,omitempty"`
	// MeleeOrder is the order in which this side picks melee hexes when its
	// turn to pick comes (rule 3.7): hexes listed first; the rest by
	// MeleePick: "strongest" (where its attacking dice outnumber the
	// defenders' most) or "listed" (ascending hex after the list).
	MeleeOrder []Hex  `json:"melee_order,omitempty"`
	MeleePick  string `json:"melee_pick,omitempty"`
	// Martinez (U.S., rule 11.1) and Arnold (U.S., rule 11.2): "auto" uses
	// the hero at the first chance that changes a result, "never" keeps him,
	// or a hex "2717" spends him in the first melee at that hex.
	Martinez string `json:"martinez,omitempty"`
	Arnold   string `json:"arnold,omitempty"`
	// Decision (U.S. only, rules 3.1, 3.2) answers the decision at the
	// start of every turn in advance, so that a player who always wants
	// the same turn is not asked each time: "day", "night" or "refit" is
	// made by the server as soon as a turn begins, as if the U.S. had
	// filed it; "ask" (the default) waits for the player's decision.
	Decision string `json:"decision,omitempty"`
}

// Policy values.
const (
	LossesSpread       = "spread"
	LossesConcentrate  = "concentrate"
	RetreatNever       = "never"
	RetreatAlways      = "always"
	RetreatIfLosing    = "if-losing"
	RetreatBelowPrefix = "below-"
	AdvanceAll         = "all"
	AdvanceNone        = "none"
	AdvanceStrongest   = "strongest"
	TableMost          = "most"
	TableFewest        = "fewest"
	FireMostSteps      = "most-steps"
	FireFewestSteps    = "fewest-steps"
	PickStrongest      = "strongest"
	PickListed         = "listed"
	HeroAuto           = "auto"
	HeroNever          = "never"
	DecisionAsk        = "ask"
	DecisionDay        = "day"
	DecisionNight      = "night"
	DecisionRefit      = "refit"
)

// DefaultStanding returns the documented defaults: hits spread over the
// strongest units, the U.S. never retreats on its own, every attacker
// advances, the Japanese roll the richest Unknown table, friendly air hits
// the unit with most steps, melee hexes are picked strongest first, and the
// heroes are used at the first chance that changes a result, and the U.S.
// is asked its decision at the start of each turn.
func DefaultStanding(side Side) Standing {
	st := Standing{
		Losses:       LossesSpread,
		Advance:      AdvanceAll,
		FriendlyFire: FireMostSteps,
		MeleePick:    PickStrongest,
	}
	switch side {
	case US:
		st.Retreat = RetreatNever
		st.Martinez = HeroAuto
		st.Arnold = HeroAuto
		st.Decision = DecisionAsk
	case JP:
		st.UnknownTable = TableMost
	}
	return st
}

// clone returns a copy of st sharing no slice or map with it.
func (st Standing) clone() Standing {
	st.LossOrder = slices.Clone(st.LossOrder)
	st.RetreatAt = maps.Clone(st.RetreatAt)
	st.AdvanceAt = maps.Clone(st.AdvanceAt)
	st.UnknownTableAt = maps.Clone(st.UnknownTableAt)
	st.MeleeOrder = slices.Clone(st.MeleeOrder)
	return st
}

// Merge returns st with every field set in o replacing its own; per-hex
// entries replace hex by hex.
func (st Standing) Merge(o Standing) Standing {
	str := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	hexes := func(dst map[Hex]string, v map[Hex]string) map[Hex]string {
		if len(v) == 0 {
			return dst
		}
		out := make(map[Hex]string, len(dst)+len(v))
		for k, x := range dst {
			out[k] = x
		}
		for k, x := range v {
			out[k] = x
		}
		return out
	}
	str(&st.Losses, o.Losses)
	if o.LossOrder != nil {
		st.LossOrder = append([]string(nil), o.LossOrder...)
	}
	str(&st.Retreat, o.Retreat)
	st.RetreatAt = hexes(st.RetreatAt, o.RetreatAt)
	str(&st.Advance, o.Advance)
	st.AdvanceAt = hexes(st.AdvanceAt, o.AdvanceAt)
	str(&st.UnknownTable, o.UnknownTable)
	st.UnknownTableAt = hexes(st.UnknownTableAt, o.UnknownTableAt)
	str(&st.FriendlyFire, o.FriendlyFire)
	if o.MeleeOrder != nil {
		st.MeleeOrder = append([]Hex(nil), o.MeleeOrder...)
	}
	str(&st.MeleePick, o.MeleePick)
	str(&st.Martinez, o.Martinez)
	str(&st.Arnold, o.Arnold)
	str(&st.Decision, o.Decision)
	return st
}

// Check returns what is wrong with standing instructions from side, each a
// sentence a player understands.
func (st Standing) Check(side Side) []string {
	var bad []string
	oneOf := func(field, v string, allowed ...string) {
		if v == "" {
			return
		}
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		bad = append(bad, fmt.Sprintf("%s %q: want one of %s", field, v, strings.Join(allowed, ", ")))
	}
	retreat := func(field, v string) {
		if n, ok := strings.CutPrefix(v, RetreatBelowPrefix); ok {
			var k int
			if _, err := fmt.Sscanf(n, "%d", &k); err != nil || k < 1 || fmt.Sprint(k) != n {
				bad = append(bad, fmt.Sprintf("%s %q: below-N needs a number of steps, like below-4", field, v))
			}
			return
		}
		oneOf(field, v, RetreatNever, RetreatAlways, RetreatIfLosing, "below-N")
	}
	hero := func(field, v string) {
		if v == "" || v == HeroAuto || v == HeroNever {
			return
		}
		if _, err := ParseHex(v); err != nil {
			bad = append(bad, fmt.Sprintf("%s %q: want auto, never or a hex like 2717", field, v))
		}
	}
	oneOf("losses", st.Losses, LossesSpread, LossesConcentrate)
	oneOf("advance", st.Advance, AdvanceAll, AdvanceNone, AdvanceStrongest)
	for _, h := range sortedKeys(st.AdvanceAt) {
		oneOf("advance at "+h.String(), st.AdvanceAt[h], AdvanceAll, AdvanceNone, AdvanceStrongest)
	}
	oneOf("friendly_fire", st.FriendlyFire, FireMostSteps, FireFewestSteps)
	oneOf("melee_pick", st.MeleePick, PickStrongest, PickListed)
	if side == US {
		retreat("retreat", st.Retreat)
		for _, h := range sortedKeys(st.RetreatAt) {
			retreat("retreat at "+h.String(), st.RetreatAt[h])
		}
		hero("martinez", st.Martinez)
		hero("arnold", st.Arnold)
		oneOf("decision", st.Decision, DecisionAsk, DecisionDay, DecisionNight, DecisionRefit)
	} else {
		if st.Decision != "" {
			bad = append(bad, "decision: only the U.S. decides the kind of turn (rules 3.1, 3.2)")
		}
		if st.Retreat != "" || len(st.RetreatAt) > 0 {
			bad = append(bad, "retreat: only the U.S. may retreat from melee (rule 8.2.1.3)")
		}
		if st.Martinez != "" || st.Arnold != "" {
			bad = append(bad, "martinez and arnold are U.S. heroes (rules 11.1, 11.2)")
		}
	}
	if side == JP {
		oneOf("unknown_table", st.UnknownTable, TableMost, TableFewest)
	} else if st.UnknownTable != "" || len(st.UnknownTableAt) > 0 {
		bad = append(bad, "unknown_table: only the Japanese roll Unknown tables (rule 2.5)")
	}
	return bad
}

func sortedKeys(m map[Hex]string) []Hex {
	out := make([]Hex, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
