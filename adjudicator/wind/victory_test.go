package wind

import (
	"encoding/json"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// victoryState is a game in progress (the Japanese actions of turn 5) with
// units placed by id, Japanese face down, and one platoon in the pool.
func victoryState(t *testing.T, place map[string]Hex) *State {
	t.Helper()
	s := game(t, place)
	s.Turn = 5
	s.await(WaitActions, JP)
	return s
}

func wantWinner(t *testing.T, s *State, evs []Event, side Side, why string) {
	t.Helper()
	if s.Winner != side {
		t.Fatalf("winner %s (%s), want %s", s.Winner, s.Victory, side)
	}
	if side == NoSide {
		if s.Awaiting == WaitEnded || len(evs) > 0 {
			t.Fatalf("no winner, yet phase %s and events %v", s.Awaiting, evs)
		}
		return
	}
	if s.Awaiting != WaitEnded || s.Waiting != NoSide {
		t.Errorf("won, yet waiting for %s %s", s.Waiting, s.Awaiting)
	}
	wantText(t, s.Victory, why)
	wantText(t, eventTexts(evs), why)
}

func TestSuddenVictory(t *testing.T) {
	s := victoryState(t, map[string]Hex{"1/17-A": 2821, "J01": 2717})
	wantWinner(t, s, s.checkSuddenVictory(), NoSide, "")

	s.Casualties = 29
	wantWinner(t, s, s.checkSuddenVictory(), NoSide, "")
	s.Casualties = 30
	wantWinner(t, s, s.checkSuddenVictory(), JP, "casualty track reached 30 (rule 3.8.2)")
	// Once decided, nothing changes it.
	s.Casualties = 0
	if evs := s.checkSuddenVictory(); len(evs) > 0 || s.Winner != JP {
		t.Errorf("decided game changed: %v", evs)
	}

	// Unknown units, on the map or off, do not keep the Japanese in the
	// game; infantry in the pool does; so does artillery on the map.
	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "U01": 2717})
	u02, _ := s.Unit("U02")
	u02.Box = BoxOffMap
	wantWinner(t, s, s.checkSuddenVictory(), NoSide, "")
	j64, _ := s.Unit("J64")
	j64.Box = BoxEliminated
	wantWinner(t, s, s.checkSuddenVictory(), US, "no Japanese infantry or artillery remain (rule 3.8.2)")

	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "75MM1": 2717})
	j64, _ = s.Unit("J64")
	j64.Box = BoxEliminated
	wantWinner(t, s, s.checkSuddenVictory(), NoSide, "")
	// Captured U.S. artillery is not a Japanese unit.
	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "105-1": 2717})
	gun, _ := s.Unit("105-1")
	gun.Captured = true
	j64, _ = s.Unit("J64")
	j64.Box = BoxEliminated
	wantWinner(t, s, s.checkSuddenVictory(), US, "rule 3.8.2")
}

func TestVictoryHexes(t *testing.T) {
	place := map[string]Hex{"J01": 2010}
	for i, vh := range BuiltinMap().VictoryHexes {
		place[[]string{"1/17-A", "1/17-B", "1/17-C", "1/17-D", "2/17-E", "2/17-F"}[i]] = vh.Hex
	}
	s := victoryState(t, place)
	wantWinner(t, s, s.checkVictory(), US, "all six victory hexes at step 8 (rule 3.8.1)")

	// Five of six is not enough.
	s = victoryState(t, place)
	b, _ := s.Unit("2/17-F")
	b.Hex = 3621
	wantWinner(t, s, s.checkVictory(), NoSide, "")
}

func TestLandingZonesVictory(t *testing.T) {
	// Any unit counts, an Unknown unit too.
	place := map[string]Hex{"1/17-A": 2720, "J01": 2821, "J02": 3022, "U01": 3122, "J03": 3323}
	s := victoryState(t, place)
	wantWinner(t, s, s.checkVictory(), JP, "landing zones D, E, F and G at step 8 (rule 3.8.1)")

	delete(place, "J03")
	s = victoryState(t, place)
	wantWinner(t, s, s.checkVictory(), NoSide, "")
}

