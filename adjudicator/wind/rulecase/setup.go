package rulecase

import (
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
)

// Keys for the setup (rule 12), the scenarios (15) and the victory point
// chits (14.0):
//
//	scenario:                    # the position is a game just created, as
//	  name: up-the-hogs-back     #   wind.NewGameFrom makes it
//	  japanese: free             # historic or free; default the scenario's
//	  us: free
//	  vp_chits: placed           # drawn or placed; default none
//	  dice: [3, 7]               # the dice of the creation; 10 after them
//	scenario: {name: the-linkup, pose: true}   # or: a position posed by hand
//	                             #   (units:, phase: ...) played under the
//	                             #   scenario's rules
//	vp_chits:                    # chits posed by hand on the victory hexes
//	  - {hex: 2717, value: 3}
//	  - {hex: 3409, cancelled: true}
//	expect:
//	  vp: {score: 7, level: "U.S. marginal victory", revealed: true}
//
// A case with scenario: runs its orders through wind.Resolve from
// the wait the creation leaves (jp-setup or us-landing); it may still
// place units (units:) and set the Komandorski chits, but takes its map,
// turn, weather and wait from the creation. A hand-posed case may pose the
// setup waits too (phase: jp-setup, with the Japanese units to place in
// box: setup; phase: us-landing, with the U.S. units in box:
// reinforcements); such a position has no options, so the free setups
// apply.

type scenarioYAML struct {
	At       orders.Pos
	Name     string `yaml:"name"`
	Japanese string `yaml:"japanese"`
	US       string `yaml:"us"`
	VPChits  string `yaml:"vp_chits"`
	// Solitaire creates the game by the solitaire rules (rule 13).
	Solitaire bool  `yaml:"solitaire"`
	Dice      []int `yaml:"dice"`
	// Pose: the case poses its position by hand and plays it under the
	// scenario's rules, instead of starting from the game created.
	Pose bool `yaml:"pose"`
}

type vpChitYAML struct {
	At        orders.Pos
	Hex       wind.Hex `yaml:"hex"`
	Value     int      `yaml:"value"`
	Cancelled bool     `yaml:"cancelled"`
}

type vpExpect struct {
	Score    *int   `yaml:"score"`
	Level    string `yaml:"level"`
	Revealed *bool  `yaml:"revealed"`
}

// creationDice hands out the dice a case gives its creation, then 10s: a
// creation rolls many dice (chit draws, the historic placement) that a case
// seldom cares about.
type creationDice struct {
	values []int
	log    []wind.Rolled
}

func (d *creationDice) Roll(die wind.Die) int {
	v := 10
	if n := len(d.log); n < len(d.values) {
		v = d.values[n]
	}
	d.log = append(d.log, wind.Rolled{Die: die, Value: v})
	return v
}

// createScenario builds the position of a case with scenario:, or returns
// nil when it cannot.
func (p *parser) createScenario(c *Case, root *yaml.Node, y *caseYAML) *wind.State {
	sc := y.Scenario
	for _, key := range []string{"map", "turn", "weather", "night", "phase", "waiting", "refit_steps"} {
		if hasKey(root, key) {
			p.fail(keyPos(root, key), "%s: a case with scenario: takes it from the game created; leave %s out", key, key)
		}
	}
	for i, v := range sc.Dice {
		if v < 1 || v > 10 {
			p.fail(sc.At, "scenario.dice[%d]: a die is 1 to 10, got %d", i, v)
		}
	}
	d := &creationDice{values: sc.Dice}
	s, evs, err := wind.NewGameFrom(sc.Name, wind.Options{JPSetup: sc.Japanese, USSetup: sc.US, VPChits: sc.VPChits, Solitaire: sc.Solitaire}, d)
	if err != nil {
		p.fail(sc.At, "scenario: %v", err)
		return nil
	}
	if len(sc.Dice) > len(d.log) {
		p.fail(sc.At, "scenario.dice: the creation rolls %d dice, the case gives %d", len(d.log), len(sc.Dice))
	}
	c.created = evs
	c.createdDice = d.log
	for _, u := range s.Units {
		if u.OnMap() {
			p.hex(u.Hex)
		}
	}
	return s
}

