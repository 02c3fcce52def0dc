package wind

import (
	"fmt"
	"strconv"
	"strings"
)

// Combat is the kind of fire a die is rolled for; each has its own column of
// the die roll modifier table (rule 8.3).
type Combat uint8

// Kinds of combat.
const (
	MeleeCombat Combat = iota + 1
	RangedCombat
	AirCombat
)

// Situation is what the 8.3 table asks about one roll: who rolls, at what,
// and in what conditions. Each field is one line of the table.
type Situation struct {
	Combat Combat
	// Artillery: the rolling unit is artillery. Two lines do not apply to it
	// (the ** footnote: attacking a higher level in ranged combat, night in
	// melee).
	Artillery bool
	// HigherLevel: the target hex is higher than the roller's hex.
	HigherLevel bool
	// UpSlope: a melee attack crosses an up slope from the attacker's hex
	// into the target (slope art in the attacker's hex, rule 5.3).
	UpSlope bool
	// OutOfSupply: the rolling U.S. unit is out of supply (rule 7.5).
	OutOfSupply bool
	Weather     Weather
	Night       bool
	// Surround: hexes around the target counted by rule 6.2 for a melee
	// attack (5 gives +1, 6 gives +2).
	Surround int
	// FaceDown: the target is one or more face-down Japanese units (RULINGS.md
	// R21).
	FaceDown bool
}

// ModifierLine names a line of the die roll modifier table (rule 8.3), or
// another modifier of a die: the weather and scenario modifiers of the
// airpower roll (rule 3.4). Package templates words each.
type ModifierLine string

// Modifier lines.
const (
	ModAttackingHigher ModifierLine = "attacking-higher-level" // melee (8.3)
	ModUpSlope         ModifierLine = "up-slope"               // melee across an up slope (8.3, 5.3)
	ModOutOfSupply     ModifierLine = "out-of-supply"          // rule 7.5
	ModWilliwaw        ModifierLine = "williwaw"
	ModFog             ModifierLine = "fog"
	ModRain            ModifierLine = "rain"
	ModNight           ModifierLine = "night"
	ModSurrounded5     ModifierLine = "surrounded-5" // rule 6.2
	ModSurrounded6     ModifierLine = "surrounded-6" // rule 6.2
	ModFiringHigher    ModifierLine = "firing-higher-level"
	ModFaceDown        ModifierLine = "face-down-target"
	ModScenario        ModifierLine = "scenario" // airpower (15.1 to 15.3)
)

// Modifier is one modifier of a die: its value and the line it comes from.
// It is written as the table reads: "-1 fog", "+1 surrounded-5".
type Modifier struct {
	Value int
	Line  ModifierLine
}

// MarshalText writes the signed value, a space and the line.
func (m Modifier) MarshalText() ([]byte, error) {
	return fmt.Appendf(nil, "%+d %s", m.Value, m.Line), nil
}

// UnmarshalText reads what MarshalText writes.
func (m *Modifier) UnmarshalText(b []byte) error {
	v, line, ok := strings.Cut(string(b), " ")
	n, err := strconv.Atoi(v)
	if !ok || err != nil || line == "" {
		return fmt.Errorf("modifier %q: want a signed value and a line, like -1 fog", b)
	}
	*m = Modifier{Value: n, Line: ModifierLine(line)}
	return nil
}

// DRM returns the total die roll modifier for a situation (rule 8.3, every
// line and footnote) and the lines that applied, for reports.
// Lines marked "-" or "n/a" in a column do not apply to that kind of combat:
// ranged combat in a williwaw is forbidden outright (8.1.3), not modified.
func DRM(s Situation) (int, []Modifier) {
	total := 0
	var why []Modifier
	add := func(v int, line ModifierLine) {
		total += v
		why = append(why, Modifier{Value: v, Line: line})
	}
	switch s.Combat {
	case MeleeCombat:
		if s.HigherLevel {
			add(-2, ModAttackingHigher)
		}
		if s.UpSlope {
			add(-1, ModUpSlope)
		}
		if s.OutOfSupply {
			add(-2, ModOutOfSupply)
		}
		switch s.Weather {
		case Williwaw:
			add(-2, ModWilliwaw)
		case Fog:
			add(-1, ModFog)
		case Rain:
			add(-1, ModRain)
		}
		if s.Night && !s.Artillery {
			add(-1, ModNight)
		}
		switch {
		case s.Surround >= 6:
			add(+2, ModSurrounded6)
		case s.Surround == 5:
			add(+1, ModSurrounded5)
		}
	case RangedCombat:
		if s.HigherLevel && !s.Artillery {
			add(-1, ModFiringHigher)
		}
		if s.OutOfSupply {
			add(-2, ModOutOfSupply)
		}
		if s.Weather == Fog {
			add(-1, ModFog)
		}
		if s.FaceDown {
			add(-2, ModFaceDown)
		}
	case AirCombat:
		switch s.Weather {
		case Williwaw:
			add(-3, ModWilliwaw)
		case Fog:
			add(-2, ModFog)
		case Rain:
			add(-1, ModRain)
		}
		if s.Night {
			add(-1, ModNight)
		}
		if s.FaceDown {
			add(-2, ModFaceDown)
		}
	}
	return total, why
}

// HitNumber is the modified roll that scores a hit (rule 8.0).
const HitNumber = 7

// IsHit reports whether a die scores a hit: a natural 10 (a face of 0)
// always hits whatever the modifiers; otherwise the modified roll must reach
// 7 (rule 8.0).
func IsHit(natural, drm int) bool {
	return natural == 10 || natural+drm >= HitNumber
}

// CountHits returns how many of the dice hit with the given modifier.
func CountHits(dice []int, drm int) int {
	n := 0
	for _, d := range dice {
		if IsHit(d, drm) {
			n++
		}
	}
	return n
}

// DiceText writes dice for a report: "9, 8, 8 (-3: 6, 5, 5)": natural rolls
// and, when there is a modifier, the modified ones. A die reads 1 to 10,
// as the dice log and the replay page give it: the 0 of the die is a 10.
func DiceText(dice []int, drm int) string {
	var nat, mod []string
	for _, d := range dice {
		nat = append(nat, fmt.Sprint(d))
		mod = append(mod, fmt.Sprint(d+drm))
	}
	s := strings.Join(nat, ", ")
	if drm != 0 && len(dice) > 0 {
		s += fmt.Sprintf(" (%+d: %s)", drm, strings.Join(mod, ", "))
	}
	return s
}