func TestEngineerHillArtillery(t *testing.T) {
	// Landing zone G (3323) is 9 hexes from 2717: the Japanese 75mm and a
	// captured 105mm (range 10) reach all four; the 20mm (range 4) only D.
	m := BuiltinMap()
	for id, want := range map[string]int{"D": 4, "E": 6, "F": 7, "G": 9} {
		lz, _ := m.LandingZone(id)
		if got := EngineerHill.Distance(lz.Hex); got != want {
			t.Errorf("2717 to landing zone %s: %d hexes, want %d", id, got, want)
		}
	}
	s := victoryState(t, map[string]Hex{"1/17-A": 2821, "20MM1": 2717, "J01": 2717})
	wantWinner(t, s, s.checkVictory(), NoSide, "")

	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "75MM1": 2717})
	wantWinner(t, s, s.checkVictory(), JP, "Japanese artillery on Engineer Hill (2717), 75MM1")

	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "105-1": 2717, "J01": 2717})
	gun, _ := s.Unit("105-1")
	gun.Captured = true
	wantWinner(t, s, s.checkVictory(), JP, "captured U.S. artillery on Engineer Hill (2717), 105-1")

	// Reduced to one step the battery still has range 10.
	s = victoryState(t, map[string]Hex{"1/17-A": 2821, "105-1": 2717})
	gun, _ = s.Unit("105-1")
	gun.Captured, gun.Steps = true, 1
	wantWinner(t, s, s.checkVictory(), JP, "covers landing zones D, E, F and G")

	// A U.S. battery not captured is no Japanese victory.
	s = victoryState(t, map[string]Hex{"105-1": 2717, "J01": 2010})
	wantWinner(t, s, s.checkVictory(), NoSide, "")
}

// When both sides meet rule 3.8.1 at once, the U.S. wins.
func TestVictoryBothSides(t *testing.T) {
	place := map[string]Hex{"J01": 2821, "J02": 3022, "J03": 3122, "J04": 3323}
	for i, vh := range BuiltinMap().VictoryHexes {
		place[[]string{"1/17-A", "1/17-B", "1/17-C", "1/17-D", "2/17-E", "2/17-F"}[i]] = vh.Hex
	}
	s := victoryState(t, place)
	wantWinner(t, s, s.checkVictory(), US, "all six victory hexes")
}

// Victory is checked at step 8 of a turn run through Resolve.
func TestVictoryAtStep8(t *testing.T) {
	s := victoryState(t, map[string]Hex{"1/17-A": 2720, "J01": 2821, "J02": 3022, "U01": 3122, "J03": 3322})
	s.await(WaitActions, US)
	s, _ = resolve(t, s, Orders{Side: US, Turn: 5})
	if s.Awaiting == WaitEnded {
		t.Fatalf("won before step 8: %s", s.Victory)
	}
	s, evs := resolve(t, s, Orders{Side: JP, Turn: 5, Actions: []Action{mv("J03", 3323)}})
	wantWinner(t, s, evs, JP, "landing zones D, E, F and G")
	if s.Turn != 5 {
		t.Errorf("the turn advanced after the game ended")
	}
}

func TestCleared(t *testing.T) {
	// Engineer Hill zone E: U.S. on 2717, two Unknown units elsewhere in
	// the zone.
	s := victoryState(t, map[string]Hex{"1/17-A": 2717, "U01": 2720, "U02": 2720, "J01": 3409})
	before := s.Clone()
	evs := s.updateCleared()
	if !slices.Equal(s.Cleared, []string{"E"}) {
		t.Fatalf("cleared %v, want [E]", s.Cleared)
	}
	for _, id := range []string{"U01", "U02"} {
		if u, _ := s.Unit(id); u.OnMap() || u.Box != BoxOffMap {
			t.Errorf("%s still at %s / %s", id, u.Hex, u.Box)
		} else if u.FaceDown {
			t.Errorf("%s is face down in the off-map box", id)
		}
	}
	us := eventTexts(VisibleEvents(evs, US))
	wantText(t, us, "The Engineer Hill zone is cleared")
	wantText(t, us, "2 Japanese counters leave the map")
	if strings.Contains(us, "U01") {
		t.Errorf("the U.S. reads Unknown ids: %s", us)
	}
	wantText(t, eventTexts(VisibleEvents(evs, JP)), "U01 and U02 go to the off-map box")
	if len(before.Cleared) != 0 {
		t.Errorf("the clone's zones changed")
	}
	if evs := s.updateCleared(); len(evs) > 0 {
		t.Errorf("clearing twice: %v", evs)
	}
	if !s.ClearedAt(2720) || s.ClearedAt(3409) || s.ClearedAt(0) {
		t.Errorf("ClearedAt: 2720 %v, 3409 %v", s.ClearedAt(2720), s.ClearedAt(3409))
	}

	// The U.S. leaving the victory hex does not un-clear the zone; an
	// Unknown unit entering it does not either; Japanese infantry does.
	a, _ := s.Unit("1/17-A")
	a.Hex = 2718
	u01, _ := s.Unit("U01")
	u01.Hex = 2717
	s.updateCleared()
	if !s.IsCleared("E") {
		t.Fatalf("zone un-cleared without Japanese infantry")
	}
	u01.Hex, u01.Box = 0, BoxOffMap
	j02, _ := s.Unit("J02")
	j02.Hex = 2717
	evs = s.updateCleared()
	if s.IsCleared("E") {
		t.Fatalf("zone still cleared with J02 on 2717")
	}
	wantText(t, eventTexts(evs), "no longer cleared")

	// It can be cleared again.
	j02.Hex, j02.Box = 0, BoxEliminated
	a.Hex = 2717
	s.updateCleared()
	if !s.IsCleared("E") {
		t.Errorf("zone not cleared again")
	}

	// Japanese infantry or artillery anywhere in the zone keeps it.
	s = victoryState(t, map[string]Hex{"1/17-A": 2717, "20MM1": 2720})
	s.updateCleared()
	if len(s.Cleared) > 0 {
		t.Errorf("cleared %v with artillery in the zone", s.Cleared)
	}
	// Attu Village's zone never is.
	s = victoryState(t, map[string]Hex{"1/17-A": 3409, "U01": 3410})
	s.updateCleared()
	if len(s.Cleared) > 0 {
		t.Errorf("cleared %v", s.Cleared)
	}
	if u, _ := s.Unit("U01"); !u.OnMap() {
		t.Errorf("U01 left Attu Village's zone")
	}
}

