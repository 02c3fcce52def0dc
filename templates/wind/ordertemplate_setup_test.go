package wind

import (
	"fmt"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	windorders "github.com/attu-pbem/attu/orders/wind"
)

// parseOnly parses an orders file that must parse.
func parseOnly(t testing.TB, what, body string) *windorders.File {
	t.Helper()
	f, err := windorders.Parse([]byte(body), windorders.Options{})
	if err != nil {
		t.Fatalf("%s does not parse:\n%v\n%s", what, err, body)
	}
	return f
}

var (
	placeLine  = regexp.MustCompile(`^    - \{unit: (\S+), hex: (\d{4})\}$`)
	vpLine     = regexp.MustCompile(`^    - \{hex: (\d{4}), value: (\d+)\}$`)
	groupHead  = regexp.MustCompile(`^The .*\(([A-Z0-9, ]+)\) set up`)
	hexRange   = regexp.MustCompile(`(\d{4})(?:-(\d{4}))?`)
	landLine   = regexp.MustCompile(`^  (?:  |#  )- \{unit: (\S+), zone: ([A-Z])\}\s+# .*zones: ([A-Z, ]+)$`)
	zoneOfLine = regexp.MustCompile(`zone: [A-Z]\}`)
)

// readRanges reads "1205-1209, 1212" as the hexes it names.
func readRanges(t testing.TB, text string) []adjudicator.Hex {
	t.Helper()
	var out []adjudicator.Hex
	for _, m := range hexRange.FindAllStringSubmatch(text, -1) {
		from, err := adjudicator.ParseHex(m[1])
		if err != nil {
			t.Fatal(err)
		}
		to := from
		if m[2] != "" {
			if to, err = adjudicator.ParseHex(m[2]); err != nil {
				t.Fatal(err)
			}
		}
		for h := from; h <= to; h++ {
			out = append(out, h)
		}
	}
	return out
}

// checkSetupTemplate checks a Japanese setup template the way a player
// uses it: for each unit, one of the hexes its comments list for it, put
// in its line (trading hexes with a unit of its group already there), is
// accepted for it; and two value chits traded between victory hexes are
// accepted.
func checkSetupTemplate(t *testing.T, s *wind.State, what, body string, r *rand.Rand, tally map[string]int) {
	t.Helper()
	lines := strings.Split(body, "\n")
	group := map[string][]string{}           // unit → the units of its group
	listed := map[string][]adjudicator.Hex{} // unit → the hexes listed for it
	var entries, vps []int
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "  # The ") {
			// The paragraph naming the group, then its hexes.
			para := strings.TrimPrefix(l, "  # ")
			for !strings.HasSuffix(lines[i], ":") {
				i++
				para += " " + strings.TrimPrefix(lines[i], "  # ")
			}
			m := groupHead.FindStringSubmatch(para)
			if m == nil {
				continue
			}
			units := strings.Split(m[1], ", ")
			var text string
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], "  #  ") {
				i++
				text += " " + lines[i]
			}
			hexes := readRanges(t, text)
			for _, u := range units {
				group[u], listed[u] = units, hexes
			}
			continue
		}
		if placeLine.MatchString(l) {
			entries = append(entries, i)
		}
		if vpLine.MatchString(l) {
			vps = append(vps, i)
		}
	}
	for k, i := range entries {
		m := placeLine.FindStringSubmatch(lines[i])
		unit, old := m[1], m[2]
		hs := listed[unit]
		if len(hs) == 0 {
			t.Fatalf("%s: no hex listed for %s", what, unit)
		}
		h := hs[r.Intn(len(hs))].String()
		out := append([]string(nil), lines...)
		out[i] = fmt.Sprintf("    - {unit: %s, hex: %s}", unit, h)
		for _, j := range entries {
			if n := placeLine.FindStringSubmatch(lines[j]); j != i && n[2] == h && strings.Contains(strings.Join(group[unit], " "), n[1]) {
				out[j] = fmt.Sprintf("    - {unit: %s, hex: %s}", n[1], old)
				break
			}
		}
		f := parseOnly(t, what, strings.Join(out, "\n"))
		for _, p := range wind.CheckOrders(s, f.Orders()) {
			if p.Part == wind.PartPlace && p.Step == k {
				t.Fatalf("%s: %s in %s is listed but refused: %s", what, unit, h, p.Msg)
			}
		}
		tally["placements"]++
	}
	if len(vps) >= 2 {
		a, b := vps[r.Intn(len(vps))], vps[r.Intn(len(vps))]
		ma, mb := vpLine.FindStringSubmatch(lines[a]), vpLine.FindStringSubmatch(lines[b])
		out := append([]string(nil), lines...)
		out[a] = fmt.Sprintf("    - {hex: %s, value: %s}", ma[1], mb[2])
		out[b] = fmt.Sprintf("    - {hex: %s, value: %s}", mb[1], ma[2])
		parseAccepted(t, s, what+" with two value chits traded", strings.Join(out, "\n"))
		tally["value chits"]++
	}
}

// checkLandingTemplate checks a U.S. landing template the way a player
// uses it: for each unit listed, sent or held back, one of the zones
// listed for it, written in its line and the line uncommented, is
// accepted; and delay: true, when listed, with the land: list deleted.
func checkLandingTemplate(t *testing.T, s *wind.State, what, body string, r *rand.Rand, tally map[string]int) {
	t.Helper()
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		m := landLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		zones := strings.Split(m[3], ", ")
		z := zones[r.Intn(len(zones))]
		out := append([]string(nil), lines...)
		out[i] = "    - " + zoneOfLine.ReplaceAllString(strings.TrimLeft(strings.TrimLeft(l, " #"), "- "), "zone: "+z+"}")
		parseAccepted(t, s, what+" with "+strings.TrimSpace(out[i]), strings.Join(out, "\n"))
		tally["landings"]++
	}
	if strings.Contains(body, "\n  delay: false\n") {
		var out []string
		inLand := false
		for _, l := range lines {
			switch {
			case l == "  delay: false":
				l = "  delay: true"
			case strings.HasPrefix(l, "  land:"):
				inLand = true
				continue
			case inLand && (strings.HasPrefix(l, "    - ") || strings.HasPrefix(l, "  #  ")):
				continue
			default:
				inLand = false
			}
			out = append(out, l)
		}
		f := parseAccepted(t, s, what+" with delay: true", strings.Join(out, "\n"))
		if !f.Orders().Landing.Delay {
			t.Fatalf("%s: delay: true is not read", what)
		}
		tally["delays"]++
	}
}
