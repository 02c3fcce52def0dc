package wind

import (
	"cmp"
	"embed"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"strings"
	"text/template"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The wording of events lives in events.tmpl, one {{define}} per event
// kind, named as the kind. The functions below are the grammar the
// templates share.

//go:embed events.tmpl
var eventFiles embed.FS

var eventTemplates = template.Must(template.New("events").Funcs(eventFuncs).Funcs(setupFuncs).ParseFS(eventFiles, "events.tmpl"))

// EventText words an event in one line. The event is rendered as given:
// redact it for the reader first (wind.Redact), and what a side
// may not read is not there to be written. A kind with no wording yet
// renders as its name in brackets.
func EventText(ev wind.Event) string {
	t := eventTemplates.Lookup(string(ev.Kind))
	if t == nil {
		return "[" + string(ev.Kind) + "]"
	}
	var b strings.Builder
	if err := t.Execute(&b, ev); err != nil {
		return "[" + string(ev.Kind) + ": " + err.Error() + "]"
	}
	return strings.TrimSpace(b.String())
}

var eventFuncs = template.FuncMap{
	"side":       sideName,
	"enemy":      func(s adjudicator.Side) adjudicator.Side { return s.Enemy() },
	"plural":     templates.Plural,
	"are":        func(n int) string { return pick(n, "is", "are") },
	"verbS":      func(n int) string { return pick(n, "s", "") },
	"capitalize": capitalize,
	"date":       wind.TurnDate,
	"route":      route,
	"hexesAnd":   func(hs []adjudicator.Hex) string { return joinAnd(hexNames(hs)) },
	"hexesComma": hexesComma,
	"hex":        elem[adjudicator.Hex],
	"dice":       dice,
	"diceCount":  func(ds []wind.EventDie) string { return diceCount(len(ds)) },
	"mods":       mods,
	"airMods":    airMods,
	"add":        func(a, b int) int { return a + b },
	"face":       func(f int) string { return wind.DiceText([]int{f}, 0) },
	"zeroFace":   zeroFace,
	"isUS":       func(s adjudicator.Side) bool { return s == adjudicator.US },
	"isUnknown":  func(k wind.Kind) bool { return k == wind.Unknown },
	"unit":       func(us []wind.EventUnit) wind.EventUnit { return elem(us, 0) },
	"ids":        ids,
	"named":      named,
	"countNamed": countNamed,
	"decision":   func() adjudicator.WaitKind { return wind.WaitUSDecision },
	"waitNoun":   waitNoun,
	// A refit turn is never a night turn (rule 3.1): its waits say no time.
	"isRefit":    func(k adjudicator.WaitKind) bool { return k == wind.WaitUSRefit || k == wind.WaitJPRefit },
	"stackLimit": func() int { return wind.StackJapanese },
	"quote":      func(s string) string { return fmt.Sprintf("%q", s) },
	// Refit turns (rule 9).
	"lossRecoveryLow": func() int { return wind.LossRecoveryLow },
	"casualties":      func(n int) string { return fmt.Sprintf("%d %s", n, pick(n, "casualty", "casualties")) },
	"staging":         staging,
	"moves":           moves,
	"placed":          placed,
	"counterCounts":   counterCounts,
}

// waitNoun names the orders a game waits for, as a refusal does: "the U.S.
// decision of turn 3", "the Japanese actions of turn 3".
func waitNoun(k adjudicator.WaitKind) string {
	switch k {
	case wind.WaitUSDecision:
		return "decision"
	case wind.WaitJPSetup:
		return "setup"
	case wind.WaitUSLanding:
		return "landing"
	case wind.WaitUSRefit, wind.WaitJPRefit:
		return "refit orders"
	}
	return string(k)
}

// sideName names a side as the rules do: "U.S.", "Japanese".
func sideName(s adjudicator.Side) string {
	if s == adjudicator.US || s == adjudicator.JP {
		return templates.SideTitle(s)
	}
	return s.String()
}

// pick returns one for n == 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// zeroFace writes a die a rule reads 0 to 9 (rule 13.5): a 10 is the 0 of
// the die, and the report says it reads so.
func zeroFace(f int) string {
	if f == 10 {
		return "10, read as 0,"
	}
	return fmt.Sprint(f)
}

// diceCount counts dice: "1 die", "4 dice".
func diceCount(n int) string { return fmt.Sprintf("%d %s", n, pick(n, "die", "dice")) }

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// hexNames writes each hex as its CCRR id.
func hexNames(hs []adjudicator.Hex) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// hexesComma writes hexes as "2717, 2718".
func hexesComma(hs []adjudicator.Hex) string { return strings.Join(hexNames(hs), ", ") }

// elem returns xs[i], or the zero value when there is none.
func elem[T any](xs []T, i int) T {
	if i < 0 || i >= len(xs) {
		var zero T
		return zero
	}
	return xs[i]
}

// route writes hexes as "2821→2720→2719".
func route(hs []adjudicator.Hex) string { return strings.Join(hexNames(hs), "→") }

// dice writes an event's dice as the table reads them: "9, 8, 8 (-3: 6, 5,
// 5)", natural faces (1 to 10, as the replay page reads them) and, with a modifier, the
// modified rolls.
func dice(ev wind.Event) string {
	faces := make([]int, len(ev.Dice))
	for i, d := range ev.Dice {
		faces[i] = d.Face
	}
	return wind.DiceText(faces, ev.DRM)
}

// modLines words the lines of the modifier table (rule 8.3) and the
// airpower modifiers (3.4).
var modLines = map[wind.ModifierLine]string{
	wind.ModAttackingHigher: "attacking a higher level",
	wind.ModUpSlope:         "attacking across an up slope",
	wind.ModOutOfSupply:     "out of supply",
	wind.ModWilliwaw:        "williwaw",
	wind.ModFog:             "fog",
	wind.ModRain:            "rain",
	wind.ModNight:           "night",
	wind.ModSurrounded5:     "surrounded on 5 sides (rule 6.2)",
	wind.ModSurrounded6:     "surrounded on 6 sides (rule 6.2)",
	wind.ModFiringHigher:    "firing at a higher level",
	wind.ModFaceDown:        "face-down target",
	wind.ModScenario:        "scenario",
}

// modLine words one modifier line.
func modLine(l wind.ModifierLine) string { return cmp.Or(modLines[l], string(l)) }

// mods lists to-hit modifiers as the 8.3 table writes them: "-1 fog, +1
// surrounded on 5 sides (rule 6.2)".
func mods(ms []wind.Modifier) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%+d %s", m.Value, modLine(m.Line))
	}
	return strings.Join(parts, ", ")
}

