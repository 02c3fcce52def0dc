package island

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	iw "github.com/attu-pbem/attu/adjudicator/island"
	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/templates"
)

// A side's report is made of what the side may see (IW26): the engine's
// position, which is open at the table, the events, which tell only what
// happened, the declared attacks of a pending Player-Turn without their
// advances, removals and retreats, and the reader's own standing
// instructions. Nothing else of the position is read here.

// view is what a report of side reader is made of.
type view struct {
	e        *iw.Engine
	game     templates.Game
	g        iw.Position
	wait     adjudicator.Wait
	reader   iw.Side
	events   []iw.Event
	declared []iw.Attack  // the pending attacks as the defender sees them
	standing *oi.Standing // the reader's own
	ended    bool
	// umpire is set for the umpire's report, which shows everything: both
	// sides' standing instructions and the pending orders whole.
	umpire  bool
	all     map[iw.Side]oi.Standing
	pending *iw.Orders
}

// viewOf builds the view of in, keeping only what in.Side may see.
func viewOf(in templates.ReportFor) (*view, error) {
	pos, ok := in.Position.(*Position)
	if !ok || pos.e == nil {
		return nil, fmt.Errorf("not Island War: %T", in.Position)
	}
	evs, err := decodeEvents(in.Events)
	if err != nil {
		return nil, err
	}
	v := &view{e: pos.e, game: in.Game, g: pos.Game, wait: pos.Wait(), reader: ruleSide(in.Side), events: evs, ended: in.Ended}
	if in.Ended {
		v.wait = adjudicator.Wait{Turn: v.wait.Turn, Kind: adjudicator.WaitEnded}
	}
	if pos.Pending != nil {
		v.declared = publicAttacks(pos.Pending.Attacks)
	}
	switch in.Side {
	case adjudicator.US, adjudicator.JP:
		if s, ok := pos.Standing[v.reader]; ok {
			v.standing = &s
		}
	case adjudicator.Umpire:
		v.umpire, v.all, v.pending = true, pos.Standing, pos.Pending
	default:
		return nil, fmt.Errorf("no report for side %s", in.Side)
	}
	return v, nil
}

// publicAttacks gives what the defender sees of declared attacks at the
// table before he answers (rule 4.1 c, IW25): who attacks whom, with what
// barrage, ground support and Banzai, not what the attacker plans after.
func publicAttacks(as []iw.Attack) []iw.Attack {
	out := make([]iw.Attack, len(as))
	for i, a := range as {
		out[i] = iw.Attack{Defenders: a.Defenders, Attackers: a.Attackers, Barrage: a.Barrage, GSP: a.GSP, Banzai: a.Banzai}
	}
	return out
}

// Report is side's report of the position in force.
func (Rules) Report(in templates.ReportFor) (*templates.SideReport, error) {
	v, err := viewOf(in)
	if err != nil {
		return nil, err
	}
	out := &templates.SideReport{Subject: v.subject(), Text: v.text(), PictureKey: v.pictureKey()}
	if name, body, ok := v.template(); ok {
		out.TemplateName, out.Template = name, body
	}
	if name, page, ok := v.sheet(in.Address); ok {
		out.SheetName, out.Sheet = name, page
	}
	b, err := json.MarshalIndent(v.jsonReport(), "", "  ")
	if err != nil {
		return nil, err
	}
	out.JSON = append(b, '\n')
	return out, nil
}

// Template is the order template of side's report, for the side awaited.
func (Rules) Template(in templates.ReportFor) (name, body string, ok bool) {
	v, err := viewOf(in)
	if err != nil {
		return "", "", false
	}
	return v.template()
}

func (v *view) subject() string {
	// The host heads every subject with the game's tag ("[attu r1]").
	if v.wait.Over() {
		return "Island War: final report"
	}
	if v.awaited() {
		return "Island War: " + Rules{}.Waiting(v.wait, hostSide(v.reader))
	}
	return "Island War: report, waiting for " + waitWords(v.wait)
}

