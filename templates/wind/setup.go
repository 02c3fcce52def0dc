package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"strings"
	"text/template"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The grammar of the setup's events (rules 12, 14.0, 15) in events.tmpl.

var setupFuncs = template.FuncMap{
	"scenarioTitle": wind.ScenarioTitle,
	"scenarioRule":  wind.ScenarioRule,
	"airMod":        wind.AirpowerModifier,
	"refitMod":      wind.RefitModifier,
	"setupRule":     setupRule,
	"setupCounts":   setupCounts,
	"vpValues":      vpValues,
	"vpCancelled":   vpCancelled,
	"vpScore":       vpScore,
	"isSetup":       isSetupWait,
}

// setupRule names a side's setup with its rule: "the historic setup (rule
// 12.3)".
func setupRule(kind string, side adjudicator.Side) string {
	rule := map[string]map[adjudicator.Side]string{
		wind.SetupHistoric: {adjudicator.JP: "12.3", adjudicator.US: "12.5"},
		wind.SetupFree:     {adjudicator.JP: "12.4", adjudicator.US: "12.6"},
	}[kind][side]
	return fmt.Sprintf("the %s setup (rule %s)", kind, rule)
}

// setupCounts says how many counters stand in each hex: "23 counters in
// 21 hexes (1216 1, 1509 1 and 3210 2)".
func setupCounts(hs []adjudicator.Hex, counts []int) string {
	total := 0
	parts := make([]string, len(hs))
	for i, h := range hs {
		n := elem(counts, i)
		total += n
		parts[i] = fmt.Sprintf("%s %d", h, n)
	}
	return fmt.Sprintf("%s in %s (%s)", templates.Plural(total, "counter"), templates.Plural(len(hs), "hex"), joinAnd(parts))
}

// vpValues lists the value chits: "3 on Holtz Bay (2011) and 2 on Jarmin
// Pass (2117)".
func vpValues(vp []wind.VPHex) string {
	var parts []string
	for _, e := range vp {
		if e.Value > 0 {
			parts = append(parts, fmt.Sprintf("%d on %s (%s)", e.Value, e.Name, e.Hex))
		}
	}
	return joinAnd(parts)
}

// vpCancelled says where the Cancelled chits lie: "Cancelled on 3409 and
// 3622, 0 on the others".
func vpCancelled(vp []wind.VPHex) string {
	var on []string
	for _, e := range vp {
		if e.Cancelled {
			on = append(on, e.Hex.String())
		}
	}
	if len(on) == 0 {
		return "no victory hex draws Cancelled"
	}
	return "Cancelled on " + joinAnd(on) + ", 0 on the others"
}

// vpScore words the chits revealed at the end of a game and what they
// score, the date of the last turn included (rule 14.0).
func vpScore(v *wind.VPChits, turn int) string {
	var lines []string
	for _, e := range v.Hexes {
		name := fmt.Sprintf("%s (%s)", e.Name, e.Hex)
		switch {
		case !e.Captured:
			lines = append(lines, name+": not captured, 0")
		case e.Cancelled:
			lines = append(lines, name+": captured, Cancelled, 0")
		case e.Attu:
			lines = append(lines, fmt.Sprintf("%s: captured, 0 chit, %d for Attu", name, wind.AttuVP))
		default:
			lines = append(lines, fmt.Sprintf("%s: captured, %d", name, e.Value))
		}
	}
	if adj := wind.VPDateAdjustment(turn); adj != 0 {
		when := "before May 27"
		if adj < 0 {
			when = "after May 30"
		}
		lines = append(lines, fmt.Sprintf("the game ends on %s, %s: %+d", wind.TurnDate(turn), when, adj))
	}
	return fmt.Sprintf("%s; %d victory points: %s", strings.Join(lines, "; "), v.Score, v.Level)
}
