package wind

import (
	"fmt"
	"strings"
	"testing"
)

// The Weather Chart of rule 3.3, written out die by die.
func TestNextWeatherChart(t *testing.T) {
	chart := map[Weather]string{
		//        die 1 2 3 4 5 6 7 8 9 10
		Cloudy:   "C C C R R R R R F F",
		Rain:     "C C R R R R F F F F",
		Fog:      "R R R F F F F W W W",
		Williwaw: "R R F F F F F F F W",
	}
	letter := map[string]Weather{"C": Cloudy, "R": Rain, "F": Fog, "W": Williwaw}
	for prev, line := range chart {
		for i, l := range strings.Fields(line) {
			die := i + 1
			if got, want := NextWeather(prev, die), letter[l]; got != want {
				t.Errorf("NextWeather(%s, %d) = %s, want %s", prev, die, got, want)
			}
		}
	}
}

func TestNextWeatherRejectsBadDice(t *testing.T) {
	for _, die := range []int{0, 11, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NextWeather(fog, %d) did not panic", die)
				}
			}()
			NextWeather(Fog, die)
		}()
	}
}

func TestRollWeather(t *testing.T) {
	tests := []struct {
		turn int
		prev Weather
		die  int
		want Weather
		line string
	}{
		// Turn 1 uses the Fog line (12.2) whatever the state holds.
		{1, Cloudy, 1, Rain, "fog"},
		{1, Cloudy, 3, Rain, "fog"},
		{1, Rain, 4, Fog, "fog"},
		{1, Cloudy, 7, Fog, "fog"},
		{1, Cloudy, 8, Williwaw, "fog"},
		{1, Cloudy, 10, Williwaw, "fog"},
		// Later turns use the previous turn's weather.
		{2, Cloudy, 3, Cloudy, "cloudy"},
		{2, Cloudy, 4, Rain, "cloudy"},
		{2, Cloudy, 8, Rain, "cloudy"},
		{2, Cloudy, 9, Fog, "cloudy"},
		{3, Rain, 2, Cloudy, "rain"},
		{3, Rain, 3, Rain, "rain"},
		{3, Rain, 6, Rain, "rain"},
		{3, Rain, 7, Fog, "rain"},
		{4, Fog, 3, Rain, "fog"},
		{4, Fog, 7, Fog, "fog"},
		{4, Fog, 8, Williwaw, "fog"},
		{5, Williwaw, 2, Rain, "williwaw"},
		{5, Williwaw, 3, Fog, "williwaw"},
		{5, Williwaw, 9, Fog, "williwaw"},
		{5, Williwaw, 10, Williwaw, "williwaw"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("turn %d %s die %d", tt.turn, tt.prev, tt.die), func(t *testing.T) {
			s := NewState(nil, nil)
			s.Turn, s.Weather = tt.turn, tt.prev
			d := &ForcedDice{Values: []int{tt.die}}
			ev := RollWeather(s, d)
			if s.Weather != tt.want {
				t.Errorf("weather %s, want %s", s.Weather, tt.want)
			}
			if len(d.Log) != 1 || d.Log[0].Purpose != DieWeather {
				t.Errorf("dice rolled: %+v, want one weather die", d.Log)
			}
			want := fmt.Sprintf("die %d on the %s line: %s", tt.die, tt.line, tt.want)
			if ev.Kind != EventWeather || !strings.Contains(eventText(ev), want) {
				t.Errorf("event %+v, want text containing %q", ev, want)
			}
		})
	}
}

func TestAirpowerModifier(t *testing.T) {
	for scenario, want := range map[string]int{
		"":                           0,
		"campaign":                   0,
		ScenarioUpTheHogsBack:        -1,
		ScenarioHoltzBayToJarminPass: -2,
		ScenarioTheLinkup:            -1,
	} {
		if got := AirpowerModifier(scenario); got != want {
			t.Errorf("AirpowerModifier(%q) = %d, want %d", scenario, got, want)
		}
	}
	for w, want := range map[Weather]int{Cloudy: 0, Rain: -1, Fog: -3, Williwaw: -5} {
		if got := WeatherAirpowerModifier(w); got != want {
			t.Errorf("WeatherAirpowerModifier(%s) = %d, want %d", w, got, want)
		}
	}
}

