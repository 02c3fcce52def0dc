package wind

import (
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The order templates of the setup waits (rule 12): the Japanese setup
// (12.3, 12.4, 14.0) and the U.S. landing (12.5, 12.6). Each stands as the
// default orders (wind.State.DefaultOrders; see the package doc)
// and lists in comments every choice of wind.SetupOptions.

// setupTemplate lays out the Japanese setup orders.
func (r *Report) setupTemplate(d orderData) string {
	o := r.Outlook.Setup
	var hexes, values []string
	for _, h := range o.VPHexes {
		name := h.String()
		if vh, ok := r.gameMap().VictoryHexAt(h); ok {
			name = fmt.Sprintf("%s (%s)", vh.Name, h)
		}
		hexes = append(hexes, name)
	}
	for _, v := range o.VPValues {
		values = append(values, fmt.Sprint(v))
	}
	d.Setup = o.Setup
	return execute("orders-setup.tmpl", struct {
		orderData
		O                 *wind.SetupOptions
		VPHexes, VPValues string
		AttuVP            int
	}{d, o, joinAnd(hexes), joinAnd(values), wind.AttuVP})
}

// landingTemplate lays out the U.S. landing orders.
func (r *Report) landingTemplate(d orderData) string {
	o := r.Outlook.Setup
	byZone := map[string][]string{}
	var zones, fixed, room []string
	for _, f := range o.Fixed {
		if _, ok := byZone[f.Zone]; !ok {
			zones = append(zones, f.Zone)
		}
		byZone[f.Zone] = append(byZone[f.Zone], f.Unit)
	}
	for _, z := range zones {
		fixed = append(fixed, fmt.Sprintf("%s at %s", strings.Join(byZone[z], ", "), z))
	}
	for _, lz := range r.gameMap().LandingZones {
		room = append(room, fmt.Sprintf("%s %d", lz.ID, lz.Capacity))
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
				lines = append(lines, []string{fmt.Sprintf("  #  %s", lo.Unit), fmt.Sprintf("# %s: no zone open to it now", templates.Plural(steps[lo.Unit], "step"))})
				continue
			}
			zone = lo.Zones[0]
		}
		lines = append(lines, []string{fmt.Sprintf("%s{unit: %s, zone: %s}", lead, lo.Unit, zone),
			fmt.Sprintf("# %s; zones: %s", templates.Plural(steps[lo.Unit], "step"), strings.Join(lo.Zones, ", "))})
	}
	d.Lines, d.Setup = templates.Columns(lines, nil), o.Setup
	return execute("orders-landing.tmpl", struct {
		orderData
		O           *wind.SetupOptions
		Fixed, Room string
	}{d, o, strings.Join(fixed, "; "), strings.Join(room, ", ")})
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
