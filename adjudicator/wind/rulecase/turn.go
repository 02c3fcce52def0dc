package rulecase

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Keys for cases that run whole turns and decide the game (rule
// 3.8): the position's wait, Komandorski chits and cleared zones, and
// expectations about the wait and the winner.

// phases are the waits a case may pose (its phase: key): the kinds the
// rules play.
var phases = func() []string {
	var out []string
	for _, k := range wind.WaitKinds() {
		if wind.Played(k) {
			out = append(out, string(k))
		}
	}
	return out
}()

// turnState reads the position keys of a turn case. It returns whether the
// case names a phase, and so runs its orders through wind.Resolve.
func (p *parser) turnState(root *yaml.Node, y *caseYAML) bool {
	s := p.state
	if y.Casualties < 0 || y.Casualties > wind.CasualtyLimit {
		p.fail(keyPos(root, "casualties"), "casualties: the U.S. casualty track runs from 0 to %d", wind.CasualtyLimit)
	}
	s.Casualties = y.Casualties
	if k := y.Komandorski; k != nil {
		p.komandorski(k)
	}
	for _, z := range y.Cleared {
		if s.Map().ZoneName(z) == "" {
			p.fail(keyPos(root, "cleared"), "cleared: %q is not a victory zone; want one of %s", z, strings.Join(s.Map().ZoneIDs(), ", "))
			continue
		}
		if !slices.Contains(s.Cleared, z) {
			s.Cleared = append(s.Cleared, z)
		}
	}
	slices.Sort(s.Cleared)
	p.refitSteps(root, y)
	if y.Phase == "" {
		if y.Waiting != wind.NoSide && (y.Scenario == nil || y.Scenario.Pose) {
			p.fail(keyPos(root, "waiting"), "waiting: give phase too, like phase: actions")
		}
		return false
	}
	if !slices.Contains(phases, string(y.Phase)) {
		p.fail(keyPos(root, "phase"), "phase %q: want %s or %s", y.Phase, strings.Join(phases[:len(phases)-1], ", "), phases[len(phases)-1])
		return false
	}
	w := y.Waiting
	switch {
	case w == wind.NoSide && y.Phase == wind.WaitActions:
		w = wind.FirstPlayer(s.Night)
	case w == wind.NoSide && (y.Phase == wind.WaitJPRefit || y.Phase == wind.WaitJPSetup):
		w = wind.JP
	case w == wind.NoSide:
		w = wind.US
	case w != wind.US && w != wind.JP:
		p.fail(keyPos(root, "waiting"), "waiting: want us or jp")
	case y.Phase == wind.WaitUSDecision && w != wind.US:
		p.fail(keyPos(root, "waiting"), "waiting: only the U.S. decides a turn (rules 3.1, 3.2)")
	case y.Phase == wind.WaitUSRefit && w != wind.US, y.Phase == wind.WaitJPRefit && w != wind.JP,
		y.Phase == wind.WaitUSLanding && w != wind.US, y.Phase == wind.WaitJPSetup && w != wind.JP:
		p.fail(keyPos(root, "waiting"), "waiting: us-refit and us-landing wait for the U.S. (us), jp-refit and jp-setup for the Japanese (jp)")
	}
	s.Awaiting, s.Waiting = y.Phase, w
	return true
}

func (p *parser) komandorski(k *komandorskiYAML) {
	if k.Effect != 24 && k.Effect != 27 && k.Effect != 30 {
		p.fail(k.At, "komandorski: effect %d: the effect chits are 24, 27 and 30 (May dates, rule 12.1.1)", k.Effect)
	}
	if k.Delay < 1 || k.Delay > 4 {
		p.fail(k.At, "komandorski: delay %d: the delay chits are 1 to 4 (rule 12.1.2)", k.Delay)
	}
	kk := wind.Komandorski{Effect: k.Effect, Delay: k.Delay}
	// Unless told, the chits are flipped as the case's turn says (12.1.3).
	turn := p.state.Turn
	kk.EffectRevealed = turn >= wind.KomandorskiTurn
	kk.DelayRevealed = kk.EffectRevealed && turn >= wind.TurnOfMay(k.Effect)
	if k.EffectRevealed != nil {
		kk.EffectRevealed = *k.EffectRevealed
	}
	if k.DelayRevealed != nil {
		kk.DelayRevealed = *k.DelayRevealed
	}
	p.state.Komandorski = kk
}

func (p *parser) turnExpectations(e *expectYAML) {
	switch e.Winner {
	case "", "us", "jp", "none":
	default:
		p.fail(e.At, "expect.winner %q: want us, jp or none", e.Winner)
	}
	if e.Phase != wind.WaitNone && !slices.Contains(phases, string(e.Phase)) && e.Phase != wind.WaitEnded {
		p.fail(e.At, "expect.phase %q: want %s or %s", e.Phase, strings.Join(phases, ", "), wind.WaitEnded)
	}
	if e.Waiting != wind.NoSide && e.Waiting != wind.US && e.Waiting != wind.JP {
		p.fail(e.At, "expect.waiting: want us or jp")
	}
	if e.Cleared != nil {
		for _, z := range *e.Cleared {
			if p.state.Map().ZoneName(z) == "" {
				p.fail(e.At, "expect.cleared: %q is not a victory zone; want one of %s", z, strings.Join(p.state.Map().ZoneIDs(), ", "))
			}
		}
	}
}

// resolveTurn passes one orders file to wind.Resolve.
func resolveTurn(s *wind.State, o wind.Orders, d wind.Dice) (*wind.State, []wind.Event, []wind.Problem, error) {
	ns, evs, ps := wind.Resolve(s, o, d)
	return ns, evs, ps, nil
}

// checkTurn judges an orders file as Resolve would, wait included.
func checkTurn(s *wind.State, o wind.Orders) ([]wind.Problem, error) {
	return wind.CheckOrders(s, o), nil
}

// checkWait compares the wait, the turn, the winner, the cleared zones and
// the Komandorski chits with what the case expects.
func (c *Case) checkWait(r *Result, s *wind.State) {
	e := &c.expect
	if e.Winner != "" {
		got := "none"
		if s.Winner != wind.NoSide {
			got = s.Winner.String()
		}
		r.check("winner "+e.Winner, got == e.Winner, fmt.Sprintf("winner: expected %s, got %s%s", e.Winner, got, because(s.Victory)))
	}
	if e.Victory != "" {
		r.check(fmt.Sprintf("victory %q", e.Victory), strings.Contains(s.Victory, e.Victory),
			fmt.Sprintf("victory: expected a reason containing %q, got %q", e.Victory, s.Victory))
	}
	if e.Phase != wind.WaitNone || e.Waiting != wind.NoSide {
		w := s.Wait()
		ok := (e.Phase == wind.WaitNone || e.Phase == w.Kind) && (e.Waiting == wind.NoSide || e.Waiting == w.Side)
		want := strings.TrimSpace(string(e.Phase) + " " + sideOrEmpty(e.Waiting))
		r.check("waiting for "+want, ok, fmt.Sprintf("wait: expected %s, got %s", want, s.WaitText()))
	}
	if e.Turn != nil {
		r.check(fmt.Sprintf("turn %d", *e.Turn), s.Turn == *e.Turn, fmt.Sprintf("turn: expected %d, got %d", *e.Turn, s.Turn))
	}
	if e.Cleared != nil {
		want := slices.Sorted(slices.Values(*e.Cleared))
		got := slices.Clone(s.Cleared)
		slices.Sort(got)
		r.check(fmt.Sprintf("cleared zones [%s]", strings.Join(want, ", ")), slices.Equal(want, got),
			fmt.Sprintf("cleared: expected [%s], got [%s]", strings.Join(want, ", "), strings.Join(got, ", ")))
	}
	c.checkRefitSteps(r, s)
	if k := e.Komandorski; k != nil {
		if k.EffectRevealed != nil {
			r.check(fmt.Sprintf("Komandorski effect revealed %v", *k.EffectRevealed), s.Komandorski.EffectRevealed == *k.EffectRevealed,
				fmt.Sprintf("komandorski: expected effect revealed %v, got %v", *k.EffectRevealed, s.Komandorski.EffectRevealed))
		}
		if k.DelayRevealed != nil {
			r.check(fmt.Sprintf("Komandorski delay revealed %v", *k.DelayRevealed), s.Komandorski.DelayRevealed == *k.DelayRevealed,
				fmt.Sprintf("komandorski: expected delay revealed %v, got %v", *k.DelayRevealed, s.Komandorski.DelayRevealed))
		}
	}
}

func because(why string) string {
	if why == "" {
		return ""
	}
	return " (" + why + ")"
}

func sideOrEmpty(s wind.Side) string {
	if s == wind.NoSide {
		return ""
	}
	return s.String()
}
