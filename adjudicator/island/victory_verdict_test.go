package island

import "testing"

// A game-over event's note reads back as the verdict it was written from.
func TestParseVerdict(t *testing.T) {
	for _, v := range []Verdict{
		{Winner: US, Level: "decisive", Points: map[Side]int{US: 15, Japan: 0}},
		{Winner: Japan, Points: map[Side]int{US: 2, Japan: 9}},
		{Winner: Japan, Level: "strategic marginal", Points: map[Side]int{US: 2, Japan: 9}},
		{Points: map[Side]int{US: 3, Japan: 3}},
	} {
		got, ok := ParseVerdict(v.String())
		if !ok || got.String() != v.String() || got.Winner != v.Winner || got.Level != v.Level {
			t.Errorf("%q read back as %+v, %v", v.String(), got, ok)
		}
	}
	for _, bad := range []string{"", "us win", "moon win (us 1, japan 2)", "us win (us x, japan 2)", "us big (us 1, japan 2)"} {
		if _, ok := ParseVerdict(bad); ok {
			t.Errorf("%q read as a verdict", bad)
		}
	}
}
