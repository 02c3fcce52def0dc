package adjudicator_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// tens rolls nothing but 10s.
type tens struct{}

func (tens) Roll(adjudicator.Die) int { return 10 }

func TestNewGameFromRefuses(t *testing.T) {
	for _, c := range []struct {
		scenario string
		opt      adjudicator.Options
		want     error
	}{
		{"kiska", adjudicator.Options{}, adjudicator.ErrScenario},
		{adjudicator.ScenarioUpTheHogsBack, adjudicator.Options{JPSetup: adjudicator.SetupHistoric}, adjudicator.ErrOptions},
		{adjudicator.ScenarioTheLinkup, adjudicator.Options{VPChits: adjudicator.VPDrawn}, adjudicator.ErrOptions},
		{adjudicator.ScenarioCampaign, adjudicator.Options{USSetup: "landed"}, adjudicator.ErrOptions},
		{adjudicator.ScenarioCampaign, adjudicator.Options{VPChits: "all"}, adjudicator.ErrOptions},
	} {
		if _, _, err := adjudicator.NewGameFrom(c.scenario, c.opt, tens{}); !errors.Is(err, c.want) {
			t.Errorf("%s %+v: %v, want %v", c.scenario, c.opt, err, c.want)
		}
	}
}

// The same scenario, options and dice create the same game: the audit
// relies on it.
func TestNewGameFromReplays(t *testing.T) {
	for _, c := range newGames {
		values := []int{3, 8, 2, 7, 1, 9, 4, 6, 5, 10, 2, 3, 8, 1, 7, 4, 6, 9, 5, 2, 3, 1, 4, 8, 7, 6, 9, 10, 5, 2, 1, 3, 3, 3, 7, 7}
		a, _, err := adjudicator.NewGameFrom(c.scenario, c.opt, &adjudicator.ForcedDice{Values: values})
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ := adjudicator.NewGameFrom(c.scenario, c.opt, &adjudicator.ForcedDice{Values: values})
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Errorf("%s %+v: two creations with the same dice differ", c.scenario, c.opt)
		}
		if f := invariants(a, nil, nil); f != nil {
			t.Errorf("%s %+v: %s", c.scenario, c.opt, f.msg)
		}
	}
}

// The default orders of the setup waits (a missed deadline) are legal in
// every scenario, and the game then begins.
func TestSetupDefaultOrders(t *testing.T) {
	for _, c := range newGames {
		s, _, err := adjudicator.NewGameFrom(c.scenario, c.opt, tens{})
		if err != nil {
			t.Fatal(err)
		}
		for k := s.Wait().Kind; k == adjudicator.WaitJPSetup || k == adjudicator.WaitUSLanding; k = s.Wait().Kind {
			o := s.DefaultOrders()
			ns, _, ps := adjudicator.Resolve(s, o, tens{})
			if len(ps) > 0 {
				t.Fatalf("%s %+v, %s: the default orders are refused: %v", c.scenario, c.opt, s.WaitText(), ps)
			}
			s = ns
		}
		if w := s.Wait(); w.Kind != adjudicator.WaitUSDecision || w.Turn != 1 {
			t.Fatalf("%s %+v: after the default setup the game waits for %s", c.scenario, c.opt, w)
		}
	}
}