// text is the body of the report.
func (v *view) text() string {
	var b strings.Builder
	title := sideTitle(v.reader)
	if v.umpire {
		title = "Umpire's"
	}
	fmt.Fprintf(&b, "Island War: %s, game %s. %s report.\n", v.e.S.Name, v.game.ID, title)
	if v.e.S.Invented {
		b.WriteString("(An invented scenario, not a published game's.)\n")
	}
	fmt.Fprintf(&b, "%s.\n\n", v.phaseWords())
	if lines := v.eventLines(); len(lines) > 0 {
		b.WriteString("What happened since your last report:\n")
		for _, l := range lines {
			b.WriteString(templates.Wrap("  ", "    ", l))
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if len(v.declared) > 0 {
		b.WriteString("Attacks declared, waiting for the defence (rule 4.1 c):\n")
		for k, a := range v.declared {
			b.WriteString(templates.Wrap("  ", "    ", v.declaredLine(k, a)))
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("The map (units by id, terrain by letter; columns across, rows down; hex id CCRR = column, row):\n")
	b.WriteString(v.asciiMap())
	b.WriteString("\n")
	if v.umpire {
		b.WriteString(v.unitTable(iw.US, "Units"))
		b.WriteString(v.unitTable(iw.Japan, "Units"))
	} else {
		b.WriteString(v.unitTable(v.reader, "Your units"))
		b.WriteString(v.unitTable(v.reader.Enemy(), "Enemy units"))
	}
	fmt.Fprintf(&b, "Ground support points left this Game-Turn: U.S. %d, Japanese %d (rule 9.14).\n", v.g.GSP[iw.US], v.g.GSP[iw.Japan])
	if due := v.reinforcements(); due != "" {
		b.WriteString(due)
	}
	if !v.wait.Over() {
		b.WriteString(v.victoryWords())
	}
	switch {
	case v.umpire:
		b.WriteString(v.umpireLines())
	case v.standing != nil:
		fmt.Fprintf(&b, "Your standing instructions: %s.\n", standingWords(*v.standing))
	default:
		b.WriteString("Your standing instructions: none; when you defend, the defaults of IW21 decide.\n")
	}
	b.WriteString("\n")
	switch {
	case v.wait.Over():
		fmt.Fprintf(&b, "The game is over: %s.\n", verdictWords(v.e.Verdict(v.g)))
	case v.awaited():
		fmt.Fprintf(&b, "The game waits for %s.", waitWords(v.wait))
		if d := templates.DeadlineText(v.game.Deadline, v.game.Zone); d != "" {
			fmt.Fprintf(&b, " Deadline: %s.", d)
		}
		b.WriteString(" The order template is attached.\n")
	default:
		fmt.Fprintf(&b, "The game waits for %s.\n", waitWords(v.wait))
	}
	return b.String()
}

// awaited reports whether the game waits for the reader's orders.
func (v *view) awaited() bool {
	return !v.umpire && v.wait.Open() && v.wait.Side == hostSide(v.reader)
}

// umpireLines are what the umpire alone reads: each side's standing
// instructions and the orders waiting for the defence.
func (v *view) umpireLines() string {
	var b strings.Builder
	for _, s := range []iw.Side{iw.US, iw.Japan} {
		if st, ok := v.all[s]; ok {
			fmt.Fprintf(&b, "%s standing instructions: %s.\n", sideTitle(s), standingWords(st))
		} else {
			fmt.Fprintf(&b, "%s standing instructions: none.\n", sideTitle(s))
		}
	}
	if v.pending != nil {
		for k, a := range v.pending.Attacks {
			fmt.Fprintf(&b, "Pending attack %d: %s", k+1, attackSummary(a))
			for _, ad := range a.Advance {
				fmt.Fprintf(&b, "; advance %s to %s", ad.Unit, ad.To)
			}
			if len(a.Removals) > 0 {
				fmt.Fprintf(&b, "; removals %s", strings.Join(a.Removals, ", "))
			}
			b.WriteString(".\n")
		}
		if n := len(v.pending.Own.Retreats); n > 0 {
			fmt.Fprintf(&b, "Pending retreat plans of the attacker: %d.\n", n)
		}
	}
	return b.String()
}

func (v *view) phaseWords() string {
	g := v.g
	switch g.Phase {
	case iw.PhaseSetup:
		return fmt.Sprintf("Set-up: the %s place their units (rule 3.0)", sideTitle(g.Phasing))
	case iw.PhaseOver:
		return "Over after " + turnOf(v.e.S, g.Turn)
	case iw.PhaseCombat:
		return fmt.Sprintf("%s, %s Combat Phase", turnOf(v.e.S, g.Turn), sideTitle(g.Phasing))
	}
	return fmt.Sprintf("%s, %s Movement Phase", turnOf(v.e.S, g.Turn), sideTitle(g.Phasing))
}

// eventLines words the events, one line each, phases left out.
func (v *view) eventLines() []string {
	var out []string
	for _, ev := range v.events {
		if l := eventLine(ev); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// unitTable lists a side's units: id, kind, values, where.
func (v *view) unitTable(s iw.Side, title string) string {
	var rows [][]string
	for i, u := range v.e.S.Units {
		if u.Side != s {
			continue
		}
		pc := v.g.Pieces[i]
		where := pc.Hex.String()
		switch pc.Where {
		case iw.Waiting:
			where = "to set up"
			if pc.Due > 0 {
				where = fmt.Sprintf("arrives Game-Turn %d", pc.Due)
			}
		case iw.Eliminated:
			where = "eliminated"
		}
		rows = append(rows, []string{"  " + u.ID, u.Kind, values(v.e, u), where})
	}
	return fmt.Sprintf("%s (%s):\n", title, sideTitle(s)) + strings.Join(templates.Columns(rows, nil), "\n") + "\n\n"
}

// values writes a unit's printed values as the counter does (rule 2.32).
func values(e *iw.Engine, u iw.Unit) string {
	if e.S.ClassOf(u) == iw.Artillery {
		return fmt.Sprintf("%d-%d-%d/%d-%d", u.Barrage, u.FPF, u.Range, u.Defense, u.Movement)
	}
	return fmt.Sprintf("%d-%d-%d", u.Attack, u.Defense, u.Movement)
}

// reinforcements lists the reinforcements still to come.
func (v *view) reinforcements() string {
	var lines []string
	for _, r := range v.e.S.Reinforcements {
		var ids []string
		for _, id := range r.Units {
			if pc, ok := v.e.Piece(v.g, id); ok && pc.Where == iw.Waiting {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		where := hexes(r.Entry)
		if r.Area != "" {
			where = "area " + r.Area
		}
		lines = append(lines, fmt.Sprintf("  Game-Turn %d, %s: %s, entering at %s", r.Turn, sideTitle(r.Side), strings.Join(ids, ", "), where))
	}
	if len(lines) == 0 {
		return ""
	}
	return "Reinforcements due:\n" + strings.Join(lines, "\n") + "\n"
}

// victoryWords says the scenario's victory conditions, the points each
// side holds now and the outcome they would give.
func (v *view) victoryWords() string {
	var b strings.Builder
	b.WriteString("Victory conditions (rule 3.0):\n")
	for _, sc := range v.e.S.Victory.Scores {
		b.WriteString(templates.Wrap("  ", "    ", scoreWords(sc)) + "\n")
	}
	for _, oc := range v.e.S.Victory.Outcomes {
		who := "A draw"
		if oc.Winner != "" {
			who = sideTitle(oc.Winner) + " " + oc.Level + " victory"
		}
		b.WriteString(templates.Wrap("  ", "    ", fmt.Sprintf("%s %s.", who, conditionWords(oc.When))) + "\n")
	}
	o := v.e.Verdict(v.g)
	fmt.Fprintf(&b, "Victory points now: U.S. %d, Japanese %d; if the game ended now: %s.\n", o.Points[iw.US], o.Points[iw.Japan], verdictWords(o))
	return b.String()
}

// scoreWords words one way of scoring points.
func scoreWords(sc iw.Score) string {
	who := sideTitle(sc.Side)
	pts := plural(sc.Points, "point")
	switch sc.Count {
	case iw.CountEliminated:
		what := "enemy unit"
		switch {
		case len(sc.Units) > 0:
			what = "of " + strings.Join(sc.Units, ", ")
		case sc.Class != "":
			what = "enemy " + string(sc.Class) + " unit"
		}
		return fmt.Sprintf("%s: %s for each %s eliminated.", who, pts, what)
	}
	var ids []string
	for _, h := range sc.Hexes {
		ids = append(ids, h.String())
	}
	where := "of " + strings.Join(ids, ", ")
	if sc.Area != "" {
		where = "hex of area " + sc.Area
		if len(ids) > 0 {
			where = "of " + strings.Join(ids, ", ") + " and each " + where
		}
	}
	held := "it occupies"
	if sc.Held == iw.HeldControl {
		held = "it controls (its unit the last in it)"
	}
	when := "at the end of the game"
	if sc.Turn != 0 {
		when = fmt.Sprintf("at the end of Game-Turn %d", sc.Turn)
	}
	return fmt.Sprintf("%s: %s for each %s %s %s.", who, pts, where, held, when)
}

// conditionWords words a condition on the points.
func conditionWords(c iw.Condition) string {
	var parts []string
	if c.Op != "" {
		l := "0"
		switch {
		case c.Side != "" && c.Minus != "":
			l = sideTitle(c.Side) + " points less " + sideTitle(c.Minus)
		case c.Side != "":
			l = sideTitle(c.Side) + " points"
		case c.Minus != "":
			l = "less " + sideTitle(c.Minus) + " points"
		}
		parts = append(parts, fmt.Sprintf("%s %s %d", l, c.Op, c.Value))
	}
	for _, a := range c.All {
		parts = append(parts, conditionWords(a))
	}
	if len(c.Any) > 0 {
		var any []string
		for _, a := range c.Any {
			any = append(any, conditionWords(a))
		}
		parts = append(parts, "("+strings.Join(any, " or ")+")")
	}
	if len(parts) == 0 {
		return "otherwise"
	}
	return "when " + strings.Join(parts, " and ")
}

// some counts things in words: "no FPF plan", "1 FPF plan", "2 FPF plans".
func some(n int, what string) string {
	if n == 0 {
		return "no " + what
	}
	return plural(n, what)
}

// standingWords sums up standing instructions.
func standingWords(s oi.Standing) string {
	var parts []string
	if s.Ask {
		parts = append(parts, "ask to see the attacks (a defence wait)")
	}
	parts = append(parts, some(len(s.Defence.FPF), "FPF plan"))
	parts = append(parts, some(len(s.Defence.Own.Retreats), "retreat plan"))
	if len(s.Defence.Own.Displace) > 0 {
		parts = append(parts, plural(len(s.Defence.Own.Displace), "displacement preference"))
	}
	if s.Defence.Advance {
		parts = append(parts, "advance after an attacker's A result")
	} else {
		parts = append(parts, "no advance")
	}
	return strings.Join(parts, "; ")
}

// pictureKey changes whenever the picture would: the units' hexes.
func (v *view) pictureKey() string {
	var b strings.Builder
	for _, pc := range v.g.Pieces {
		fmt.Fprintf(&b, "%s@%s;", pc.ID, pc.Hex)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return fmt.Sprintf("%x", sum[:8])
}

// jsonReport is report.json: the open position and the reader's own
// instructions.
func (v *view) jsonReport() any {
	type unit struct {
		ID, Side, Kind, Values, Where string
		Hex                           string `json:",omitempty"`
	}
	var units []unit
	for i, u := range v.e.S.Units {
		pc := v.g.Pieces[i]
		hx := ""
		if pc.Where == iw.OnMap {
			hx = pc.Hex.String()
		}
		units = append(units, unit{u.ID, string(u.Side), u.Kind, values(v.e, u), pc.Where, hx})
	}
	return struct {
		Game     string       `json:"game"`
		Scenario string       `json:"scenario"`
		Turn     int          `json:"turn"`
		Phase    iw.Phase     `json:"phase"`
		Phasing  iw.Side      `json:"phasing"`
		Waiting  string       `json:"waiting"`
		GSP      any          `json:"gsp"`
		Units    []unit       `json:"units"`
		Declared []iw.Attack  `json:"declared,omitempty"`
		Standing *oi.Standing `json:"standing,omitempty"`
		Events   []iw.Event   `json:"events,omitempty"`
	}{v.game.ID, v.e.S.Name, v.g.Turn, v.g.Phase, v.g.Phasing, waitWords(v.wait), v.g.GSP, units, v.declared, v.standing, v.events}
}

// sideUnits lists the ids of a side's units on the map, in scenario order.
func sideUnits(e *iw.Engine, g iw.Position, s iw.Side) []int {
	var out []int
	for i, pc := range g.Pieces {
		if pc.Where == iw.OnMap && e.S.Units[i].Side == s {
			out = append(out, i)
		}
	}
	return out
}

// turnOf names Game-Turn turn of the scenario's for a report's headline:
// "Game-Turn 3 of 8, 14 Sep 42", the date as the track writes it, or
// without one when the scenario gives none.
func turnOf(s *iw.Scenario, turn int) string {
	out := fmt.Sprintf("Game-Turn %d of %d", turn, s.GameTurns)
	if d := s.Dates[turn]; d != "" {
		out += ", " + d
	}
	return out
}
