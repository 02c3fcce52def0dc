package island

import (
	"encoding/json"
	"fmt"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// The words of events: each tells what happened in the open (IW26), the
// same for both sides, so a report, the log and the replay page word them
// alike.

// decodeEvents reads events, each the JSON of one.
func decodeEvents(raw []json.RawMessage) ([]iw.Event, error) {
	out := make([]iw.Event, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, fmt.Errorf("decoding event %d: %w", i+1, err)
		}
	}
	return out, nil
}

// eventLine words one event: the same words for both sides, since every
// event tells what happened in the open.
func eventLine(ev iw.Event) string {
	who := sideTitle(ev.Side)
	switch ev.Kind {
	case iw.EvSetup:
		return fmt.Sprintf("%s set up in %s.", ev.Unit, hexes(ev.Path))
	case iw.EvMove:
		return fmt.Sprintf("%s %s moved %s.", who, ev.Unit, hexes(ev.Path))
	case iw.EvEnter:
		return fmt.Sprintf("%s %s entered %s.", who, ev.Unit, hexes(ev.Path))
	case EvDeclared:
		return fmt.Sprintf("%s declared attack %d: %s.", who, ev.Combat.Index+1, attackSummary(iw.Attack{Defenders: ev.Combat.Defenders, Attackers: ev.Combat.Attackers, Barrage: ev.Combat.Barrage, GSP: ev.Combat.GSP, Banzai: ev.Combat.Banzai}))
	case iw.EvCombat:
		return combatLine(ev.Combat)
	case iw.EvSkip:
		return fmt.Sprintf("Attack %d was not made: %s (IW20).", ev.Combat.Index+1, ev.Note)
	case iw.EvGameOver:
		if v, ok := iw.ParseVerdict(ev.Note); ok {
			return fmt.Sprintf("The game is over after Game-Turn %d: %s.", ev.Turn, verdictWords(v))
		}
		return fmt.Sprintf("The game is over after Game-Turn %d: %s.", ev.Turn, ev.Note)
	case iw.EvPhase:
		if ev.Phase == iw.PhaseMovement {
			return fmt.Sprintf("Game-Turn %d: the %s Player-Turn begins.", ev.Turn, sideTitle(ev.Side))
		}
	}
	return ""
}

func hexes(hs []iw.Hex) string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return strings.Join(out, "-")
}

// attackSummary words an attack's units and support: "1/1, 2/5 with
// barrage from 1/11 and 2/11, with 1 GSP, against I/124".
func attackSummary(a iw.Attack) string {
	s := strings.Join(a.Attackers, ", ")
	if s == "" {
		s = "no adjacent unit"
	}
	if n := len(a.Barrage); n > 0 {
		s += " with barrage from " + strings.Join(a.Barrage[:n-1], ", ")
		if n > 1 {
			s += " and "
		}
		s += a.Barrage[n-1]
	}
	if a.GSP > 0 {
		s += fmt.Sprintf(", with %d GSP", a.GSP)
	}
	if a.Banzai {
		s += ", Banzai"
	}
	return s + ", against " + strings.Join(a.Defenders, ", ")
}

// combatLine is one attack in one line: units, totals, differential,
// line and column, die, result, then what the result did.
func combatLine(c *iw.CombatReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Attack %d: %s", c.Index+1, attackSummary(iw.Attack{Defenders: c.Defenders, Attackers: c.Attackers, Barrage: c.Barrage, GSP: c.GSP, Banzai: c.Banzai}))
	if len(c.FPF) > 0 || c.FPFGSP > 0 {
		b.WriteString(" (final protective fire")
		if len(c.FPF) > 0 {
			b.WriteString(" " + strings.Join(c.FPF, ", "))
		}
		if c.FPFGSP > 0 {
			fmt.Fprintf(&b, ", %d GSP", c.FPFGSP)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ": %d against %d, differential %+d, %s line column %d, die %d: %s", c.AttackTotal, c.DefenseTotal, c.Differential, c.Line, c.Column, c.Die, c.Result)
	if c.Void {
		b.WriteString(", no effect on artillery alone (rule 8.15)")
	}
	b.WriteString(".")
	for _, r := range c.Retreats {
		switch {
		case r.Eliminated && len(r.Path) == 0:
			fmt.Fprintf(&b, " %s could not retreat and was eliminated.", r.Unit)
		case r.Eliminated:
			fmt.Fprintf(&b, " %s retreated %s and was eliminated.", r.Unit, hexes(r.Path))
		default:
			fmt.Fprintf(&b, " %s retreated %s.", r.Unit, hexes(r.Path))
		}
		for _, d := range r.Displaced {
			fmt.Fprintf(&b, " %s was displaced %s-%s.", d.Unit, d.From, d.To)
		}
	}
	if len(c.Eliminated) > 0 {
		fmt.Fprintf(&b, " Eliminated: %s.", strings.Join(c.Eliminated, ", "))
	}
	if len(c.Removals) > 0 {
		fmt.Fprintf(&b, " Banzai removals: %s.", strings.Join(c.Removals, ", "))
	}
	for _, a := range c.Advances {
		fmt.Fprintf(&b, " %s advanced to %s.", a.Unit, a.To)
	}
	for _, a := range c.Unmade {
		fmt.Fprintf(&b, " %s could not advance to %s.", a.Unit, a.To)
	}
	if len(c.Dropped) > 0 {
		fmt.Fprintf(&b, " Displaced before firing: %s.", strings.Join(c.Dropped, ", "))
	}
	return b.String()
}

func (v *view) declaredLine(k int, a iw.Attack) string {
	return fmt.Sprintf("Attack %d: %s.", k+1, attackSummary(a))
}
