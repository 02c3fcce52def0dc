package wind

import (
	"cmp"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// TokenPlaceholder stands where the player's token goes in an order
// template: the template is mailed in the clear and must not carry the
// secret. A file still holding it is refused by authentication, and the
// refusal can say so.
const TokenPlaceholder = "PASTE-YOUR-TOKEN-HERE"

// OrderTemplateName is the file name of the order template for side's
// orders of a wait, as it is attached to the report: orders-3-us-actions.yaml,
// orders-1-us-landing.yaml. The order sheet of the same wait bears the same
// name (OrderSheetName), and the file it writes too.
func OrderTemplateName(turn int, side adjudicator.Side, wait adjudicator.WaitKind) string {
	return ordersName(turn, side, wait) + ".yaml"
}

// ordersName names the orders of side for a wait, the side once: a wait
// that names its side (us-landing) is not prefixed with it again.
func ordersName(turn int, side adjudicator.Side, wait adjudicator.WaitKind) string {
	if strings.HasPrefix(string(wait), side.String()+"-") {
		return fmt.Sprintf("orders-%d-%s", turn, wait)
	}
	return fmt.Sprintf("orders-%d-%s-%s", turn, side, wait)
}

// OrderTemplate returns the order template for the reader, named for its
// attachment, when the game waits for the reader's orders of a kind that
// has one; ok is false otherwise. One template exists per kind of wait the
// rules play: the Japanese setup and the U.S. landing (rule 12), the U.S.
// decision, the actions, and the refit orders of each side.
func (r *Report) OrderTemplate() (name, body string, ok bool) {
	if !r.hasOrderTemplate() {
		return "", "", false
	}
	w := r.Outlook.Wait
	d := orderData{
		View: r.View, Game: r.Game.ID, Side: r.View.Side.String(), Turn: w.Turn, Wait: string(w.Kind),
		Token:    TokenPlaceholder,
		Standing: standingLines(r.View.Side, r.Outlook.Standing),
	}
	if dl := r.deadline(); dl != "" {
		d.Deadline = " Deadline: " + dl + "."
	}
	name = OrderTemplateName(w.Turn, r.View.Side, w.Kind)
	switch w.Kind {
	case wind.WaitUSDecision:
		return name, execute("orders-decision.tmpl", d), true
	case wind.WaitJPSetup:
		return name, r.setupTemplate(d), true
	case wind.WaitUSLanding:
		return name, r.landingTemplate(d), true
	case wind.WaitUSRefit, wind.WaitJPRefit:
		d.Refit = cmp.Or(r.Outlook.Refit, &wind.RefitOptions{})
		return name, execute("orders-refit.tmpl", d), true
	default:
		d.Units = r.unitBlocks()
		d.Air, d.AirAt = r.airTarget()
		y := r.Outlook.Yamasaki
		d.Yamasaki = r.View.Side == adjudicator.JP && y != nil && y.Available
		return name, execute("orders-actions.tmpl", d), true
	}
}

// hasOrderTemplate reports whether the report comes with an order
// template: the reader is awaited for orders that have one, and at a
// setup wait the outlook lists the setup options.
func (r *Report) hasOrderTemplate() bool {
	k := r.Outlook.Wait.Kind
	_, ok := templateSays[k]
	return r.awaited() && ok && (!isSetupWait(k) || r.Outlook.Setup != nil)
}

// isSetupWait reports whether k is one of the setup waits of rule 12.
func isSetupWait(k adjudicator.WaitKind) bool {
	return k == wind.WaitJPSetup || k == wind.WaitUSLanding
}

// orderData is what the order templates lay out; every line is a comment or
// YAML of at most MaxWidth columns. Deadline is " Deadline: ...", or empty.
type orderData struct {
	View     *wind.View
	Deadline string
	Setup    string
	Game     string
	Side     string
	Turn     int
	Wait     string
	Token    string
	Units    []unitBlock
	Air      int             // the side's air factors
	AirAt    adjudicator.Hex // the hex of the air order shown (0: none)
	Yamasaki bool            // he may lead his charge now
	Refit    *wind.RefitOptions
	Lines    []string // the setup or landing orders
	Standing []string
}

// unitBlock is what the actions template says of one unit of the reader
// on the map: where it stands, then each kind of order it may give, the
// choices listed and one ready to use.
type unitBlock struct {
	wind.UnitOptions
	Status wind.UnitStatus
	// MoveTo and MeleeOn word the choices; Far is the path of the
	// farthest move, the one shown ready to use.
	MoveTo, MeleeOn []string
	Far             string
	Spotted         bool // some fire needs a spotter
}

// unitBlocks is the blocks of the reader's units on the map.
func (r *Report) unitBlocks() []unitBlock {
	status := map[string]wind.UnitStatus{}
	for _, u := range r.Outlook.Units {
		status[u.ID] = u
	}
	var out []unitBlock
	for _, uo := range r.Outlook.Options {
		b := unitBlock{UnitOptions: uo, Status: status[uo.Unit]}
		for _, mv := range uo.Moves {
			it := fmt.Sprintf("%s (%d", mv.To, mv.MP)
			if len(mv.Path) > 1 {
				it += " via " + mv.Path[len(mv.Path)-2].String()
			}
			b.MoveTo = append(b.MoveTo, it+")")
		}
		if len(uo.Moves) > 0 {
			far := uo.Moves[0]
			for _, mv := range uo.Moves {
				if mv.MP > far.MP || (mv.MP == far.MP && len(mv.Path) > len(far.Path)) {
					far = mv
				}
			}
			b.Far = hexesComma(far.Path)
		}
		for _, h := range uo.Melee {
			b.MeleeOn = append(b.MeleeOn, fmt.Sprintf("%s (%s)", h, r.whoIsIn(h)))
		}
		b.Spotted = slices.ContainsFunc(uo.Fire, func(f wind.FireOption) bool { return len(f.Spotters) > 0 })
		out = append(out, b)
	}
	return out
}

// commentList is listLines for a YAML comment: head starts with "  # ",
// and continuation lines keep the "#".
func commentList(head string, items []string) []string {
	lines := templates.ListLines(head, items)
	for i := 1; i < len(lines); i++ {
		lines[i] = "  #" + strings.TrimPrefix(lines[i], "   ")
	}
	return lines
}

// fireItem describes one hex a unit may fire at: how far, whether it sees
// it (8.1.1, 8.1.2), who may spot for it (8.1.4) and which unit to name
// (8.0).
func fireItem(f wind.FireOption, w wind.Weather) string {
	s := templates.Plural(f.Distance, "hex") + ", "
	switch {
	case f.Sees:
		s += "in sight"
	case f.LOS:
		s += fmt.Sprintf("beyond spotting distance %d in %s", wind.SpottingDistance(w), w)
	default:
		s += "no line of sight"
	}
	if len(f.Spotters) > 0 {
		s += "; spotter: one of " + strings.Join(f.Spotters, ", ")
	}
	if len(f.TargetUnits) > 0 {
		s += "; target_unit: one of " + strings.Join(f.TargetUnits, ", ")
	}
	return s
}

// whoIsIn says what the reader sees in hex h: unit ids and hidden counters.
func (r *Report) whoIsIn(h adjudicator.Hex) string {
	units, hidden := r.View.At(h)
	var parts []string
	for _, u := range units {
		parts = append(parts, u.ID)
	}
	if hidden > 0 {
		parts = append(parts, fmt.Sprintf("%d hidden", hidden))
	}
	return strings.Join(parts, ", ")
}

// airTarget returns the side's air factors (rule 8.1.6) and a hex holding
// enemy units for the example air order; no hex when either is lacking.
func (r *Report) airTarget() (int, adjudicator.Hex) {
	n := r.View.Air.US
	if r.View.Side == adjudicator.JP {
		n = r.View.Air.JP
	}
	for _, h := range r.View.Hexes() {
		units, hidden := r.View.At(h)
		if n > 0 && (hidden > 0 || (len(units) > 0 && units[0].Side != r.View.Side)) {
			return n, h
		}
	}
	return n, 0
}

// standingLines is the commented standing: section holding the
// instructions in force, ready to change.
func standingLines(side adjudicator.Side, all []wind.SideStanding) []string {
	var st wind.Standing
	for _, ss := range all {
		if ss.Side == side {
			st = ss.Standing
		}
	}
	out := templates.WrapLines("Standing instructions in force. To change some, delete the \"#\" before \"standing:\" and before each line you change; lines left as comments stay as they are.", "# ", "# ")
	out = append(out, "#standing:")
	return append(out, templates.Columns(standingRows(side, st, true), nil)...)
}
