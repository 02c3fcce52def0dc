package templates

import (
	"fmt"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
)

// The order templates of the setup waits (rule 12): the Japanese setup
// (12.3, 12.4, 14.0) and the U.S. landing (12.5, 12.6). Unlike the other
// templates these do not do nothing as they stand, since the rules want
// every unit placed: each stands as the default orders the game would
// apply at the deadline (adjudicator.State.DefaultOrders), which attu
// accepts, and lists in comments every choice the side has, computed by
// the engine for that side's view (adjudicator.SetupOptions).

// setupTemplate lays out the Japanese setup orders.
func (r *Report) setupTemplate(d orderData) string {
	o := r.Outlook.Setup
	var out []string
	note := func(text string) { out = append(out, wrapLines(text, "  # ", "  # ")...) }
	if o.Setup == adjudicator.SetupHistoric {
		note("The historic setup has placed your units (rule 12.3): list only the value chits under vp:.")
	}
	var place []string
	for _, g := range o.Place {
		var what string
		switch g.Class {
		case "unknown":
			what = fmt.Sprintf("The Unknown units (%s) set up face down on land in the play area, not in or next "+
				"to a landing zone, one to a hex (rule 12.4), in any of these %s:", strings.Join(g.Units, ", "), Plural(len(g.Hexes), "hex"))
		default:
			what = fmt.Sprintf("The %s guns (%s) set up face down, at most three guns a hex (rule 4.2), in any of these %s:",
				strings.TrimPrefix(g.Class, "jp-"), strings.Join(g.Units, ", "), Plural(len(g.Hexes), "hex"))
			if g.Class == "jp-75mm" {
				what = strings.TrimSuffix(what, ":") + ", at least one in each:"
			}
		}
		place = append(place, wrapLines(what, "  # ", "  # ")...)
		place = append(place, commentList("  #   ", hexRanges(g.Hexes))...)
	}
	if len(o.Cover) > 0 {
		place = append(place, wrapLines("Each of these landing zones needs two Unknown units two or three hexes "+
			"away (rule 12.4); the hexes that count for each:", "  # ", "  # ")...)
		for _, c := range o.Cover {
			place = append(place, commentList(fmt.Sprintf("  #   zone %s (%s): ", c.Zone, c.Hex), hexRanges(c.Hexes))...)
		}
	}
	if o.PerFront > 0 {
		place = append(place, wrapLines(fmt.Sprintf("%d Unknown units set up on each front, north and south (RULINGS.md R65).", o.PerFront), "  # ", "  # ")...)
	}
	if len(o.Place) > 0 {
		out = append(out, place...)
		out = append(out, "  place:")
		for _, p := range o.JPSetup.Place {
			out = append(out, fmt.Sprintf("    - {unit: %s, hex: %s}", p.Unit, p.Hex))
		}
	}
	if len(o.VPHexes) > 0 {
		var vals []string
		for _, v := range o.VPValues {
			vals = append(vals, fmt.Sprint(v))
		}
		var hexes []string
		m := r.gameMap()
		for _, h := range o.VPHexes {
			name := h.String()
			if vh, ok := m.VictoryHexAt(h); ok {
				name = fmt.Sprintf("%s (%s)", vh.Name, h)
			}
			hexes = append(hexes, name)
		}
		note(fmt.Sprintf("The victory point chits (rule 14.0): one value chit on each of %s; the chits are %s, each used once. "+
			"Attu Village takes none: it is worth %d.", joinAnd(hexes), joinAnd(vals), adjudicator.AttuVP))
		out = append(out, "  vp:")
		for _, p := range o.JPSetup.VP {
			out = append(out, fmt.Sprintf("    - {hex: %s, value: %d}", p.Hex, p.Value))
		}
	}
	d.Lines, d.Setup = out, o.Setup
	return execute("orders-setup.tmpl", d)
}

// landingTemplate lays out the U.S. landing orders.
func (r *Report) landingTemplate(d orderData) string {
	o := r.Outlook.Setup
	m := r.gameMap()
	var out []string
	note := func(text string) { out = append(out, wrapLines(text, "  # ", "  # ")...) }
	if len(o.Fixed) > 0 {
		byZone := map[string][]string{}
		var zones []string
		for _, f := range o.Fixed {
			if _, ok := byZone[f.Zone]; !ok {
				zones = append(zones, f.Zone)
			}
			byZone[f.Zone] = append(byZone[f.Zone], f.Unit)
		}
		var parts []string
		for _, z := range zones {
			parts = append(parts, fmt.Sprintf("%s at %s", strings.Join(byZone[z], ", "), z))
		}
		note("These land by themselves, first (rule 12.5): " + strings.Join(parts, "; ") + ".")
	}
	var room []string
	for _, lz := range m.LandingZones {
		room = append(room, fmt.Sprintf("%s %d", lz.ID, lz.Capacity))
	}
	what := "Each unit below may be sent to one of the zones listed after it, zones held or watched by Japanese counters " +
		"left out (rule 9.2). Each lands with one scatter die, in the weather of the turn (rule 9.2.2); a zone holds " +
		"so many steps (9.2.1): " + strings.Join(room, ", ") + "."
	if o.AllLand {
		what += " Every unit listed must be sent (rule 12.5)."
	} else {
		what += " Units left out, or listed as comments, wait in the reinforcements box for a refit turn."
	}
	note(what)
	if o.MayDelay {
		note("delay: true instead lands a turn later (rule 12.6), hoping for better weather: then delete the land: list. " +
			"After the last turn of the game a landing never made loses it (rule 3.8.3).")
		out = append(out, "  delay: false")
	}
	steps := map[string]int{}
	for _, u := range r.View.Units {
		steps[u.ID] = u.Steps
	}
	sent := map[string]string{}
	for _, l := range o.Landing.Land {
		sent[l.Unit] = l.Zone
	}
	var lines [][]string
	for _, lo := range o.Land {
		zone, ok := sent[lo.Unit]
		lead := "    - "
		if !ok {
			lead = "  #  - "
			if len(lo.Zones) == 0 {
				lines = append(lines, []string{fmt.Sprintf("  #  %s", lo.Unit), fmt.Sprintf("# %s: no zone open to it now", Plural(steps[lo.Unit], "step"))})
				continue
			}
			zone = lo.Zones[0]
		}
		lines = append(lines, []string{fmt.Sprintf("%s{unit: %s, zone: %s}", lead, lo.Unit, zone),
			fmt.Sprintf("# %s; zones: %s", Plural(steps[lo.Unit], "step"), strings.Join(lo.Zones, ", "))})
	}
	if len(lines) == 0 {
		out = append(out, "  land: []")
	} else {
		out = append(out, "  land:")
		out = append(out, columns(lines, nil)...)
	}
	d.Lines, d.Setup = out, o.Setup
	return execute("orders-landing.tmpl", d)
}

// hexRanges writes hexes in order as runs down a column: 1205-1209, 1212.
func hexRanges(hs []adjudicator.Hex) []string {
	hs = slices.Clone(hs)
	slices.Sort(hs)
	var out []string
	for i := 0; i < len(hs); {
		j := i
		for j+1 < len(hs) && hs[j+1].Col() == hs[i].Col() && hs[j+1].Row() == hs[j].Row()+1 {
			j++
		}
		if j == i {
			out = append(out, hs[i].String())
		} else {
			out = append(out, hs[i].String()+"-"+hs[j].String())
		}
		i = j + 1
	}
	return out
}
