package wind

import (
	"cmp"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"maps"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// closeUpRadius is how far around a fight a close-up reaches.
const closeUpRadius = 3

// markerSet is the unit markers of a report: two characters for the
// island map, up to nine for a close-up.
type markerSet struct {
	island, close map[adjudicator.Hex]string
}

// markers returns the unit markers of every hex the view shows: a side's
// letter and how many units stand there, "?" and a count for a hex of
// anonymous counters only (rule 2.5). A hex of face-up Japanese units and
// anonymous counters shows J and all its counters on the island map; the
// close-up tells them apart.
func (r *Report) markers() markerSet {
	ms := markerSet{island: map[adjudicator.Hex]string{}, close: map[adjudicator.Hex]string{}}
	for _, h := range r.View.Hexes() {
		units, hidden := r.View.At(h)
		us, jp, down := 0, 0, 0
		for _, u := range units {
			switch {
			case u.Side == adjudicator.US:
				us++
			case u.FaceDown:
				jp, down = jp+1, down+1
			default:
				jp++
			}
		}
		switch {
		case us > 0:
			ms.island[h] = short("U", us)
			ms.close[h] = fmt.Sprintf("U%d", us)
		case jp > 0:
			ms.island[h] = short("J", jp+hidden)
			ms.close[h] = fmt.Sprintf("J%d", jp)
			if hidden > 0 {
				ms.close[h] += fmt.Sprintf(" ?%d", hidden)
			}
			if down > 0 && down < jp {
				ms.close[h] = fmt.Sprintf("J%d %dd", jp, down)
			}
		case hidden > 0:
			ms.island[h] = short("?", hidden)
			ms.close[h] = fmt.Sprintf("?%d", hidden)
		}
	}
	return ms
}

// short is a letter and a count in two characters.
func short(letter string, n int) string {
	if n > 9 {
		return letter + "+"
	}
	return fmt.Sprintf("%s%d", letter, n)
}

// area is one close-up: its centre and why it is shown.
type area struct {
	center adjudicator.Hex
	why    string
}

// closeUps returns the close-ups of the report: every hex where the events
// tell of fighting and every hex where the reader's units stand in an enemy
// zone of control is covered by one, with as few close-ups as a greedy
// choice of centres finds.
func (r *Report) closeUps() []area {
	fought, zoc, focus := map[adjudicator.Hex]bool{}, map[adjudicator.Hex]bool{}, map[adjudicator.Hex]bool{}
	for _, h := range foughtHexes(r.Events) {
		fought[h], focus[h] = true, true
	}
	for _, u := range r.Outlook.Units {
		if u.EnemyZOC {
			zoc[u.Hex], focus[u.Hex] = true, true
		}
	}
	cands := slices.Sorted(maps.Keys(focus))
	var out []area
	for len(focus) > 0 {
		best, bestN := adjudicator.Hex(0), -1
		for _, c := range cands {
			n := 0
			for h := range focus {
				if h.Distance(c) <= closeUpRadius {
					n++
				}
			}
			if n > bestN {
				best, bestN = c, n
			}
		}
		var f, z []adjudicator.Hex
		for _, h := range slices.Sorted(maps.Keys(focus)) {
			if h.Distance(best) > closeUpRadius {
				continue
			}
			if fought[h] {
				f = append(f, h)
			}
			if zoc[h] {
				z = append(z, h)
			}
			delete(focus, h)
		}
		var why []string
		if len(f) > 0 {
			why = append(why, "fighting in "+hexesComma(f))
		}
		if len(z) > 0 {
			who := "your units"
			if r.View.Side == adjudicator.Umpire {
				who = "units"
			}
			why = append(why, who+" in an enemy zone of control in "+hexesComma(z))
		}
		out = append(out, area{center: best, why: capitalize(strings.Join(why, "; ")) + "."})
	}
	slices.SortFunc(out, func(a, b area) int { return int(a.center - b.center) })
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ownUnits is the table of the reader's units on the map (every unit for
// the umpire): steps, supply (rule 7), enemy zone of control (6.1),
// movement this turn (5.1, 5.2) and what the unit has done (3.5).
func (r *Report) ownUnits() []string {
	side := r.View.Side
	head := []string{"unit", "hex", "steps", "supply", "enemy ZOC", "MP", "this turn"}
	if side != adjudicator.US {
		head = append(head, "face")
	}
	if side == adjudicator.Umpire {
		head = append([]string{"side"}, head...)
	}
	rows := [][]string{head}
	for _, u := range r.Outlook.Units {
		row := []string{u.ID, u.Hex.String(), fmt.Sprintf("%d of %d", u.Steps, u.MaxSteps), cmp.Or(u.Supply, "-"), yes(u.EnemyZOC), mpText(u), doneText(u)}
		if side != adjudicator.US {
			face := ""
			if u.Side == adjudicator.JP {
				face = "up"
				if u.FaceDown {
					face = "down"
				}
			}
			row = append(row, face)
		}
		if side == adjudicator.Umpire {
			row = append([]string{templates.SideTitle(u.Side)}, row...)
		}
		rows = append(rows, row)
	}
	if len(rows) == 1 {
		return nil
	}
	return templates.Columns(rows, nil)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

func mpText(u wind.UnitStatus) string {
	if u.MPSpent > 0 {
		return fmt.Sprintf("%d (%d spent)", u.MP, u.MPSpent)
	}
	return fmt.Sprint(u.MP)
}

func doneText(u wind.UnitStatus) string {
	switch {
	case u.Melee != 0:
		return "declared melee on " + u.Melee.String()
	case u.Acted && u.MPSpent > 0:
		return "moved"
	case u.Acted:
		return "acted"
	}
	return "-"
}

// boxTitle names an off-map box for a reader.
func boxTitle(box string) string {
	if z, ok := strings.CutPrefix(box, wind.BoxStagingPrefix); ok {
		return "Staging box " + z
	}
	return cmp.Or(map[string]string{
		wind.BoxReinforcements: "Reinforcements box",
		wind.BoxPool:           "Pool of infantry",
		wind.BoxOffMap:         "Unknown units set aside off the map",
		wind.BoxEliminated:     "Eliminated",
		wind.BoxUnused:         "Not in play yet (independent units and depots)",
	}[box], box)
}

// offMap lists the reader's units off the map, by box: ids, except for the
// pool and the unused counters, which are counted.
func (r *Report) offMap() []string {
	by := map[string][]string{}
	for _, u := range r.View.Units {
		if u.Hex == 0 {
			key := templates.SideTitle(u.Side) + "\x00" + u.Box
			by[key] = append(by[key], u.ID)
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(by)) {
		side, box, _ := strings.Cut(k, "\x00")
		title := boxTitle(box)
		if r.View.Side == adjudicator.Umpire {
			title = side + " " + strings.ToLower(title[:1]) + title[1:]
		}
		ids := by[k]
		if box == wind.BoxPool || box == wind.BoxUnused {
			out = append(out, fmt.Sprintf("%s: %s.", title, templates.Plural(len(ids), "unit")))
			continue
		}
		out = append(out, templates.ListLines(fmt.Sprintf("%s (%s): ", title, templates.Plural(len(ids), "unit")), ids)...)
	}
	return out
}

// enemyUnits is the table of the enemy units the reader may identify
// (the U.S. also learns none of their battalions); nil when there are
// none.
func (r *Report) enemyUnits() []string {
	if len(r.View.Enemy) == 0 {
		return nil
	}
	us := r.View.Side == adjudicator.US
	head := []string{"unit", "type", "battalion", "hex", "steps"}
	if us {
		head = slices.Delete(head, 2, 3)
	}
	rows := [][]string{head}
	for _, u := range r.View.Enemy {
		row := []string{u.ID, u.Kind.String(), u.Battalion, u.Hex.String(), fmt.Sprint(u.Steps)}
		if us {
			row = slices.Delete(row, 2, 3)
		}
		rows = append(rows, row)
	}
	return templates.Columns(rows, nil)
}

// hiddenCounters lists the anonymous counters by hex, and counts them.
func (r *Report) hiddenCounters() ([]string, int) {
	var items []string
	total := 0
	for _, st := range r.View.Hidden {
		items = append(items, fmt.Sprintf("%s: %d hidden", st.Hex, st.Count))
		total += st.Count
	}
	return templates.ListLines("", items), total
}

// enemyBoxes is what the Japanese may count of the U.S. units off the map.
func (r *Report) enemyBoxes() []string {
	var out []string
	for _, b := range r.View.Boxes {
		if b.Side == adjudicator.US {
			out = append(out, fmt.Sprintf("%s: %s, %s.", boxTitle(b.Box), templates.Plural(b.Units, "unit"), templates.Plural(b.Steps, "step")))
		}
	}
	return out
}

func (r *Report) victoryHexes() []string {
	cleared := map[string]bool{}
	for _, z := range r.View.ClearedZones {
		cleared[z] = true
	}
	rows := [][]string{{"hex", "name", "zone", "held by"}}
	for _, vh := range r.View.VictoryHexes {
		held := "nobody"
		if vh.Held != adjudicator.NoSide {
			held = sideName(vh.Held)
		}
		zone := vh.Zone
		if cleared[vh.Zone] {
			zone += " (cleared)"
		}
		rows = append(rows, []string{vh.Hex.String(), vh.Name, zone, held})
	}
	return templates.Columns(rows, nil)
}

// clearedZones lists the victory zones cleared, with their names.
func (r *Report) clearedZones() []string {
	m := r.gameMap()
	var zs []string
	for _, z := range r.View.ClearedZones {
		if name := m.ZoneName(z); name != "" {
			zs = append(zs, fmt.Sprintf("%s (%s)", z, name))
		} else {
			zs = append(zs, z)
		}
	}
	return templates.ListLines("Cleared victory zones (rule 10.0): ", zs)
}

// standing lists the standing instructions in force.
func (r *Report) standing() []standingText {
	var out []standingText
	for _, ss := range r.Outlook.Standing {
		title := "Yours"
		if r.View.Side == adjudicator.Umpire {
			title = templates.SideTitle(ss.Side)
		}
		out = append(out, standingText{Title: title, Lines: templates.Columns(standingRows(ss.Side, ss.Standing, false), nil)})
	}
	return out
}

// standingItem is one standing instruction: its key, the side that has
// it (NoSide: both), its value, its brackets in YAML when it is a list
// ("[]") or a map ("{}"), and what it decides, as a report says it and as
// an order template does.
type standingItem struct {
	key          string
	side         adjudicator.Side
	value        func(wind.Standing) []string
	brackets     string
	report, note string
}

var standingItems = []standingItem{
	{"decision", adjudicator.US, func(s wind.Standing) []string { return []string{s.Decision} }, "",
		"ask you each turn, or make it day, night or refit (rules 3.1, 3.2)", "ask, or day, night or refit made for you each turn (3.1, 3.2)"},
	{"losses", 0, func(s wind.Standing) []string { return []string{s.Losses} }, "",
		"spread: each hit on the strongest unit; concentrate: one at a time", "spread or concentrate"},
	{"loss_order", 0, func(s wind.Standing) []string { return s.LossOrder }, "[]",
		"units that take hits first, in order", "units that take hits first"},
	{"retreat", adjudicator.US, func(s wind.Standing) []string { return []string{s.Retreat} }, "",
		"when to fall back after a melee round (rule 8.2.1.3)", "never, always, if-losing or below-N (8.2.1.3)"},
	{"retreat_at", adjudicator.US, func(s wind.Standing) []string { return hexPairs(s.RetreatAt) }, "{}",
		"the same for a melee at one hex", "per melee hex, like {2717: never}"},
	{"advance", 0, func(s wind.Standing) []string { return []string{s.Advance} }, "",
		"who moves into a hex the defenders left (rule 8.2.1.4)", "all, none or strongest (8.2.1.4)"},
	{"advance_at", 0, func(s wind.Standing) []string { return hexPairs(s.AdvanceAt) }, "{}",
		"the same for one hex", "per hex, like {2717: all}"},
	{"unknown_table", adjudicator.JP, func(s wind.Standing) []string { return []string{s.UnknownTable} }, "",
		"which table when Unknown units stack (rule 2.5)", "most or fewest (2.5)"},
	{"unknown_table_at", adjudicator.JP, func(s wind.Standing) []string { return hexPairs(s.UnknownTableAt) }, "{}",
		"the Unknown unit whose table to roll, by hex", "per hex, the Unknown unit to roll for"},
	{"friendly_fire", 0, func(s wind.Standing) []string { return []string{s.FriendlyFire} }, "",
		"which unit your own air hits among equals (rule 8.1.6)", "most-steps or fewest-steps (8.1.6)"},
	{"melee_order", 0, func(s wind.Standing) []string { return hexNames(s.MeleeOrder) }, "[]",
		"melee hexes you pick first (rule 3.7)", "melee hexes you pick first (3.7)"},
	{"melee_pick", 0, func(s wind.Standing) []string { return []string{s.MeleePick} }, "",
		"how you pick the others: strongest or listed", "strongest or listed"},
	{"martinez", adjudicator.US, func(s wind.Standing) []string { return []string{s.Martinez} }, "",
		"PFC Martinez: auto, never or a hex (rule 11.1)", "auto, never or a hex (11.1)"},
	{"arnold", adjudicator.US, func(s wind.Standing) []string { return []string{s.Arnold} }, "",
		"General Arnold: auto, never or a hex (rule 11.2)", "auto, never or a hex (11.2)"},
}

// hexPairs writes a map by hex as "2717: never" pairs, in hex order.
func hexPairs(m map[adjudicator.Hex]string) []string {
	var out []string
	for _, h := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s: %s", h, m[h]))
	}
	return out
}

// standingRows gives one row per instruction side has: for a report
// (yaml false) its key, its value (an empty list as "-") and what it
// decides; for an order template a commented YAML line and its note.
func standingRows(side adjudicator.Side, st wind.Standing, yaml bool) [][]string {
	var rows [][]string
	for _, it := range standingItems {
		if it.side != adjudicator.NoSide && it.side != side {
			continue
		}
		vs := it.value(st)
		v := strings.Join(vs, ", ")
		switch {
		case yaml && it.brackets != "":
			rows = append(rows, []string{"#  " + it.key + ": " + it.brackets[:1] + v + it.brackets[1:], "# " + it.note})
		case yaml:
			rows = append(rows, []string{"#  " + it.key + ": " + v, "# " + it.note})
		case it.brackets != "" && len(vs) == 0:
			rows = append(rows, []string{it.key, "-", it.report})
		default:
			rows = append(rows, []string{it.key, v, it.report})
		}
	}
	return rows
}
