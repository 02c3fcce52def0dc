package wind

import "fmt"

// Scenario names (rule 15.0). The campaign game (12.0) has no name.
const (
	ScenarioUpTheHogsBack        = "up-the-hogs-back"         // rule 15.1
	ScenarioHoltzBayToJarminPass = "holtz-bay-to-jarmin-pass" // rule 15.2
	ScenarioTheLinkup            = "the-linkup"               // rule 15.3
)

// weatherChart is the Weather Chart of rule 3.3: for each previous weather,
// the highest die (1..10, a 0 reading 10) that gives each new weather, in
// the order the chart lists them.
var weatherChart = [...][]struct {
	upTo int
	w    Weather
}{
	Cloudy:   {{3, Cloudy}, {8, Rain}, {10, Fog}},
	Rain:     {{2, Cloudy}, {6, Rain}, {10, Fog}},
	Fog:      {{3, Rain}, {7, Fog}, {10, Williwaw}},
	Williwaw: {{2, Rain}, {9, Fog}, {10, Williwaw}},
}

// NextWeather reads the Weather Chart (rule 3.3): the weather that follows
// prev on a die of 1 to 10. A die outside 1..10 panics: dice sources never
// return one.
func NextWeather(prev Weather, die int) Weather {
	if die < 1 || die > 10 || int(prev) >= len(weatherChart) {
		panic(fmt.Sprintf("adjudicator: NextWeather(%v, %d): die must be 1..10", prev, die))
	}
	for _, row := range weatherChart[prev] {
		if die <= row.upTo {
			return row.w
		}
	}
	panic("unreachable: every chart line ends at 10")
}

// RollWeather rolls the weather for this turn (rule 3.3) from the weather of
// the previous turn, which s.Weather still holds, and sets s.Weather. Turn 1
// rolls on the Fog line whatever s.Weather says, since the weather marker
// starts on Fog (12.2).
func RollWeather(s *State, d Dice) Event {
	prev := s.Weather
	if s.Turn <= 1 {
		prev = Fog
	}
	die := d.Roll(Die{Purpose: DieWeather, Seen: AudienceBoth})
	s.Weather = NextWeather(prev, die)
	return Event{Kind: EventWeather, Seen: Public, Dice: []EventDie{{Face: die}}, Prev: prev, Weather: s.Weather}
}

// AirpowerModifier is what a scenario adds to both sides' airpower dice:
// -1 in Up the Hog's Back (15.1), -2 in Holtz Bay to Jarmin Pass (15.2), -1
// in The Linkup (15.3), 0 in the campaign and any other scenario.
func AirpowerModifier(scenario string) int {
	switch scenario {
	case ScenarioUpTheHogsBack, ScenarioTheLinkup:
		return -1
	case ScenarioHoltzBayToJarminPass:
		return -2
	}
	return 0
}

// WeatherAirpowerModifier is what the weather adds to the airpower dice
// (rule 3.4): -1 in rain, -3 in fog, -5 in a williwaw.
func WeatherAirpowerModifier(w Weather) int {
	switch w {
	case Rain:
		return -1
	case Fog:
		return -3
	case Williwaw:
		return -5
	}
	return 0
}

// usAir and jpAir are the Airpower Determination Table (rule 3.4), indexed
// by the modified die 0..10 (1 or less reads as index 0 or 1, both 0).
var (
	usAir = [11]int{0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 5}
	jpAir = [11]int{0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3}
)

// AirpowerFactors reads the Airpower Determination Table (rule 3.4) for a
// side on a modified die: 1 or less gives nothing; the die is the one rolled
// (1..10, a 0 already read as 10) plus the modifiers.
func AirpowerFactors(side Side, modified int) int {
	i := min(max(modified, 0), 10)
	if side == JP {
		return jpAir[i]
	}
	return usAir[i]
}

// RollAirpower rolls both sides' airpower for this turn (rule 3.4), the U.S.
// die first, then the Japanese one, each modified by the weather already
// rolled this turn and by the scenario (AirpowerModifier). It sets s.AirUS
// and s.AirJP; factors left over from an earlier turn are lost.
func RollAirpower(s *State, d Dice) []Event {
	wmod, smod := WeatherAirpowerModifier(s.Weather), AirpowerModifier(s.Scenario)
	var evs []Event
	var mods []Modifier
	if wmod != 0 {
		mods = append(mods, Modifier{Value: wmod, Line: weatherLine[s.Weather]})
	}
	if smod != 0 {
		mods = append(mods, Modifier{Value: smod, Line: ModScenario})
	}
	for _, side := range []Side{US, JP} {
		die := d.Roll(Die{Purpose: DieAirpower, Side: side, Seen: AudienceBoth})
		f := AirpowerFactors(side, die+wmod+smod)
		if side == US {
			s.AirUS = f
		} else {
			s.AirJP = f
		}
		// Each side rolls on the table in the open (rule 3.4).
		evs = append(evs, Event{Kind: EventAirpower, Seen: Public, Side: side, Dice: []EventDie{{Face: die}},
			DRM: wmod + smod, Mods: mods, Weather: s.Weather, Factors: f})
	}
	return evs
}

// weatherLine is the modifier line of each weather.
var weatherLine = [...]ModifierLine{Cloudy: "", Rain: ModRain, Fog: ModFog, Williwaw: ModWilliwaw}