// The Airpower Determination Table of rule 3.4, row by row.
func TestAirpowerFactorsTable(t *testing.T) {
	rows := []struct{ die, us, jp int }{
		{-4, 0, 0}, {0, 0, 0}, {1, 0, 0},
		{2, 1, 0}, {3, 1, 0}, {4, 1, 0},
		{5, 2, 1}, {6, 2, 1}, {7, 3, 1},
		{8, 3, 2}, {9, 4, 2}, {10, 5, 3},
	}
	for _, r := range rows {
		if got := AirpowerFactors(US, r.die); got != r.us {
			t.Errorf("U.S. on %d: %d, want %d", r.die, got, r.us)
		}
		if got := AirpowerFactors(JP, r.die); got != r.jp {
			t.Errorf("Japanese on %d: %d, want %d", r.die, got, r.jp)
		}
	}
}

func TestRollAirpower(t *testing.T) {
	tests := []struct {
		weather          Weather
		scenario         string
		usDie, jpDie     int
		wantUS, wantJP   int
		wantUSText, want string
	}{
		{Cloudy, "", 10, 10, 5, 3, "die 10: 5", "die 10: 3"},
		{Cloudy, "", 1, 4, 0, 0, "die 1: 0", "die 4: 0"},
		{Cloudy, "", 9, 8, 4, 2, "die 9: 4", "die 8: 2"},
		{Rain, "", 10, 10, 4, 2, "die 10 -1 rain = 9: 4", "die 10 -1 rain = 9: 2"},
		{Rain, "", 2, 5, 0, 0, "die 2 -1 rain = 1: 0", "die 5 -1 rain = 4: 0"},
		{Rain, "", 3, 6, 1, 1, "= 2: 1", "= 5: 1"},
		{Fog, "", 10, 10, 3, 1, "10 -3 fog = 7: 3", "10 -3 fog = 7: 1"},
		{Fog, "", 4, 8, 0, 1, "4 -3 fog = 1: 0", "8 -3 fog = 5: 1"},
		{Fog, "", 5, 3, 1, 0, "5 -3 fog = 2: 1", "3 -3 fog = 0: 0"},
		{Williwaw, "", 10, 10, 2, 1, "10 -5 williwaw = 5: 2", "10 -5 williwaw = 5: 1"},
		{Williwaw, "", 6, 9, 0, 0, "6 -5 williwaw = 1: 0", "9 -5 williwaw = 4: 0"},
		{Cloudy, ScenarioUpTheHogsBack, 10, 9, 4, 2, "10 -1 scenario = 9: 4", "9 -1 scenario = 8: 2"},
		{Cloudy, ScenarioHoltzBayToJarminPass, 10, 7, 3, 1, "10 -2 scenario = 8: 3", "7 -2 scenario = 5: 1"},
		{Cloudy, ScenarioTheLinkup, 2, 6, 0, 1, "2 -1 scenario = 1: 0", "6 -1 scenario = 5: 1"},
		{Fog, ScenarioHoltzBayToJarminPass, 10, 10, 2, 1, "10 -3 fog -2 scenario = 5: 2", "10 -3 fog -2 scenario = 5: 1"},
		{Williwaw, ScenarioHoltzBayToJarminPass, 10, 10, 1, 0, "10 -5 williwaw -2 scenario = 3: 1", "= 3: 0"},
		{Rain, ScenarioUpTheHogsBack, 10, 10, 3, 2, "10 -1 rain -1 scenario = 8: 3", "= 8: 2"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s %q %d %d", tt.weather, tt.scenario, tt.usDie, tt.jpDie)
		t.Run(name, func(t *testing.T) {
			s := NewState(nil, nil)
			s.Weather, s.Scenario = tt.weather, tt.scenario
			s.AirUS, s.AirJP = 9, 9 // last turn's factors are lost
			d := &ForcedDice{Values: []int{tt.usDie, tt.jpDie}}
			evs := RollAirpower(s, d)
			if s.AirUS != tt.wantUS || s.AirJP != tt.wantJP {
				t.Errorf("airpower U.S. %d, Japanese %d; want %d, %d", s.AirUS, s.AirJP, tt.wantUS, tt.wantJP)
			}
			if len(d.Log) != 2 || d.Log[0].Purpose != DieAirpower || d.Log[0].Side != US || d.Log[1].Purpose != DieAirpower || d.Log[1].Side != JP {
				t.Errorf("dice rolled %+v, want the U.S. die then the Japanese die", d.Log)
			}
			if len(evs) != 2 || evs[0].Side != US || evs[1].Side != JP {
				t.Fatalf("events %+v, want one U.S. then one Japanese", evs)
			}
			if !strings.Contains(eventText(evs[0]), tt.wantUSText) || !strings.Contains(eventText(evs[1]), tt.want) {
				t.Errorf("events %q / %q, want %q / %q", eventText(evs[0]), eventText(evs[1]), tt.wantUSText, tt.want)
			}
		})
	}
}
