package standin

import (
	"slices"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Decide returns side v.Side's orders for what o says the game waits for,
// decided from v and o alone with choices drawn from seed. When the game
// does not wait for that side it returns orders with the envelope only.
func Decide(v *wind.View, o *wind.Outlook, seed uint64) wind.Orders {
	ord := wind.Orders{Side: o.Side, Turn: o.Wait.Turn, Wait: o.Wait.Kind}
	if !o.Wait.Open() || o.Wait.Side != o.Side {
		return ord
	}
	b := newBoard(v, o, seed)
	switch o.Wait.Kind {
	case wind.WaitUSDecision:
		b.decision(&ord)
	case wind.WaitUSRefit:
		b.usRefit(&ord)
	case wind.WaitJPRefit:
		b.jpRefit(&ord)
	case wind.WaitJPSetup:
		if o.Setup != nil && o.Setup.JPSetup != nil {
			js := b.jpSetup(o.Setup)
			ord.JPSetup = &js
		}
	case wind.WaitUSLanding:
		b.landing(&ord)
	case wind.WaitActions:
		b.actions(&ord)
	}
	return ord
}

// Trim returns ord without the entries check finds problems with, asking
// again until it finds none: an activation (Problem.Action), an entry of
// refit orders (Problem.Part and Step), the standing instructions; when a
// problem names none of these the orders fall back to the envelope alone,
// and last to fallback (the default orders of the wait, which always pass).
func Trim(ord wind.Orders, fallback wind.Orders, check func(wind.Orders) []wind.Problem) wind.Orders {
	for range 200 {
		ps := check(ord)
		if len(ps) == 0 {
			return ord
		}
		if !dropActions(&ord, ps) && !drop(&ord, ps[0]) {
			break
		}
	}
	if len(check(fallback)) == 0 {
		return fallback
	}
	return ord
}

// dropActions removes every activation ps finds a problem with at once,
// reporting whether there was one: the rules judge each activation on the
// position the file's earlier ones leave, a refused one changing nothing
// but its units' activation, so the others rarely change their verdict
// and a file of many activations is judged a few times, not once per
// activation dropped.
func dropActions(ord *wind.Orders, ps []wind.Problem) bool {
	bad := map[int]bool{}
	for _, p := range ps {
		if p.Action >= 0 && p.Action < len(ord.Actions) {
			bad[p.Action] = true
		}
	}
	if len(bad) == 0 {
		return false
	}
	var keep []wind.Action
	for i, a := range ord.Actions {
		if !bad[i] {
			keep = append(keep, a)
		}
	}
	ord.Actions = keep
	return true
}

// drop removes from ord the entry p is about, reporting whether it found
// one.
func drop(ord *wind.Orders, p wind.Problem) bool {
	switch {
	case p.Action >= 0 && p.Action < len(ord.Actions):
		ord.Actions = slices.Delete(slices.Clone(ord.Actions), p.Action, p.Action+1)
		return true
	case p.Part != "" && p.Step >= 0:
		return dropPart(ord, p.Part, p.Step)
	case ord.Standing != nil:
		ord.Standing = nil
		return true
	}
	return false
}

// dropPart removes entry i of the refit list part.
func dropPart(ord *wind.Orders, part string, i int) bool {
	del := func(n int, rm func()) bool {
		if i >= n {
			return false
		}
		rm()
		return true
	}
	if r := ord.Refit; r != nil {
		c := *r
		ord.Refit = &c
		switch part {
		case wind.PartRestore:
			return del(len(c.Restore), func() { c.Restore = slices.Delete(slices.Clone(c.Restore), i, i+1) })
		case wind.PartLand:
			return del(len(c.Land), func() { c.Land = slices.Delete(slices.Clone(c.Land), i, i+1) })
		case wind.PartIndependents:
			return del(len(c.Independents), func() { c.Independents = slices.Delete(slices.Clone(c.Independents), i, i+1) })
		case wind.PartDepots:
			return del(len(c.Depots), func() { c.Depots = slices.Delete(slices.Clone(c.Depots), i, i+1) })
		}
	}
	if r := ord.Rearrange; r != nil {
		c := *r
		ord.Rearrange = &c
		switch part {
		case wind.PartHide:
			return del(len(c.Hide), func() { c.Hide = slices.Delete(slices.Clone(c.Hide), i, i+1) })
		case wind.PartMove:
			return del(len(c.Moves), func() { c.Moves = slices.Delete(slices.Clone(c.Moves), i, i+1) })
		case wind.PartSwap:
			return del(len(c.Swaps), func() { c.Swaps = slices.Delete(slices.Clone(c.Swaps), i, i+1) })
		}
	}
	return false
}

// board is what the stand-in knows while it writes one side's orders:
// the view and outlook it was given, the map and counter mix (public),
// and what it derives from them.
type board struct {
	v    *wind.View
	o    *wind.Outlook
	side wind.Side
	m    *wind.Map
	cs   *wind.Counters
	rnd  *stream
	// enemy is the estimated melee strength of the enemy counters in
	// each hex that holds some.
	enemy map[wind.Hex]int
	// own is the melee strength of the side's units in each hex.
	own map[wind.Hex]int
	// units are the side's units on the map, by id.
	units map[string]wind.UnitView
	// goals are the hexes the side plays for.
	goals []wind.Hex
	// dist is the movement cost from each land hex to the nearest goal.
	dist map[wind.Hex]int
}

func newBoard(v *wind.View, o *wind.Outlook, seed uint64) *board {
	b := &board{v: v, o: o, side: o.Side, m: wind.BuiltinMap(), cs: wind.BuiltinCounters(),
		rnd:   &stream{seed},
		enemy: map[wind.Hex]int{}, own: map[wind.Hex]int{}, units: map[string]wind.UnitView{}}
	for _, u := range v.Units {
		if u.Hex != 0 && u.Box == "" {
			b.units[u.ID] = u
			b.own[u.Hex] += b.melee(u.ID, u.Steps)
		}
	}
	for _, u := range v.Enemy {
		b.enemy[u.Hex] += max(1, b.melee(u.ID, u.Steps))
	}
	for _, h := range v.Hidden {
		b.enemy[h.Hex] += hiddenMelee(h.Count)
	}
	if b.side == wind.US {
		for h, m := range b.enemy {
			b.enemy[h] = min(m, jpHexMelee)
		}
	}
	b.goals = objectives(v)
	b.dist = b.field(b.toTake())
	return b
}

// jpHexMelee is the most melee strength a Japanese hex can have: three
// platoons of 3 (rule 4.2), however many Unknown units stand with them,
// since all of a hex's Unknown units turn into at most three infantry
// together (2.5).
const jpHexMelee = 9

// hiddenMelee is the melee strength the stand-in expects of n anonymous
// counters in one hex: one may be a face-down platoon (3) or an Unknown
// unit, whose best table gives some two and a half platoons on average
// (2.5); two or more are likely to fill the hex.
func hiddenMelee(n int) int {
	switch {
	case n <= 0:
		return 0
	case n == 1:
		return 5
	case n == 2:
		return 8
	}
	return jpHexMelee
}

// melee is the melee rating of unit id at steps.
func (b *board) melee(id string, steps int) int {
	c, ok := b.cs.Get(id)
	if !ok {
		return 0
	}
	return c.Rating(steps).Melee
}

// toTake are the goals the side steers its units to: for the U.S. those
// it does not hold yet (it must hold them all at once, rule 3.8.1), for
// the Japanese every one, to hold.
func (b *board) toTake() []wind.Hex {
	if b.side != wind.US {
		return b.goals
	}
	var out []wind.Hex
	for _, vh := range b.v.VictoryHexes {
		if slices.Contains(b.goals, vh.Hex) && vh.Held != wind.US {
			out = append(out, vh.Hex)
		}
	}
	if len(out) == 0 {
		return b.goals
	}
	return out
}

// objectives are the victory hexes the game turns on: the scenario's
// (rules 15.1 to 15.3), or every victory hex in the campaign (3.8.1).
func objectives(v *wind.View) []wind.Hex {
	switch v.Scenario {
	case wind.ScenarioUpTheHogsBack:
		return []wind.Hex{wind.EngineerHill}
	case wind.ScenarioHoltzBayToJarminPass:
		return []wind.Hex{wind.JarminPass}
	case wind.ScenarioTheLinkup:
		return []wind.Hex{wind.JarminPass, wind.EngineerHill}
	}
	var out []wind.Hex
	for _, vh := range v.VictoryHexes {
		out = append(out, vh.Hex)
	}
	return out
}

// stream is the stand-in's source of choices: SplitMix64 from the seed
// it is given. The package keeps to the rules' purity (no math/rand, as
// the adjudicator's purity test holds every package under it to), and
// the same seed gives the same choices on every platform and release.
type stream struct{ x uint64 }

func (s *stream) next() uint64 {
	s.x += 0x9e3779b97f4a7c15
	z := s.x
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IntN returns a number from 0 to n-1; the modulo's bias is below one
// in 10^17 for the small n the stand-in draws from.
func (s *stream) IntN(n int) int { return int(s.next() % uint64(n)) }
