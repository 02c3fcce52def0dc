package rulecase

import (
	"fmt"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// Words words one event as a report does; attu's reports word them with
// templates.EventText. The caller gives the wording so that the rules and
// their cases stay apart from the reports' templates.
type Words func(wind.Event) string

// Run plays the case from its position: the procedures of roll, then each
// orders file, then every expectation is checked. It never stops at the
// first difference: the Result lists them all. words (not nil) words the
// events, for the expected texts of events and for Result.Text.
func (c *Case) Run(words Words) *Result {
	r := &Result{Name: c.Name, Rule: c.Rule, Hexes: c.hexes, Events: []wind.Event{}, words: words}
	s, d, evs, errs := c.Setup()
	for _, err := range errs {
		r.error("%v", err)
	}
	r.Events = append(r.Events, evs...)
	r.procedures = len(evs)
	for i, f := range c.orders {
		line, _ := f.Start()
		or := OrdersResult{Index: i + 1, Side: f.Side.String(), Line: line}
		resolve := resolveActions
		if c.turnCase {
			resolve = resolveTurn
		}
		ns, evs, problems, err := resolve(s, f.Orders(), d)
		switch {
		case err != nil:
			r.error("orders %d: resolving actions: %v", i+1, err)
		case len(problems) > 0:
			for _, e := range f.Problems(problems) {
				or.Errors = append(or.Errors, e.Error())
			}
		default:
			or.Accepted = true
			or.Events = evs
			s = ns
			r.Events = append(r.Events, evs...)
		}
		if err == nil {
			r.Orders = append(r.Orders, or)
		}
	}
	if slices.Contains(c.roll, RollMelee) {
		var evs []wind.Event
		s, evs = wind.ResolveMelee(s, d)
		r.Events = append(r.Events, evs...)
	}
	r.Dice = d.Log
	r.State = s
	if c.turnCase {
		r.Wait = s.WaitText()
	}
	c.checkOrders(r)
	c.checkUnits(r, s)
	c.checkQuestions(r, s)
	c.checkHeroes(r, s)
	c.checkWait(r, s)
	c.checkVP(r, s)
	if d.Err != nil {
		r.error("forced dice: %v; add the missing dice to dice:", d.Err)
	} else if n := d.Unused(); n > 0 {
		r.error("forced dice: %d of %d were never rolled (%s); the case expected more to happen", n, len(c.dice), joinInts(c.dice[len(c.dice)-n:]))
	}
	for _, u := range s.Units {
		if u.OnMap() || slices.Contains(c.placed, u.ID) {
			r.Units = append(r.Units, u)
		}
	}
	r.Passed = len(r.Failures) == 0
	return r
}

// Setup returns the position the case's orders apply to: its units placed
// and the procedures of roll run, with the forced dice source those used
// (holding the dice still to come). errs says which procedures could not run.
func (c *Case) Setup() (s *wind.State, d *wind.ForcedDice, events []wind.Event, errs []error) {
	s = c.start.Clone()
	d = &wind.ForcedDice{Values: slices.Clone(c.dice)}
	events = append(events, c.created...)
	for _, p := range c.roll {
		var evs []wind.Event
		var err error
		switch p {
		case RollWeather:
			evs, err = rollWeather(s, d)
		case RollAirpower:
			evs, err = rollAirpower(s, d)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("roll %s: %w", p, err))
		}
		events = append(events, evs...)
	}
	return s, d, events, errs
}