// airMods writes the modifiers of an airpower die as a sum: "-3 fog -2
// scenario".
func airMods(ms []wind.Modifier) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%d %s", m.Value, modLine(m.Line))
	}
	return strings.Join(parts, " ")
}

// named reports whether every unit is named (none is an anonymous counter).
func named(us []wind.EventUnit) bool { return countNamed(us) == len(us) }

// countNamed counts the named units.
func countNamed(us []wind.EventUnit) int {
	n := 0
	for _, u := range us {
		if u.ID != "" {
			n++
		}
	}
	return n
}

// ids joins the ids of the named units: "J01, J02 and U01".
func ids(us []wind.EventUnit) string {
	var names []string
	for _, u := range us {
		if u.ID != "" {
			names = append(names, u.ID)
		}
	}
	return joinAnd(names)
}

// staging lists units by the staging box they wait in, boxes in the order
// met: "1/17-A and 1/17-B for zone D and 2/17-E for zone F" (rule 9.2.2).
func staging(us []wind.EventUnit) string {
	by := map[string][]string{}
	var zones []string
	for _, u := range us {
		z := strings.TrimPrefix(u.Box, wind.BoxStagingPrefix)
		if by[z] == nil {
			zones = append(zones, z)
		}
		by[z] = append(by[z], u.ID)
	}
	parts := make([]string, len(zones))
	for i, z := range zones {
		parts[i] = joinAnd(by[z]) + " for zone " + z
	}
	return joinAnd(parts)
}

// moves lists units moved from the hexes of from to their own: "U01 from
// 2414 to 2415 and U02 from 2310 to 2311" (rule 9.6).
func moves(us []wind.EventUnit, from []adjudicator.Hex) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = fmt.Sprintf("%s from %s to %s", u.ID, elem(from, i), u.Hex)
	}
	return joinAnd(parts)
}

// placed lists units with their hexes: "U05 in 2415 and U06 in 2416".
func placed(us []wind.EventUnit) string {
	parts := make([]string, len(us))
	for i, u := range us {
		parts[i] = fmt.Sprintf("%s in %s", u.ID, u.Hex)
	}
	return joinAnd(parts)
}

// counterCounts writes how many Japanese counters stand in each hex: "2414
// no Japanese counter and 2415 1 Japanese counter".
func counterCounts(hs []adjudicator.Hex, counts []int) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		n := elem(counts, i)
		what := "no Japanese counter"
		if n > 0 {
			what = templates.Plural(n, "Japanese counter")
		}
		parts[i] = h.String() + " " + what
	}
	return joinAnd(parts)
}
