package rulecase

import (
	"fmt"
	"slices"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// Result is what running a case found. It marshals to JSON for machines.
type Result struct {
	Name   string `json:"name"`
	Rule   string `json:"rule,omitempty"`
	Passed bool   `json:"passed"`
	// Checks is every expectation, each with whether it held.
	Checks   []Check    `json:"checks"`
	Failures []string   `json:"failures,omitempty"`
	Events   []iw.Event `json:"events"`
	// Problems is why the orders were refused, if they were.
	Problems []iw.Problem `json:"problems,omitempty"`
	Dice     []Rolled     `json:"dice,omitempty"`
	// Units is every unit of the case at the end.
	Units []iw.Piece `json:"units"`
	// Errors is what kept the case from running as written: forced dice
	// that ran out or were left over.
	Errors []string `json:"errors,omitempty"`

	// Position is the final position, Engine the case's.
	Position iw.Position `json:"-"`
	Engine   *iw.Engine  `json:"-"`
}

// Check is one expectation and whether it held; Got says what differed.
type Check struct {
	Expect string `json:"expect"`
	OK     bool   `json:"ok"`
	Got    string `json:"got,omitempty"`
}

// Rolled is one forced die and what it was for.
type Rolled struct {
	Die   iw.Die `json:"die"`
	Value int    `json:"value"`
}

func (r *Result) check(expect string, ok bool, got string) {
	r.Checks = append(r.Checks, Check{Expect: expect, OK: ok, Got: got})
	if !ok {
		r.Failures = append(r.Failures, got)
	}
}

func (r *Result) error(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.Errors = append(r.Errors, msg)
	r.Failures = append(r.Failures, msg)
}

// Run plays the case: its Movement Phase (when it poses one), then its
// Combat Phase with the forced dice, and checks every expectation.
func (c *Case) Run() *Result {
	e := c.eng
	r := &Result{Name: c.Name, Rule: c.Rule, Engine: e}
	dice := c.dice
	roll := iw.DiceFunc(func(d iw.Die) int {
		if len(dice) == 0 {
			r.error("attack %d rolls a die, but the case's dice have run out: add one to dice:", d.Attack+1)
			return 1
		}
		v := dice[0]
		dice = dice[1:]
		r.Dice = append(r.Dice, Rolled{d, v})
		return v
	})
	p := c.start
	r.reach(c, p)
	var ps []iw.Problem
	if p.Phase == iw.PhaseMovement {
		q, evs, probs := e.Move(p, c.orders)
		r.Events = append(r.Events, evs...)
		ps = probs
		if len(ps) == 0 {
			p = q
		}
	}
	if len(ps) == 0 && c.combat {
		q, evs, probs := e.Combat(p, c.orders, c.defence, roll)
		r.Events = append(r.Events, evs...)
		ps = probs
		if len(ps) == 0 {
			p = q
		}
	}
	r.Problems = ps
	if len(ps) == 0 && len(dice) > 0 {
		r.error("%d forced dice were never rolled: remove them, or the case does not make the attacks it means to", len(dice))
	}
	r.Position, r.Units = p, p.Pieces
	r.expect(c, p)
	r.Passed = len(r.Failures) == 0
	return r
}

func (r *Result) reach(c *Case, p iw.Position) {
	for _, x := range c.expect.Reach {
		got := c.eng.Reach(p, x.Unit)
		for _, h := range x.Includes {
			_, ok := got[h]
			r.check(fmt.Sprintf("%s can reach %s", x.Unit, h), ok, fmt.Sprintf("%s: expected to reach %s, but it cannot", x.Unit, h))
		}
		for _, h := range x.Excludes {
			_, ok := got[h]
			r.check(fmt.Sprintf("%s cannot reach %s", x.Unit, h), !ok, fmt.Sprintf("%s: expected not to reach %s, but it can by %s", x.Unit, h, hexList(got[h])))
		}
	}
}

func hexList(hs []iw.Hex) string {
	if len(hs) == 0 {
		return "none"
	}
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	return strings.Join(out, " ")
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	s := slices.Clone(ids)
	slices.Sort(s)
	return strings.Join(s, ", ")
}

func sameSet(a, b []string) bool { return idList(a) == idList(b) }

func advList(as []iw.Advance) string {
	if len(as) == 0 {
		return "none"
	}
	var out []string
	for _, a := range as {
		out = append(out, a.Unit+" to "+a.To.String())
	}
	return strings.Join(out, ", ")
}

func typedAdv(as []advanceYAML) []iw.Advance {
	var out []iw.Advance
	for _, a := range as {
		out = append(out, iw.Advance{Unit: a.Unit, To: a.To})
	}
	return out
}

func (r *Result) expect(c *Case, p iw.Position) {
	x := c.expect
	e := c.eng
	if len(x.Refused) > 0 {
		for _, want := range x.Refused {
			ok := slices.ContainsFunc(r.Problems, func(pr iw.Problem) bool {
				return (want.Rule == "" || pr.Rule == want.Rule) && (want.Unit == "" || pr.Unit == want.Unit) && strings.Contains(pr.Msg, want.Reason)
			})
			desc := fmt.Sprintf("the orders are refused by rule %s: %q", want.Rule, want.Reason)
			r.check(desc, ok, fmt.Sprintf("expected a refusal by rule %s saying %q, got %s", want.Rule, want.Reason, problemList(r.Problems)))
		}
	} else if len(r.Problems) > 0 {
		r.error("the orders were refused: %s", problemList(r.Problems))
	}
	var reports []iw.Event
	for _, ev := range r.Events {
		if ev.Kind == iw.EvCombat || ev.Kind == iw.EvSkip {
			reports = append(reports, ev)
		}
	}
	for k, a := range x.Attacks {
		name := fmt.Sprintf("attack %d", k+1)
		if k >= len(reports) {
			r.check(name+" is made", false, fmt.Sprintf("%s: expected, but the phase made %d attack(s)", name, len(reports)))
			continue
		}
		r.attack(name, a, reports[k])
	}
	for _, u := range x.Units {
		pc, _ := e.Piece(p, u.ID)
		if u.Hex != nil {
			r.check(fmt.Sprintf("%s is in %s", u.ID, *u.Hex), pc.Where == iw.OnMap && pc.Hex == *u.Hex, fmt.Sprintf("%s: expected in %s, got %s", u.ID, *u.Hex, where(pc)))
		}
		if u.Eliminated != nil {
			r.check(fmt.Sprintf("%s eliminated: %v", u.ID, *u.Eliminated), (pc.Where == iw.Eliminated) == *u.Eliminated, fmt.Sprintf("%s: expected eliminated %v, got %s", u.ID, *u.Eliminated, where(pc)))
		}
		if u.Waiting != nil {
			r.check(fmt.Sprintf("%s waiting off the map: %v", u.ID, *u.Waiting), (pc.Where == iw.Waiting) == *u.Waiting, fmt.Sprintf("%s: expected waiting %v, got %s", u.ID, *u.Waiting, where(pc)))
		}
	}
	if x.Eliminated != nil {
		var got []string
		for i, pc := range p.Pieces {
			if pc.Where == iw.Eliminated && c.start.Pieces[i].Where != iw.Eliminated {
				got = append(got, pc.ID)
			}
		}
		r.check("eliminated: "+idList(*x.Eliminated), sameSet(got, *x.Eliminated), fmt.Sprintf("eliminated: expected %s, got %s", idList(*x.Eliminated), idList(got)))
	}
	if x.Phase != "" {
		r.check("the game is in its "+x.Phase+" phase", string(p.Phase) == x.Phase, fmt.Sprintf("phase: expected %s, got %s", x.Phase, p.Phase))
	}
	if x.Phasing != "" {
		r.check(x.Phasing+" is phasing", string(p.Phasing) == x.Phasing, fmt.Sprintf("phasing: expected %s, got %s", x.Phasing, p.Phasing))
	}
	if x.Turn != nil {
		r.check(fmt.Sprintf("Game-Turn %d", *x.Turn), p.Turn == *x.Turn, fmt.Sprintf("turn: expected %d, got %d", *x.Turn, p.Turn))
	}
	for side, n := range x.GSP {
		s, _ := sideOf(side)
		r.check(fmt.Sprintf("%s has %d Ground Support Points left", side, n), p.GSP[s] == n, fmt.Sprintf("gsp %s: expected %d left, got %d", side, n, p.GSP[s]))
	}
	for _, col := range x.Column {
		got := iw.Column(iw.Line(col.Line), col.Differential)
		r.check(fmt.Sprintf("%+d on the %s line is column %d", col.Differential, col.Line, col.Column), got == col.Column,
			fmt.Sprintf("%+d on the %s line: expected column %d, got %d", col.Differential, col.Line, col.Column, got))
	}
	if x.Verdict != nil {
		o := e.Verdict(p)
		got := string(o.Winner)
		if got == "" {
			got = "draw"
		}
		r.check("the verdict: "+x.Verdict.Winner, got == x.Verdict.Winner, fmt.Sprintf("verdict: expected %s, got %s (%s)", x.Verdict.Winner, got, o))
	}
	n := p.Combats
	for _, f := range x.Facts {
		pc, _ := e.Piece(p, f.Unit)
		for _, fact := range []struct {
			name string
			want *bool
			got  bool
		}{{"attacked", f.Attacked, pc.Attacked == n}, {"was attacked", f.Defended, pc.Defended == n}, {"advanced", f.Advanced, pc.Advanced == n},
			{"was displaced", f.Displaced, pc.Displaced == n}, {"gave FPF", f.FiredFPF, pc.FPF == n}, {"carried out a result", f.Adverse, pc.Adverse == n}} {
			if fact.want != nil {
				r.check(fmt.Sprintf("%s %s this phase: %v", f.Unit, fact.name, *fact.want), fact.got == *fact.want, fmt.Sprintf("%s: expected %s %v, got %v", f.Unit, fact.name, *fact.want, fact.got))
			}
		}
	}
}

func where(pc iw.Piece) string {
	if pc.Where == iw.OnMap {
		return pc.Hex.String()
	}
	return pc.Where
}

func problemList(ps []iw.Problem) string {
	if len(ps) == 0 {
		return "no refusal"
	}
	var out []string
	for _, p := range ps {
		out = append(out, p.Error())
	}
	return strings.Join(out, "; ")
}

func (r *Result) attack(name string, a attackExpect, ev iw.Event) {
	rep := ev.Combat
	skipped := ev.Kind == iw.EvSkip
	if a.Skipped != nil {
		r.check(fmt.Sprintf("%s skipped: %v", name, *a.Skipped), skipped == *a.Skipped, fmt.Sprintf("%s: expected skipped %v, got %v %s", name, *a.Skipped, skipped, ev.Note))
	}
	if skipped {
		if a.Result != "" || a.Die != nil {
			r.check(name+" is made", false, fmt.Sprintf("%s: expected to be made, but it was skipped: %s", name, ev.Note))
		}
		return
	}
	ints := []struct {
		what string
		want *int
		got  int
	}{{"attack total", a.Attack, rep.AttackTotal}, {"defense total", a.Defense, rep.DefenseTotal}, {"differential", a.Differential, rep.Differential},
		{"column", a.Column, rep.Column}, {"die", a.Die, rep.Die}, {"FPF ground support", a.FPFGSP, rep.FPFGSP}}
	for _, v := range ints {
		if v.want != nil {
			r.check(fmt.Sprintf("%s: %s %d", name, v.what, *v.want), *v.want == v.got, fmt.Sprintf("%s: expected %s %d, got %d", name, v.what, *v.want, v.got))
		}
	}
	if a.Line != "" {
		r.check(fmt.Sprintf("%s: %s line", name, a.Line), a.Line == string(rep.Line), fmt.Sprintf("%s: expected the %s line, got %s", name, a.Line, rep.Line))
	}
	if a.Result != "" {
		r.check(fmt.Sprintf("%s: result %s", name, a.Result), a.Result == string(rep.Result), fmt.Sprintf("%s: expected result %s, got %s", name, a.Result, rep.Result))
	}
	bools := []struct {
		what string
		want *bool
		got  bool
	}{{"artillery only", a.ArtilleryOnly, rep.ArtilleryOnly}, {"void", a.Void, rep.Void}}
	for _, v := range bools {
		if v.want != nil {
			r.check(fmt.Sprintf("%s: %s %v", name, v.what, *v.want), *v.want == v.got, fmt.Sprintf("%s: expected %s %v, got %v", name, v.what, *v.want, v.got))
		}
	}
	sets := []struct {
		what string
		want *[]string
		got  []string
	}{{"FPF by", a.FPF, rep.FPF}, {"barrage by", a.Barrage, rep.Barrage}, {"dropped", a.Dropped, rep.Dropped}, {"eliminated", a.Eliminated, rep.Eliminated}, {"Banzai removals", a.Removals, rep.Removals}}
	for _, v := range sets {
		if v.want != nil {
			r.check(fmt.Sprintf("%s: %s %s", name, v.what, idList(*v.want)), sameSet(*v.want, v.got), fmt.Sprintf("%s: expected %s %s, got %s", name, v.what, idList(*v.want), idList(v.got)))
		}
	}
	if a.Advances != nil {
		want := advList(typedAdv(*a.Advances))
		r.check(fmt.Sprintf("%s: advances %s", name, want), want == advList(rep.Advances), fmt.Sprintf("%s: expected advances %s, got %s", name, want, advList(rep.Advances)))
	}
	if a.Unmade != nil {
		want := advList(typedAdv(*a.Unmade))
		r.check(fmt.Sprintf("%s: advances not made %s", name, want), want == advList(rep.Unmade), fmt.Sprintf("%s: expected advances not made %s, got %s", name, want, advList(rep.Unmade)))
	}
	for _, want := range a.Retreats {
		k := slices.IndexFunc(rep.Retreats, func(x iw.Retreat) bool { return x.Unit == want.Unit })
		if k < 0 {
			r.check(fmt.Sprintf("%s: %s retreats", name, want.Unit), false, fmt.Sprintf("%s: expected %s to retreat, but it did not", name, want.Unit))
			continue
		}
		got := rep.Retreats[k]
		if want.Path != nil {
			r.check(fmt.Sprintf("%s: %s retreats by %s", name, want.Unit, hexList(*want.Path)), hexList(*want.Path) == hexList(got.Path),
				fmt.Sprintf("%s: expected %s to retreat by %s, got %s", name, want.Unit, hexList(*want.Path), hexList(got.Path)))
		}
		if want.Eliminated != nil {
			r.check(fmt.Sprintf("%s: %s eliminated in its retreat: %v", name, want.Unit, *want.Eliminated), *want.Eliminated == got.Eliminated,
				fmt.Sprintf("%s: expected %s eliminated in its retreat %v, got %v", name, want.Unit, *want.Eliminated, got.Eliminated))
		}
		if want.Displaced != nil {
			var w, g []string
			for _, d := range *want.Displaced {
				w = append(w, fmt.Sprintf("%s %s>%s", d.Unit, d.From, d.To))
			}
			for _, d := range got.Displaced {
				g = append(g, fmt.Sprintf("%s %s>%s", d.Unit, d.From, d.To))
			}
			ws, gs := strings.Join(w, ", "), strings.Join(g, ", ")
			if ws == "" {
				ws = "none"
			}
			if gs == "" {
				gs = "none"
			}
			r.check(fmt.Sprintf("%s: %s displaces %s", name, want.Unit, ws), ws == gs, fmt.Sprintf("%s: expected %s to displace %s, got %s", name, want.Unit, ws, gs))
		}
	}
}

// Text is the result for people: what happened, each expectation with ✓
// or ✗ and what differed, and on failure the position at the end.
func (r *Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Case: %s", r.Name)
	if r.Rule != "" {
		fmt.Fprintf(&b, " (rule %s)", r.Rule)
	}
	b.WriteString("\n")
	if len(r.Dice) > 0 {
		b.WriteString("\nDice rolled:\n")
		for _, d := range r.Dice {
			fmt.Fprintf(&b, "  %2d  combat, attack %d\n", d.Value, d.Die.Attack+1)
		}
	}
	b.WriteString("\nWhat happened:\n")
	if len(r.Events) == 0 && len(r.Problems) == 0 {
		b.WriteString("  nothing\n")
	}
	for _, ev := range r.Events {
		fmt.Fprintf(&b, "  %s\n", EventText(ev))
	}
	if len(r.Problems) > 0 {
		b.WriteString("  the orders are refused:\n")
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "    %s\n", p.Error())
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "  ! %s\n", e)
	}
	b.WriteString("\nExpectations:\n")
	if len(r.Checks) == 0 {
		b.WriteString("  none\n")
	}
	for _, c := range r.Checks {
		if c.OK {
			fmt.Fprintf(&b, "  ✓ %s\n", c.Expect)
		} else {
			fmt.Fprintf(&b, "  ✗ %s\n      %s\n", c.Expect, c.Got)
		}
	}
	if r.Passed {
		fmt.Fprintf(&b, "\nPASS: %d of %d expectations hold\n", len(r.Checks), len(r.Checks))
		return b.String()
	}
	if r.Engine != nil {
		b.WriteString("\nThe position at the end:\n")
		b.WriteString(r.Engine.Text(r.Position))
	}
	fmt.Fprintf(&b, "\nFAIL: %d problem(s)\n", len(r.Failures))
	return b.String()
}

