package wind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// tens rolls nothing but 10s.
type tens struct{}

func (tens) Roll(wind.Die) int { return 10 }

func TestNewGameFromRefuses(t *testing.T) {
	for _, c := range []struct {
		scenario string
		opt      wind.Options
		want     error
	}{
		{"kiska", wind.Options{}, wind.ErrScenario},
		{wind.ScenarioUpTheHogsBack, wind.Options{JPSetup: wind.SetupHistoric}, wind.ErrOptions},
		{wind.ScenarioTheLinkup, wind.Options{VPChits: wind.VPDrawn}, wind.ErrOptions},
		{wind.ScenarioCampaign, wind.Options{USSetup: "landed"}, wind.ErrOptions},
		{wind.ScenarioCampaign, wind.Options{VPChits: "all"}, wind.ErrOptions},
	} {
		if _, _, err := wind.NewGameFrom(c.scenario, c.opt, tens{}); !errors.Is(err, c.want) {
			t.Errorf("%s %+v: %v, want %v", c.scenario, c.opt, err, c.want)
		}
	}
}

// The same scenario, options and dice create the same game: the audit
// relies on it.
func TestNewGameFromReplays(t *testing.T) {
	for _, c := range newGames {
		values := []int{3, 8, 2, 7, 1, 9, 4, 6, 5, 10, 2, 3, 8, 1, 7, 4, 6, 9, 5, 2, 3, 1, 4, 8, 7, 6, 9, 10, 5, 2, 1, 3, 3, 3, 7, 7}
		a, _, err := wind.NewGameFrom(c.scenario, c.opt, &wind.ForcedDice{Values: values})
		if err != nil {
			t.Fatal(err)
		}
		b, _, _ := wind.NewGameFrom(c.scenario, c.opt, &wind.ForcedDice{Values: values})
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
		s, _, err := wind.NewGameFrom(c.scenario, c.opt, tens{})
		if err != nil {
			t.Fatal(err)
		}
		for k := s.Wait().Kind; k == wind.WaitJPSetup || k == wind.WaitUSLanding; k = s.Wait().Kind {
			o := s.DefaultOrders()
			ns, _, ps := wind.Resolve(s, o, tens{})
			if len(ps) > 0 {
				t.Fatalf("%s %+v, %s: the default orders are refused: %v", c.scenario, c.opt, s.WaitText(), ps)
			}
			s = ns
		}
		if w := s.Wait(); w.Kind != wind.WaitUSDecision || w.Turn != 1 {
			t.Fatalf("%s %+v: after the default setup the game waits for %s", c.scenario, c.opt, w)
		}
	}
}

// The victory point chits show to the U.S. only once the game is over
// (rule 14.0): the U.S. view of two games whose chits differ is the same
// until then; the Japanese view differs.
func TestVPChitsHiddenFromUS(t *testing.T) {
	s, _, err := wind.NewGameFrom(wind.ScenarioCampaign, wind.Options{VPChits: wind.VPDrawn}, tens{})
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
	view := func(s *wind.State, side wind.Side) []byte { return mustMarshal(s.View(side)) }
	if !bytes.Equal(view(s, wind.US), view(other, wind.US)) {
		t.Fatal("the U.S. view shows the victory point chits")
	}
	if bytes.Equal(view(s, wind.JP), view(other, wind.JP)) {
		t.Fatal("the Japanese view does not show the victory point chits")
	}
	s.VP.Revealed, other.VP.Revealed = true, true
	if bytes.Equal(view(s, wind.US), view(other, wind.US)) {
		t.Fatal("revealed, the chits still do not show to the U.S.")
	}
}

func TestVictoryLevelTable(t *testing.T) {
	for points, want := range map[int]string{
		-1: "Japanese major victory", 2: "Japanese major victory", 3: "Japanese minor victory", 4: "Japanese minor victory",
		5: "Japanese marginal victory", 6: "Japanese marginal victory", 7: "U.S. marginal victory", 8: "U.S. marginal victory",
		9: "U.S. minor victory", 10: "U.S. minor victory", 11: "U.S. major victory", 16: "U.S. major victory",
	} {
		side, level := wind.VictoryLevel(points)
		if level != want || (side == wind.US) != (points >= 7) {
			t.Errorf("%d points: %s, %s; want %s", points, side, level, want)
		}
	}
	for turn, want := range map[int]int{1: 1, wind.TurnOfMay(26): 1, wind.TurnOfMay(27): 0, wind.TurnOfMay(30): 0, wind.TurnOfMay(31): -1} {
		if got := wind.VPDateAdjustment(turn); got != want {
			t.Errorf("turn %d (%s): %+d, want %+d", turn, wind.TurnDate(turn), got, want)
		}
	}
}

// Each short scenario's play area holds its victory hexes and landing
// zones, and every hex of it is joined to its victory hexes through the
// area (rule 15); the Linkup's two fronts make up its area.
func TestScenarioAreas(t *testing.T) {
	for _, name := range wind.ScenarioNames()[1:] {
		s, _, err := wind.NewGameFrom(name, wind.Options{}, tens{})
		if err != nil {
			t.Fatal(err)
		}
		m := s.Map()
		var area []wind.Hex
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
		seen := map[wind.Hex]bool{}
		var queue []wind.Hex
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
			if name == wind.ScenarioTheLinkup && s.Front(h) == "" {
				t.Errorf("the Linkup: %s is on neither front", h)
			}
		}
		if name == wind.ScenarioUpTheHogsBack && slices.ContainsFunc(area, func(h wind.Hex) bool { return m.Zone(h) == "H" }) {
			t.Errorf("Up the Hog's Back reaches into the Holtz Bay zone")
		}
	}
}