// The victory point chits show to the U.S. only once the game is over
// (rule 14.0): the U.S. view of two games whose chits differ is the same
// until then; the Japanese view differs.
func TestVPChitsHiddenFromUS(t *testing.T) {
	s, _, err := adjudicator.NewGameFrom(adjudicator.ScenarioCampaign, adjudicator.Options{VPChits: adjudicator.VPDrawn}, tens{})
	if err != nil {
		t.Fatal(err)
	}
	other := s.Clone()
	for i := range other.VP.Hexes {
		other.VP.Hexes[i].Cancelled = !other.VP.Hexes[i].Cancelled
		if other.VP.Hexes[i].Value > 0 {
			other.VP.Hexes[i].Value = 4 - other.VP.Hexes[i].Value
		}
	}
	view := func(s *adjudicator.State, side adjudicator.Side) []byte { return mustMarshal(s.View(side)) }
	if !bytes.Equal(view(s, adjudicator.US), view(other, adjudicator.US)) {
		t.Fatal("the U.S. view shows the victory point chits")
	}
	if bytes.Equal(view(s, adjudicator.JP), view(other, adjudicator.JP)) {
		t.Fatal("the Japanese view does not show the victory point chits")
	}
	s.VP.Revealed, other.VP.Revealed = true, true
	if bytes.Equal(view(s, adjudicator.US), view(other, adjudicator.US)) {
		t.Fatal("revealed, the chits still do not show to the U.S.")
	}
}

func TestVictoryLevelTable(t *testing.T) {
	for points, want := range map[int]string{
		-1: "Japanese major victory", 2: "Japanese major victory", 3: "Japanese minor victory", 4: "Japanese minor victory",
		5: "Japanese marginal victory", 6: "Japanese marginal victory", 7: "U.S. marginal victory", 8: "U.S. marginal victory",
		9: "U.S. minor victory", 10: "U.S. minor victory", 11: "U.S. major victory", 16: "U.S. major victory",
	} {
		side, level := adjudicator.VictoryLevel(points)
		if level != want || (side == adjudicator.US) != (points >= 7) {
			t.Errorf("%d points: %s, %s; want %s", points, side, level, want)
		}
	}
	for turn, want := range map[int]int{1: 1, adjudicator.TurnOfMay(26): 1, adjudicator.TurnOfMay(27): 0, adjudicator.TurnOfMay(30): 0, adjudicator.TurnOfMay(31): -1} {
		if got := adjudicator.VPDateAdjustment(turn); got != want {
			t.Errorf("turn %d (%s): %+d, want %+d", turn, adjudicator.TurnDate(turn), got, want)
		}
	}
}

// Each short scenario's play area holds its victory hexes and landing
// zones, and every hex of it is joined to its victory hexes through the
// area (rule 15); the Linkup's two fronts make up its area.
func TestScenarioAreas(t *testing.T) {
	for _, name := range adjudicator.ScenarioNames()[1:] {
		s, _, err := adjudicator.NewGameFrom(name, adjudicator.Options{}, tens{})
		if err != nil {
			t.Fatal(err)
		}
		m := s.Map()
		var area []adjudicator.Hex
		for _, h := range m.LandHexes() {
			if s.InPlayArea(h) {
				area = append(area, h)
			}
		}
		for _, id := range s.ScenarioLandingZones("") {
			lz, _ := m.LandingZone(id)
			if !s.InPlayArea(lz.Hex) {
				t.Errorf("%s: landing zone %s lies outside the play area", name, id)
			}
		}
		seen := map[adjudicator.Hex]bool{}
		var queue []adjudicator.Hex
		for _, vh := range m.VictoryHexes {
			if s.InPlayArea(vh.Hex) {
				seen[vh.Hex] = true
				queue = append(queue, vh.Hex)
			}
		}
		if len(queue) == 0 {
			t.Fatalf("%s: no victory hex in the play area", name)
		}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			for _, n := range m.Neighbours(h) {
				if !seen[n] && s.InPlayArea(n) && !m.Cliff(h, n) {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
		for _, h := range area {
			if !seen[h] {
				t.Errorf("%s: %s lies in the play area, cut off from its victory hexes", name, h)
			}
			if name == adjudicator.ScenarioTheLinkup && s.Front(h) == "" {
				t.Errorf("the Linkup: %s is on neither front", h)
			}
		}
		if name == adjudicator.ScenarioUpTheHogsBack && slices.ContainsFunc(area, func(h adjudicator.Hex) bool { return m.Zone(h) == "H" }) {
			t.Errorf("Up the Hog's Back reaches into the Holtz Bay zone")
		}
	}
}
