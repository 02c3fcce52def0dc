package wind

import (
	"fmt"
	"strings"
)

// The few words the refusals of orders (Problem) and the stacking and
// line-of-sight reasons they quote need. Events carry no words: package
// templates words them.

// inWeather reads "in cloudy weather", "in rain", "in fog".
func inWeather(w Weather) string {
	switch w {
	case Cloudy:
		return "in cloudy weather"
	case Williwaw:
		return "in a williwaw"
	}
	return "in " + w.String()
}

// sideName names a side as the rules do: "U.S.", "Japanese".
func sideName(s Side) string {
	switch s {
	case US:
		return "U.S."
	case JP:
		return "Japanese"
	}
	return s.String()
}

// plural counts: "1 hex", "3 hexes", "2 steps".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if what == "hex" {
		return fmt.Sprintf("%d hexes", n)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// joinAnd joins names as "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