// poseScenario puts a position posed by hand under the rules of a
// scenario: its name, and no heroes in a short one (15.1).
func (p *parser) poseScenario(sc *scenarioYAML) {
	name := sc.Name
	if name == wind.ScenarioCampaign {
		name = ""
	}
	if !slices.Contains(wind.ScenarioNames(), sc.Name) {
		p.fail(sc.At, "scenario %q: want one of %v", sc.Name, wind.ScenarioNames())
		return
	}
	if sc.Japanese != "" || sc.US != "" || sc.VPChits != "" || len(sc.Dice) > 0 {
		p.fail(sc.At, "scenario: pose: true poses the position by hand; japanese, us, vp_chits and dice belong to a game created")
	}
	p.state.Scenario = name
	if name != "" {
		p.state.Heroes = wind.Heroes{Martinez: true, Arnold: true, Yamasaki: true}
	}
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// vpChits reads chits posed by hand: one entry per victory hex named, the
// others bare.
func (p *parser) vpChits(list []vpChitYAML) {
	if list == nil {
		return
	}
	s := p.state
	m := s.Map()
	v := &wind.VPChits{Mode: wind.VPDrawn}
	for _, vh := range m.VictoryHexes {
		v.Hexes = append(v.Hexes, wind.VPHex{Hex: vh.Hex, Attu: vh.Name == "Attu Village"})
	}
	seen := map[wind.Hex]bool{}
	for _, e := range list {
		i := slices.IndexFunc(v.Hexes, func(x wind.VPHex) bool { return x.Hex == e.Hex })
		switch {
		case i < 0:
			p.fail(e.At, "vp_chits: %s is not a victory hex", e.Hex)
			continue
		case seen[e.Hex]:
			p.fail(e.At, "vp_chits: %s is given twice", e.Hex)
			continue
		case e.Value < 0 || e.Value > 3:
			p.fail(e.At, "vp_chits: %s: a value chit is worth 1 to 3 (rule 14.0)", e.Hex)
			continue
		}
		if vh, _ := m.VictoryHexAt(e.Hex); vh.Name == "Attu Village" && e.Value != 0 {
			p.fail(e.At, "vp_chits: %s: Attu Village takes no value chit (rule 14.0)", e.Hex)
			continue
		}
		seen[e.Hex] = true
		v.Hexes[i] = wind.VPHex{Hex: e.Hex, Value: e.Value, Cancelled: e.Cancelled, Attu: v.Hexes[i].Attu}
		p.hex(e.Hex)
	}
	s.VP = v
}

// checkVP compares the victory point chits with expect.vp.
func (c *Case) checkVP(r *Result, s *wind.State) {
	e := c.expect.VP
	if e == nil {
		return
	}
	if s.VP == nil {
		r.check("victory point chits in use", false, "vp: the game uses no victory point chits")
		return
	}
	if e.Score != nil {
		r.check(fmt.Sprintf("%d victory points", *e.Score), s.VP.Score == *e.Score,
			fmt.Sprintf("vp: expected a score of %d, got %d (%s)", *e.Score, s.VP.Score, s.Victory))
	}
	if e.Level != "" {
		r.check("victory level "+e.Level, s.VP.Level == e.Level, fmt.Sprintf("vp: expected %q, got %q", e.Level, s.VP.Level))
	}
	if e.Revealed != nil {
		r.check(fmt.Sprintf("chits revealed %v", *e.Revealed), s.VP.Revealed == *e.Revealed,
			fmt.Sprintf("vp: expected revealed %v, got %v", *e.Revealed, s.VP.Revealed))
	}
}