// Check judges an orders file against the case's position (after its
// procedures), without keeping what it would do: the mistakes at their
// lines, or an error when the adjudicator cannot judge such orders.
func (c *Case) Check(f *windorders.File) (orders.Errors, error) {
	s, _, _, errs := c.Setup()
	if len(errs) > 0 {
		return nil, errs[0]
	}
	o := f.Orders()
	if o.Turn == 0 {
		o.Turn = s.Turn
	}
	check := checkActions
	if c.turnCase {
		check = checkTurn
	}
	problems, err := check(s, o)
	if err != nil {
		return nil, fmt.Errorf("judging actions: %w", err)
	}
	return f.Problems(problems), nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func joinInts(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}

// checkOrders compares what became of each orders file with expect.refused:
// the file named there must be refused with each text among its errors,
// every other file must be accepted.
func (c *Case) checkOrders(r *Result) {
	want := c.expect.refused
	for _, o := range r.Orders {
		if want != nil && want.Orders == o.Index {
			if len(want.Errors) == 0 {
				r.check(fmt.Sprintf("orders %d refused", o.Index), !o.Accepted,
					fmt.Sprintf("orders %d: expected a refusal, got accepted", o.Index))
			}
			for _, text := range want.Errors {
				expect := fmt.Sprintf("orders %d refused with %q", o.Index, text)
				switch {
				case o.Accepted:
					r.check(expect, false, fmt.Sprintf("expected refusal containing %q, got accepted", text))
				case !containsAny(o.Errors, text):
					r.check(expect, false, fmt.Sprintf("expected refusal containing %q, got: %s", text, strings.Join(o.Errors, "; ")))
				default:
					r.check(expect, true, "")
				}
			}
			continue
		}
		r.check(fmt.Sprintf("orders %d accepted", o.Index), o.Accepted,
			fmt.Sprintf("orders %d (%s, line %d): expected accepted, got refused: %s", o.Index, o.Side, o.Line, strings.Join(o.Errors, "; ")))
	}
}

func containsAny(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func (c *Case) checkUnits(r *Result, s *wind.State) {
	e := &c.expect
	for _, ue := range e.Units {
		u, _ := s.Unit(ue.ID)
		var want, diff []string
		if ue.Hex != 0 {
			want = append(want, "in "+ue.Hex.String())
			if u.Hex != ue.Hex {
				diff = append(diff, fmt.Sprintf("expected hex %s, got %s", ue.Hex, where(u)))
			}
		}
		if ue.Box != "" {
			want = append(want, "in box "+ue.Box)
			if u.OnMap() || u.Box != ue.Box {
				diff = append(diff, fmt.Sprintf("expected box %s, got %s", ue.Box, where(u)))
			}
		}
		if ue.Steps != nil {
			want = append(want, plural(*ue.Steps, "step"))
			if u.Steps != *ue.Steps {
				diff = append(diff, fmt.Sprintf("expected %d steps, got %d", *ue.Steps, u.Steps))
			}
		}
		if ue.Captured != nil {
			want = append(want, fmt.Sprintf("captured %v", *ue.Captured))
			if u.Captured != *ue.Captured {
				diff = append(diff, fmt.Sprintf("expected captured %v, got %v", *ue.Captured, u.Captured))
			}
		}
		if ue.Face != "" {
			want = append(want, "face "+ue.Face)
			if got := face(u); got != ue.Face {
				diff = append(diff, fmt.Sprintf("expected face %s, got %s", ue.Face, got))
			}
		}
		r.check(ue.ID+" "+strings.Join(want, ", "), len(diff) == 0, ue.ID+": "+strings.Join(diff, "; "))
	}
	for _, m := range e.mp {
		u, _ := s.Unit(m.id)
		r.check(fmt.Sprintf("%s spent %d MP", m.id, m.v), u.MPSpent == m.v,
			fmt.Sprintf("%s: expected %d MP spent, got %d", m.id, m.v, u.MPSpent))
	}
	// An event mentions a text when some reader reads it there: the
	// umpire, or a player in the version it reads (the U.S. player's words
	// for a face-down counter are not the umpire's).
	var read []string
	for _, side := range []wind.Side{wind.Umpire, wind.US, wind.JP} {
		read = append(read, r.readBy(side)...)
	}
	for _, text := range e.Events {
		r.check(fmt.Sprintf("an event mentions %q", text), containsAny(read, text), fmt.Sprintf("expected an event containing %q, got none among %d events", text, len(r.Events)))
	}
	if e.Casualties != nil {
		r.check(fmt.Sprintf("casualty track at %d", *e.Casualties), s.Casualties == *e.Casualties,
			fmt.Sprintf("casualties: expected %d, got %d", *e.Casualties, s.Casualties))
	}
	us := r.readBy(wind.US)
	for _, text := range e.USEvents {
		r.check(fmt.Sprintf("an event the U.S. reads mentions %q", text), containsAny(us, text),
			fmt.Sprintf("expected an event the U.S. reads containing %q, got none among %d", text, len(us)))
	}
	for _, text := range e.USNever {
		var in string
		for _, line := range us {
			if strings.Contains(strings.ToLower(line), strings.ToLower(text)) {
				in = line
				break
			}
		}
		r.check(fmt.Sprintf("no event the U.S. reads mentions %q", text), in == "",
			fmt.Sprintf("the U.S. reads %q, which gives away %q", in, text))
	}
	if e.Pool != nil {
		on, pool, elim := s.PoolCounts()
		for _, c := range []struct {
			what string
			want *int
			got  int
		}{{"on the map", e.Pool.OnMap, on}, {"in the pool", e.Pool.Pool, pool}, {"eliminated", e.Pool.Eliminated, elim}} {
			if c.want != nil {
				r.check(fmt.Sprintf("%s %s", plural(*c.want, "Japanese infantry unit"), c.what), c.got == *c.want,
					fmt.Sprintf("Japanese infantry %s: expected %d, got %d", c.what, *c.want, c.got))
			}
		}
	}
	if e.Weather != nil {
		r.check("weather "+e.Weather.String(), s.Weather == *e.Weather,
			fmt.Sprintf("weather: expected %s, got %s", *e.Weather, s.Weather))
	}
	if e.Air != nil {
		if e.Air.US != nil {
			r.check(fmt.Sprintf("U.S. airpower %d", *e.Air.US), s.AirUS == *e.Air.US,
				fmt.Sprintf("U.S. airpower: expected %d, got %d", *e.Air.US, s.AirUS))
		}
		if e.Air.JP != nil {
			r.check(fmt.Sprintf("Japanese airpower %d", *e.Air.JP), s.AirJP == *e.Air.JP,
				fmt.Sprintf("Japanese airpower: expected %d, got %d", *e.Air.JP, s.AirJP))
		}
	}
}

func where(u *wind.Unit) string {
	if u.OnMap() {
		return u.Hex.String()
	}
	return "box " + u.Box
}

func face(u *wind.Unit) string {
	if u.FaceDown {
		return "down"
	}
	return "up"
}

// checkQuestions asks the adjudicator the case's questions about the final
// position: supply, line of sight, legality of fire, zones of control.
func (c *Case) checkQuestions(r *Result, s *wind.State) {
	e := &c.expect
	for _, sp := range e.supply {
		u, _ := s.Unit(sp.id)
		expect := fmt.Sprintf("%s %s supply", sp.id, inOutWord(sp.v))
		got, err := inSupply(s, u)
		switch {
		case err != nil:
			r.check(expect, false, fmt.Sprintf("%s: supply: %v", sp.id, err))
		default:
			r.check(expect, got == sp.v, fmt.Sprintf("%s: expected %s supply, got %s", sp.id, inOutWord(sp.v), inOutWord(got)))
		}
	}
	for _, l := range e.LOS {
		expect := fmt.Sprintf("line of sight %s→%s %s", l.From, l.To, clearWord(*l.Clear))
		if l.Reason != "" {
			expect += fmt.Sprintf(" (%q)", l.Reason)
		}
		clear, why, err := lineOfSight(s.Map(), l.From, l.To)
		switch {
		case err != nil:
			r.check(expect, false, fmt.Sprintf("LOS %s→%s: %v", l.From, l.To, err))
		case clear != *l.Clear:
			r.check(expect, false, fmt.Sprintf("LOS %s→%s: expected %s, got %s (%s)", l.From, l.To, clearWord(*l.Clear), clearWord(clear), why))
		case l.Reason != "" && !strings.Contains(why, l.Reason):
			r.check(expect, false, fmt.Sprintf("LOS %s→%s: expected a reason containing %q, got %q", l.From, l.To, l.Reason, why))
		default:
			r.check(expect, true, "")
		}
	}
	for _, f := range e.Fire {
		fire := wind.Fire{Units: f.Units, Target: f.Target, Spotter: f.Spotter, TargetUnit: f.TargetUnit}
		expect := fmt.Sprintf("fire by %s at %s", strings.Join(f.Units, "+"), f.Target)
		if f.Spotter != "" {
			expect += " spotted by " + f.Spotter
		}
		expect += " " + legalWord(*f.Legal)
		if f.Reason != "" {
			expect += fmt.Sprintf(" (%q)", f.Reason)
		}
		refusal, err := checkFire(s, fire)
		switch {
		case err != nil:
			r.check(expect, false, fmt.Sprintf("fire at %s: %v", f.Target, err))
		case (refusal == nil) != *f.Legal:
			got := "legal"
			if refusal != nil {
				got = "illegal: " + refusal.Error()
			}
			r.check(expect, false, fmt.Sprintf("fire at %s: expected %s, got %s", f.Target, legalWord(*f.Legal), got))
		case f.Reason != "" && refusal != nil && !strings.Contains(refusal.Error(), f.Reason):
			r.check(expect, false, fmt.Sprintf("fire at %s: expected a reason containing %q, got %q", f.Target, f.Reason, refusal.Error()))
		default:
			r.check(expect, true, "")
		}
	}
	for _, z := range e.ZOC {
		got := s.InEnemyZOC(z.Hex, z.Side)
		expect := fmt.Sprintf("%s %s a %s ZOC", z.Hex, inWord(*z.In), z.Side)
		r.check(expect, got == *z.In, fmt.Sprintf("ZOC: expected %s %s a %s ZOC, but it is %s one", z.Hex, inWord(*z.In), z.Side, inWord(got)))
	}
}

func inOutWord(in bool) string {
	if in {
		return "in"
	}
	return "out of"
}

func inWord(in bool) string {
	if in {
		return "in"
	}
	return "not in"
}

func clearWord(c bool) string {
	if c {
		return "clear"
	}
	return "blocked"
}

func legalWord(l bool) string {
	if l {
		return "legal"
	}
	return "illegal"
}
