package island

import (
	"fmt"
	"sort"
	"strings"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// TokenPlaceholder stands where the player's token goes in an order
// template: the template is mailed in the clear and must not carry the
// secret.
const TokenPlaceholder = "PASTE-YOUR-TOKEN-HERE"

// template is the order template for the reader when the game waits for
// the reader's orders: a file that reads and plays as it is (the
// defaults of IW27), with every choice listed in comments beside it.
func (v *view) template() (name, body string, ok bool) {
	w := v.wait
	if !v.awaited() {
		return "", "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Island War, %s: %s.\n", v.e.S.Name, waitWords(w))
	b.WriteString("# Fill in your token, change what you wish, and mail the file back.\n")
	b.WriteString("# Lines starting with # are comments. Hexes are \"CCRR\" (column, row), quoted.\n")
	fmt.Fprintf(&b, "game: %s\nside: %s\nturn: %d\nwait: %s\ntoken: %s  # your side's token, from the welcome mail\n", v.game.ID, hostSide(v.reader), w.Turn, w.Kind, TokenPlaceholder)
	b.WriteString("# now: true    # apply at once instead of after the settle window\n\n")
	pos := &Position{Game: v.g, e: v.e}
	switch w.Kind {
	case "setup":
		v.setupTemplate(&b, pos)
	case "orders":
		v.ordersTemplate(&b)
	case "defence":
		v.defenceTemplate(&b)
	}
	v.standingTemplate(&b)
	return fmt.Sprintf("orders-%d-%s-%s.yaml", w.Turn, hostSide(v.reader), w.Kind), b.String(), true
}

func (v *view) setupTemplate(b *strings.Builder, pos *Position) {
	b.WriteString("# Place each unit in a free hex of its area (rule 3.0); no two in a hex.\n")
	b.WriteString("# Filled in: the first free hex of each area, as a missed deadline would (IW27).\n")
	b.WriteString("setup:\n")
	def := firstFree(v.e, v.g)
	taken := map[iw.Hex]bool{}
	for _, pc := range v.g.Pieces {
		taken[pc.Hex] = pc.Where == iw.OnMap
	}
	for _, pl := range v.e.S.Setup.Placements {
		h, ok := def[pl.Unit]
		if !ok {
			continue
		}
		u, _ := v.e.S.Unit(pl.Unit)
		var free []string
		for _, a := range v.e.S.Areas[pl.Area] {
			if !taken[a] && !v.e.S.TerrainOf(a).Impassable {
				free = append(free, a.String())
			}
		}
		sort.Strings(free)
		fmt.Fprintf(b, "  # %s, %s %s; free hexes of area %s:\n", u.ID, u.Kind, values(v.e, u), pl.Area)
		for _, l := range wrapItems(free, "  #   ", "  #   ", 76) {
			b.WriteString(l + "\n")
		}
		fmt.Fprintf(b, "  %s: %q\n", yamlKey(u.ID), h.String())
	}
}

// yamlKey writes a unit id as a YAML key.
func yamlKey(id string) string { return fmt.Sprintf("%q", id) }

// ordersTemplate lists, per unit, where it can go and what stops it, and
// the attacks it must or may make, then the keys of the file with
// commented examples.
func (v *view) ordersTemplate(b *strings.Builder) {
	e, g, us := v.e, v.g, v.reader
	b.WriteString("# Your moves (rule 5.0): each unit at most once; path lists every hex it\n")
	b.WriteString("# enters in order. Below, for each unit: the hexes it can reach with the\n")
	b.WriteString("# cost in Movement Points, and \"(zoc ID)\" where the zone of control of\n")
	b.WriteString("# those enemy units stops it (rule 6.0); then the enemies it touches now.\n")
	for i, u := range e.S.Units {
		pc := g.Pieces[i]
		if u.Side != us || (pc.Where != iw.OnMap && !(pc.Where == iw.Waiting && pc.Due > 0 && pc.Due <= g.Turn)) {
			continue
		}
		where := "in " + pc.Hex.String()
		if pc.Where == iw.Waiting {
			where = "arriving this Game-Turn"
		}
		fmt.Fprintf(b, "# %s (%s %s) %s:\n", u.ID, u.Kind, values(e, u), where)
		routes := e.ReachCosts(g, u.ID)
		hs := make([]iw.Hex, 0, len(routes))
		for h := range routes {
			hs = append(hs, h)
		}
		sort.Slice(hs, func(i, j int) bool { return hs[i].String() < hs[j].String() })
		var items []string
		for _, h := range hs {
			s := fmt.Sprintf("%s %s", h, mp(routes[h].Half))
			if z := v.zocOf(h, us.Enemy()); len(z) > 0 {
				s += " (zoc " + strings.Join(z, " ") + ")"
			}
			items = append(items, s)
		}
		if len(items) == 0 {
			b.WriteString("#   cannot move this phase\n")
		} else {
			for _, l := range wrapItems(items, "#   reach: ", "#          ", 76) {
				b.WriteString(l + "\n")
			}
		}
		if pc.Where == iw.OnMap {
			if z := v.zocOf(pc.Hex, us.Enemy()); len(z) > 0 {
				fmt.Fprintf(b, "#   touches %s: if it stays it must attack (rule 7.12), and they must be attacked (7.11)\n", strings.Join(z, ", "))
			}
			if e.S.ClassOf(u) == iw.Artillery {
				if r := v.inRange(pc.Hex, u.Range, us.Enemy()); len(r) > 0 {
					fmt.Fprintf(b, "#   may barrage within %d hexes: %s (rule 8.11)\n", u.Range, strings.Join(r, ", "))
				}
			}
		}
	}
	b.WriteString("moves: []\n")
	b.WriteString("#  - {unit: ID, path: [\"CCRR\", \"CCRR\"]}\n\n")
	b.WriteString("# Your attacks (rule 7.0), resolved in this order, judged from where your\n")
	b.WriteString("# units end their moves: every unit next to an enemy must attack and every\n")
	b.WriteString("# enemy next to one must be attacked (7.11, 7.12, IW10); each attacker is\n")
	b.WriteString("# next to every defender of its attack (7.23). Filled in: the attacks the\n")
	b.WriteString("# duty requires if nobody moves (IW27).\n")
	duty := dutyAttacks(e, g)
	if len(duty) == 0 {
		b.WriteString("attacks: []\n")
	} else {
		b.WriteString("attacks:\n")
		for _, a := range duty {
			fmt.Fprintf(b, "  - {defenders: [%s], attackers: [%s]}\n", quoteAll(a.Defenders), quoteAll(a.Attackers))
		}
	}
	fmt.Fprintf(b, "# Every key of an attack:\n")
	b.WriteString("#  - defenders: [ID]          # enemy units attacked, all in adjacent hexes\n")
	b.WriteString("#    attackers: [ID]          # your adjacent units (artillery with its barrage, 8.31)\n")
	b.WriteString("#    barrage: [ID]            # artillery firing from beyond adjacency (8.11)\n")
	fmt.Fprintf(b, "#    gsp: 1                   # ground support points (9.0); you have %d left\n", g.GSP[us])
	if us == iw.Japan {
		b.WriteString("#    banzai: true             # doubles infantry and engineers; costs units (10.0)\n")
		b.WriteString("#    removals: [ID]           # the order of Banzai removals (10.12)\n")
	}
	b.WriteString("#    advance: [{unit: ID, to: \"CCRR\"}]   # after a D or De result (7.9)\n\n")
	b.WriteString("# Your units' retreats after an A result (7.7), and displacements (7.8);\n")
	b.WriteString("# left out, IW21 decides (farthest from the enemy, best terrain, lowest id).\n")
	b.WriteString("# own:\n")
	b.WriteString("#   retreats:\n")
	b.WriteString("#     \"ID\": {paths: [[\"CCRR\", \"CCRR\"]], toward: \"CCRR\"}\n")
	b.WriteString("#   order: [ID, ID]          # which of one combat's units retreat first\n")
	b.WriteString("#   displace:\n")
	b.WriteString("#     \"ID\": [\"CCRR\"]\n\n")
}

// defenceTemplate lists the declared attacks and the guns that can fire
// in each, then the keys of the answer.
func (v *view) defenceTemplate(b *strings.Builder) {
	e, g, us := v.e, v.g, v.reader
	b.WriteString("# The attacks declared against you (rule 4.1 c), resolved in this order:\n")
	for k, a := range v.declared {
		fmt.Fprintf(b, "#   %d. %s\n", k+1, attackSummary(a))
		for _, d := range a.Defenders {
			pc, _ := e.Piece(g, d)
			var guns []string
			for _, i := range sideUnits(e, g, us) {
				u := e.S.Units[i]
				if e.S.ClassOf(u) == iw.Artillery && u.ID != d && e.S.Grid.Distance(g.Pieces[i].Hex, pc.Hex) <= u.Range {
					guns = append(guns, u.ID)
				}
			}
			if len(guns) > 0 {
				fmt.Fprintf(b, "#      artillery in range of %s: %s (rule 8.4; each fires once a phase, IW19)\n", d, strings.Join(guns, ", "))
			}
		}
	}
	fmt.Fprintf(b, "# Ground support points left: %d (rule 9.0).\n", g.GSP[us])
	b.WriteString("# Filled in: your standing instructions, as a missed deadline would use them.\n")
	d := iw.Defence{}
	if v.standing != nil {
		d = v.standing.Defence
	}
	b.WriteString("defence:\n")
	writeDefence(b, d, "  ")
	b.WriteString("# Every key of the defence:\n")
	b.WriteString("#   fpf:\n")
	b.WriteString("#     - {protect: ID, artillery: [ID], gsp: 1, min_differential: 3, only_banzai: false}\n")
	b.WriteString("#   own: {retreats: {\"ID\": {toward: \"CCRR\"}}, order: [ID], displace: {\"ID\": [\"CCRR\"]}}\n")
	b.WriteString("#   advance: true            # advance after the attacker's A result (7.91)\n\n")
}

// standingTemplate shows the reader's standing instructions and how to
// replace them (IW24).
func (v *view) standingTemplate(b *strings.Builder) {
	b.WriteString("# Standing instructions for the enemy's Player-Turns (IW24): they stand until\n")
	b.WriteString("# a file replaces them whole; the enemy never sees them (IW26).\n")
	if v.standing == nil {
		b.WriteString("# You have none. For example:\n")
		b.WriteString("# standing:\n")
		b.WriteString("#   ask: true                # send me a defence wait to see the attacks first\n")
		b.WriteString("#   fpf:\n")
		b.WriteString("#     - {protect: ID, artillery: [ID], min_differential: 2}\n")
		b.WriteString("#   own: {retreats: {\"ID\": {toward: \"CCRR\"}}}\n")
		b.WriteString("#   advance: false\n")
		return
	}
	b.WriteString("# Yours now (uncomment to send them again changed):\n")
	var s strings.Builder
	fmt.Fprintf(&s, "standing:\n  ask: %v\n", v.standing.Ask)
	writeDefence(&s, v.standing.Defence, "  ")
	for _, l := range strings.Split(strings.TrimRight(s.String(), "\n"), "\n") {
		b.WriteString("# " + l + "\n")
	}
}

// writeDefence writes a Defence as YAML lines under indent.
func writeDefence(b *strings.Builder, d iw.Defence, in string) {
	if len(d.FPF) == 0 {
		b.WriteString(in + "fpf: []\n")
	} else {
		b.WriteString(in + "fpf:\n")
		for _, f := range d.FPF {
			fmt.Fprintf(b, "%s  - {protect: %q", in, f.Protect)
			if len(f.Artillery) > 0 {
				fmt.Fprintf(b, ", artillery: [%s]", quoteAll(f.Artillery))
			}
			if f.GSP > 0 {
				fmt.Fprintf(b, ", gsp: %d", f.GSP)
			}
			if f.MinDifferential != nil {
				fmt.Fprintf(b, ", min_differential: %d", *f.MinDifferential)
			}
			if f.OnlyBanzai {
				b.WriteString(", only_banzai: true")
			}
			b.WriteString("}\n")
		}
	}
	if o := d.Own; len(o.Retreats)+len(o.Order)+len(o.Displace) > 0 {
		b.WriteString(in + "own:\n")
		if len(o.Retreats) > 0 {
			b.WriteString(in + "  retreats:\n")
			for _, id := range sortedIDs(o.Retreats) {
				r := o.Retreats[id]
				var parts []string
				if len(r.Paths) > 0 {
					var ps []string
					for _, p := range r.Paths {
						ps = append(ps, "["+quoteHexes(p)+"]")
					}
					parts = append(parts, "paths: ["+strings.Join(ps, ", ")+"]")
				}
				if r.Toward != nil {
					parts = append(parts, fmt.Sprintf("toward: %q", r.Toward.String()))
				}
				fmt.Fprintf(b, "%s    %q: {%s}\n", in, id, strings.Join(parts, ", "))
			}
		}
		if len(o.Order) > 0 {
			fmt.Fprintf(b, "%s  order: [%s]\n", in, quoteAll(o.Order))
		}
		if len(o.Displace) > 0 {
			b.WriteString(in + "  displace:\n")
			for _, id := range sortedIDs(o.Displace) {
				fmt.Fprintf(b, "%s    %q: [%s]\n", in, id, quoteHexes(o.Displace[id]))
			}
		}
	}
	fmt.Fprintf(b, "%sadvance: %v\n", in, d.Advance)
}

func quoteAll(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(out, ", ")
}

func quoteHexes(hs []iw.Hex) string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = fmt.Sprintf("%q", h.String())
	}
	return strings.Join(out, ", ")
}