// EventText words one event of the engine in a line.
func EventText(ev iw.Event) string {
	switch ev.Kind {
	case iw.EvPhase:
		return fmt.Sprintf("Game-Turn %d: %s %s phase", ev.Turn, ev.Side, ev.Phase)
	case iw.EvMove:
		return fmt.Sprintf("%s moves %s", ev.Unit, hexList(ev.Path))
	case iw.EvEnter:
		return fmt.Sprintf("%s enters by %s", ev.Unit, hexList(ev.Path))
	case iw.EvSkip:
		return fmt.Sprintf("attack %d on %s is not made: %s", ev.Combat.Index+1, idList(ev.Combat.Defenders), ev.Note)
	case iw.EvGameOver:
		return "the game is over: " + ev.Note
	case iw.EvCombat:
		c := ev.Combat
		var b strings.Builder
		fmt.Fprintf(&b, "attack %d: %s", c.Index+1, idList(c.Attackers))
		if len(c.Barrage) > 0 {
			fmt.Fprintf(&b, ", barrage %s", idList(c.Barrage))
		}
		if c.GSP > 0 {
			fmt.Fprintf(&b, ", %d GSP", c.GSP)
		}
		if c.Banzai {
			b.WriteString(", Banzai")
		}
		fmt.Fprintf(&b, " on %s", idList(c.Defenders))
		if len(c.FPF) > 0 || c.FPFGSP > 0 {
			fmt.Fprintf(&b, " (FPF %s, %d GSP)", idList(c.FPF), c.FPFGSP)
		}
		fmt.Fprintf(&b, ": %d to %d, %+d, %s line column %d, die %d: %s", c.AttackTotal, c.DefenseTotal, c.Differential, c.Line, c.Column, c.Die, c.Result)
		if c.Void {
			b.WriteString(" (void: artillery alone, rule 8.15)")
		}
		for _, rt := range c.Retreats {
			fmt.Fprintf(&b, "; %s retreats %s", rt.Unit, hexList(rt.Path))
			for _, d := range rt.Displaced {
				fmt.Fprintf(&b, " displacing %s %s>%s", d.Unit, d.From, d.To)
			}
			if rt.Eliminated {
				b.WriteString(" and is eliminated")
			}
		}
		if len(c.Eliminated) > 0 {
			fmt.Fprintf(&b, "; eliminated %s", idList(c.Eliminated))
		}
		if len(c.Removals) > 0 {
			fmt.Fprintf(&b, "; Banzai removes %s", idList(c.Removals))
		}
		if len(c.Advances) > 0 {
			fmt.Fprintf(&b, "; advances %s", advList(c.Advances))
		}
		if len(c.Unmade) > 0 {
			fmt.Fprintf(&b, "; not made: %s", advList(c.Unmade))
		}
		if len(c.Dropped) > 0 {
			fmt.Fprintf(&b, "; dropped %s", idList(c.Dropped))
		}
		return b.String()
	}
	return ev.Kind + " " + ev.Unit + " " + ev.Note
}