// Property: after updateCleared, every cleared zone has no Unknown unit on
// the map and is not Attu Village's; every zone whose victory hex the U.S.
// holds with no Japanese but Unknown units in it is cleared; a second call
// changes nothing.
func TestClearedProperty(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	m := BuiltinMap()
	clearedSome := 0
	for i := range 300 {
		s := randomState(r)
		s.Cleared = nil
		s.updateCleared()
		clearedSome += len(s.Cleared)
		for _, vh := range m.VictoryHexes {
			cleared := s.IsCleared(vh.Zone)
			if isAttuVillage(vh) && cleared {
				t.Fatalf("position %d: Attu Village's zone cleared", i)
			}
			should := !isAttuVillage(vh) && s.holds(vh.Hex, US) && !s.japaneseBesidesUnknownIn(vh.Zone)
			if cleared != should {
				t.Fatalf("position %d: zone %s cleared %v, want %v", i, vh.Zone, cleared, should)
			}
			for _, u := range s.Units {
				if cleared && u.OnMap() && u.Kind() == Unknown && m.Zone(u.Hex) == vh.Zone {
					t.Fatalf("position %d: %s left in cleared zone %s", i, u.ID, vh.Zone)
				}
			}
		}
		if evs := s.updateCleared(); len(evs) > 0 {
			t.Fatalf("position %d: second call: %v", i, evs)
		}
	}
	if clearedSome == 0 {
		t.Errorf("no generated position cleared a zone; the property tested nothing")
	}
}

// Property: rule 3.8.2 fires exactly when the track is at 30 or no
// Japanese infantry or artillery is on the map or in the pool, and an
// ended game round-trips through JSON with its winner.
func TestSuddenVictoryProperty(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	for i := range 300 {
		s := randomState(r)
		s.await(WaitActions, US)
		if r.Intn(3) == 0 {
			s.Casualties = 30 + r.Intn(3)
		}
		if r.Intn(3) == 0 {
			for _, u := range s.Units {
				if u.Side() == JP && u.Kind() != Unknown {
					u.Hex, u.Box = 0, BoxEliminated
				}
			}
		}
		left := false
		for _, u := range s.Units {
			k := u.Counter().Kind()
			if u.Counter().Side() == JP && (k == Infantry || k == Artillery) && (u.OnMap() || u.Box == BoxPool) {
				left = true
			}
		}
		want := NoSide
		switch {
		case s.Casualties >= 30:
			want = JP
		case !left:
			want = US
		}
		s.checkSuddenVictory()
		if s.Winner != want || (want != NoSide) != (s.Awaiting == WaitEnded) {
			t.Fatalf("position %d: winner %s phase %s, want %s", i, s.Winner, s.Awaiting, want)
		}
		var back State
		if err := json.Unmarshal(mustJSON(t, s), &back); err != nil {
			t.Fatalf("position %d: %v", i, err)
		}
		if back.Winner != s.Winner || back.Awaiting != s.Awaiting || back.Victory != s.Victory {
			t.Fatalf("position %d: round trip lost the outcome", i)
		}
	}
}