// mp writes a cost in half Movement Points as MP.
func mp(half int) string {
	if half%2 == 1 {
		return fmt.Sprintf("%d.5MP", half/2)
	}
	return fmt.Sprintf("%dMP", half/2)
}

// zocOf names the units of side s whose zone of control covers h: those
// next to it (rule 6.0).
func (v *view) zocOf(h iw.Hex, s iw.Side) []string {
	var out []string
	for _, i := range sideUnits(v.e, v.g, s) {
		if v.e.S.Grid.Adjacent(h, v.g.Pieces[i].Hex) {
			out = append(out, v.e.S.Units[i].ID)
		}
	}
	return out
}

// inRange names the units of side s within n hexes of h.
func (v *view) inRange(h iw.Hex, n int, s iw.Side) []string {
	var out []string
	for _, i := range sideUnits(v.e, v.g, s) {
		if d := v.e.S.Grid.Distance(h, v.g.Pieces[i].Hex); d > 1 && d <= n {
			out = append(out, v.e.S.Units[i].ID)
		}
	}
	return out
}

// wrapItems lays items out in comment lines no wider than width.
func wrapItems(items []string, first, rest string, width int) []string {
	var out []string
	line := first
	for i, it := range items {
		sep := ", "
		if i == len(items)-1 {
			sep = ""
		}
		if len(line)+len(it)+len(sep) > width && line != first && line != rest {
			out = append(out, strings.TrimRight(line, " "))
			line = rest
		}
		line += it + sep
	}
	return append(out, strings.TrimRight(line, " "))
}
