package referee

// The words of every mail the service sends, one function per kind, each
// taking plain data. They stand in for the renderers of package templates
// and are kept in this one file so that moving to those is local. A
// report is built only from what its side may see: the side's View and
// the events VisibleEvents keeps for it, never the position itself.

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// timeLayout is how mails write times: in UTC, to the minute.
const timeLayout = "Mon 2 Jan 2006 15:04 UTC"

func when(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.UTC().Format(timeLayout)
}

// genericText is the one answer to a message that names no game its
// sender plays in, or does not authenticate. It is the same whatever the
// reason, so it tells nothing about any game.
func genericText() (subject, text string) {
	return "attu: your message was not accepted", `attu did not accept your message.

If you play a game here, check that:
  - you sent it from the address you registered for your side,
  - it goes to the game's own address (like attu+GAME@...) or carries the
    game's tag in the subject (like [attu GAME]),
  - your orders file carries your side's token from the welcome mail
    (token: ...), and so does a command that changes the game, on a line
    of its own outside any quoted text.

Send "help" to your game's address for the list of commands.

This answer is the same whatever the reason.
`
}

// problemsText lists the reasons a file was refused, one a line, with
// where in the file each lies.
func problemsText(ps []store.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}

// refusedText is the answer to an authenticated player's file that is not
// applied: every mistake found, each at its line and column.
func refusedText(ps []store.Problem) string {
	return "Your orders were not applied:\n\n" + problemsText(ps) +
		"\nNothing has changed in the game. Correct the file and send it again.\n"
}

// droppedText tells a player that held orders could not be applied once
// the settle window closed.
func droppedText(ps []store.Problem) string {
	return "The orders attu was holding for you were not applied, because the game changed while they waited:\n\n" +
		problemsText(ps) + "\nSend orders for what the game waits for now.\n"
}

// overText answers orders sent to a game that has ended.
func overText() string {
	return "This game is over and takes no more orders. Thank you for playing!\n" +
		"The final report, with the seed and the file to audit every die, was mailed to every player.\n"
}

// heldText tells a player that their file is held for the settle window.
func heldText(due time.Time, replaced bool) string {
	var b strings.Builder
	if replaced {
		b.WriteString("These orders replace the ones you sent before, which will not be applied.\n\n")
	}
	fmt.Fprintf(&b, "Your orders are legal and will be applied at %s.\n\n", when(due))
	b.WriteString("Until then you may send a corrected file, which replaces this one, or send \"go\"\n" +
		"(with your token) to apply it at once. A file with \"now: true\" in its envelope is\n" +
		"applied at once as well.\n")
	return b.String()
}

// reportInfo is what a side's report shows.
type reportInfo struct {
	Game, Name, Address string
	Side                adjudicator.Side
	View                *adjudicator.View
	Map                 *adjudicator.Map
	// Events are the events of the step that side may read.
	Events []adjudicator.Event
	// Notices are what happened besides the rules.
	Notices []string
	// Waiting says what the game waits for; Awaited whose orders.
	Waiting  string
	Awaited  adjudicator.Side
	Deadline time.Time
	Paused   bool
	Entry    uint64
	Head     string
	// Template is the order template for the side awaited.
	Template string
}

func reportSubject(d reportInfo) string {
	return fmt.Sprintf("turn %d (%s): %s", d.View.Turn, adjudicator.TurnDate(d.View.Turn), d.Waiting)
}

// turnReportText is a side's turn report.
func turnReportText(d reportInfo) string {
	var b strings.Builder
	v := d.View
	title := d.Game
	if d.Name != "" {
		title = d.Name + " (" + d.Game + ")"
	}
	fmt.Fprintf(&b, "War in the Wind: %s. Report for the %s.\n", title, whom(d.Side))
	fmt.Fprintf(&b, "Turn %d, %s, %s. Weather: %s. Airpower: U.S. %d, Japanese %d. U.S. casualties: %d.\n",
		v.Turn, adjudicator.TurnDate(v.Turn), dayNight(v.Night), v.Weather, v.Air.US, v.Air.JP, v.Casualties)
	if len(d.Notices) > 0 {
		b.WriteString("\nNotices:\n")
		for _, n := range d.Notices {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	if len(d.Events) > 0 {
		b.WriteString("\nWhat happened:\n")
		for _, e := range d.Events {
			fmt.Fprintf(&b, "  - %s\n", templates.EventText(e))
		}
	}
	b.WriteString("\n")
	b.WriteString(templates.RenderMap(d.Map, templates.MapOptions{Markers: markers(v)}))
	b.WriteString("\n")
	unitsText(&b, d.Side, v)
	b.WriteString("\n")
	b.WriteString(waitText(d))
	if d.Head != "" {
		fmt.Fprintf(&b, "\nRecord: log entry %d, chain head %s.\n", d.Entry, d.Head)
	}
	if d.Template != "" {
		fmt.Fprintf(&b, "\nYour order template (mail it back to %s):\n\n%s", d.Address, d.Template)
	}
	return b.String()
}

// waitText says what the game waits for and until when.
func waitText(d reportInfo) string {
	switch {
	case d.Paused:
		return fmt.Sprintf("The game is paused by the umpire; it waits for %s when it resumes.\n", d.Waiting)
	case d.Awaited == adjudicator.NoSide:
		return fmt.Sprintf("The game waits for nothing: %s.\n", d.Waiting)
	case d.Awaited == d.Side:
		return fmt.Sprintf("Your move: %s. Your orders are due by %s.\n", d.Waiting, when(d.Deadline))
	}
	return fmt.Sprintf("The game waits for %s from the %s player, due by %s.\n", d.Waiting, sideName(d.Awaited), when(d.Deadline))
}

func whom(s adjudicator.Side) string {
	if s == adjudicator.Umpire {
		return "umpire"
	}
	return sideName(s) + " player"
}

func dayNight(night bool) string {
	if night {
		return "night"
	}
	return "day"
}

// markers labels the hexes of the map from the view: "U2" for two U.S.
// counters, "J1" for a Japanese one, "?3" for anonymous counters.
func markers(v *adjudicator.View) map[adjudicator.Hex]string {
	count := map[adjudicator.Hex]map[string]int{}
	add := func(h adjudicator.Hex, k string, n int) {
		if h == 0 {
			return
		}
		if count[h] == nil {
			count[h] = map[string]int{}
		}
		count[h][k] += n
	}
	for _, u := range append(append([]adjudicator.UnitView(nil), v.Units...), v.Enemy...) {
		k := "U"
		if u.Side == adjudicator.JP {
			k = "J"
		}
		add(u.Hex, k, 1)
	}
	for _, h := range v.Hidden {
		add(h.Hex, "?", h.Count)
	}
	out := map[adjudicator.Hex]string{}
	for h, c := range count {
		for _, k := range []string{"U", "J", "?"} {
			if n := c[k]; n > 0 {
				out[h] = fmt.Sprintf("%s%d", k, min(n, 9))
				break
			}
		}
	}
	return out
}

// unitsText lists the units of the view.
func unitsText(b *strings.Builder, side adjudicator.Side, v *adjudicator.View) {
	own := "Your units"
	if side == adjudicator.Umpire {
		own = "All units"
	}
	var on []adjudicator.UnitView
	for _, u := range v.Units {
		if u.Hex != 0 {
			on = append(on, u)
		}
	}
	fmt.Fprintf(b, "%s on the map (%d):\n", own, len(on))
	for _, u := range on {
		b.WriteString(unitLine(u, side == adjudicator.Umpire))
	}
	if len(v.Boxes) > 0 {
		b.WriteString("Off the map:\n")
		for _, x := range v.Boxes {
			fmt.Fprintf(b, "  %-3s %-15s %2d units, %2d steps\n", x.Side, x.Box, x.Units, x.Steps)
		}
	}
	if len(v.Enemy) > 0 {
		b.WriteString("Enemy units you can see:\n")
		for _, u := range v.Enemy {
			b.WriteString(unitLine(u, false))
		}
	}
	if len(v.Hidden) > 0 {
		b.WriteString("Anonymous Japanese counters:")
		for _, h := range v.Hidden {
			fmt.Fprintf(b, " %s×%d", h.Hex, h.Count)
		}
		b.WriteString("\n")
	}
	b.WriteString("Victory hexes:")
	for _, vh := range v.VictoryHexes {
		held := "empty"
		if vh.Held != adjudicator.NoSide {
			held = vh.Held.String()
		}
		fmt.Fprintf(b, " %s %s (%s);", vh.Hex, vh.Name, held)
	}
	b.WriteString("\n")
	if len(v.ClearedZones) > 0 {
		fmt.Fprintf(b, "Cleared zones: %s\n", strings.Join(v.ClearedZones, ", "))
	}
}

func unitLine(u adjudicator.UnitView, side bool) string {
	var flags []string
	if side {
		flags = append(flags, u.Side.String())
	}
	flags = append(flags, u.Kind.String(), plural(u.Steps, "step"))
	if u.FaceDown {
		flags = append(flags, "face down")
	}
	if u.Acted {
		flags = append(flags, "acted")
	}
	return fmt.Sprintf("  %-8s %s  %s\n", u.ID, u.Hex, strings.Join(flags, ", "))
}

// templateText is a commented order file for what st waits for from side,
// listing the side's units on the map from its view.
func templateText(game string, st *adjudicator.State, side adjudicator.Side) string {
	w := st.Wait()
	var b strings.Builder
	fmt.Fprintf(&b, "# Orders for %s. Edit, keep the envelope, paste your token.\n", st.WaitText())
	fmt.Fprintf(&b, "game: %s\nside: %s\nturn: %d\nwait: %s\ntoken: PASTE-YOUR-TOKEN  # from the welcome mail\n", game, side, w.Turn, w.Kind)
	switch w.Kind {
	case adjudicator.WaitUSDecision:
		b.WriteString("# refit: true for a refit turn (rule 3.1); night: true for a night turn (rule 3.2).\n")
		b.WriteString("# A refit decision may carry its refit orders (refit: under the decision's lines).\n")
		b.WriteString("decision: {refit: false, night: false}\n")
	case adjudicator.WaitUSRefit:
		b.WriteString("# Refit (rule 9): restore: [{unit, steps}] in priority order (9.1), land: [{unit, zone}] (9.2),\n")
		b.WriteString("# independents: [unit] (9.3), depots: [engineer] (9.4). These are the default orders:\n")
		b.WriteString(waitDefaults[w.Kind].body(st))
	case adjudicator.WaitJPRefit:
		b.WriteString("# Refit (rules 9.5, 9.6): hide: [unit], move: [{unit, to}], swap: [{hex, place: [{unit, to}]}].\n")
		b.WriteString("# These are the default orders:\n")
		b.WriteString(waitDefaults[w.Kind].body(st))
	case adjudicator.WaitActions:
		b.WriteString("# Activations, carried out in order (rule 3.5); each unit acts once:\n")
		b.WriteString("#   - move: {unit: ID, path: [HEX, HEX]}\n")
		b.WriteString("#   - fire: {units: [ID, ID], target: HEX}      (spotter: ID for artillery)\n")
		b.WriteString("#   - melee: {units: [ID], target: HEX}\n")
		b.WriteString("#   - air: [{hex: HEX, factors: N}]             (every air attack at once)\n")
		b.WriteString("# Your units on the map:\n")
		for _, u := range st.View(side).Units {
			if u.Hex != 0 {
				fmt.Fprintf(&b, "#   %-8s at %s, %s\n", u.ID, u.Hex, plural(u.Steps, "step"))
			}
		}
		b.WriteString("actions: []\n")
	}
	b.WriteString("# now: true applies the file at once in a game with a settle window.\n")
	return b.String()
}

// finalInfo is what the final report adds to a report.
type finalInfo struct {
	reportInfo
	Result, Seed, Commitment, Luck, Bundle, DB string
}

// finalText is the last report: the result, the seed revealed, the luck of
// the dice, and how to check every die.
func finalText(f finalInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The game is over: %s\n\n", f.Result)
	fmt.Fprintf(&b, "The dice seed, secret until now: %s\n", f.Seed)
	fmt.Fprintf(&b, "Its commitment, mailed at the start:  %s\n\n", f.Commitment)
	fmt.Fprintf(&b, "To check every die and every order yourself, run\n\n    attu audit %s\n\n", f.Bundle)
	fmt.Fprintf(&b, "on the attached file (the umpire can write it again with: attu export -db %s %s).\n\n", f.DB, f.Game)
	b.WriteString("Dice luck over the whole game:\n")
	b.WriteString(f.Luck)
	b.WriteString("\n")
	d := f.reportInfo
	d.Template = ""
	b.WriteString(turnReportText(d))
	return b.String()
}

func luckText(l *store.Luck) string {
	var buf bytes.Buffer
	l.WriteText(&buf)
	return buf.String()
}

// welcomeInfo is what a side's welcome mail says.
type welcomeInfo struct {
	Game, Name, Address string
	Side                adjudicator.Side
	Token, Commitment   string
	Settle              time.Duration
	// Players are the sides' addresses, for the umpire's welcome.
	Players []store.Player
	Report  reportInfo
}

// welcomeText is the mail that carries a side's secret token, once.
func welcomeText(w welcomeInfo) string {
	var b strings.Builder
	title := w.Game
	if w.Name != "" {
		title = w.Name + " (" + w.Game + ")"
	}
	fmt.Fprintf(&b, "Welcome to %s: you are the %s.\n\n", title, whom(w.Side))
	fmt.Fprintf(&b, "Your secret token: %s\n\n", w.Token)
	b.WriteString("Put it in every orders file (token: ...) and in every command that changes the\n" +
		"game. Keep this mail: attu stores only a hash of the token and will not send it again.\n\n")
	fmt.Fprintf(&b, "Mail orders and commands to %s, or keep %s in the subject.\n", w.Address, tag(w.Game))
	b.WriteString("Send \"help\" for the commands.\n\n")
	fmt.Fprintf(&b, "Dice commitment: %s\n", w.Commitment)
	b.WriteString("This is the SHA-256 of the secret seed every die comes from. The seed is revealed\n" +
		"when the game ends, so that anyone can check every roll (attu audit).\n")
	if w.Settle > 0 {
		fmt.Fprintf(&b, "\nThis game holds each orders file for %s before applying it, so that you may\n"+
			"send a corrected one in the meantime.\n", w.Settle)
	}
	if w.Side == adjudicator.Umpire {
		b.WriteString("\nPlayers:\n")
		for _, p := range w.Players {
			if p.Side != adjudicator.Umpire {
				fmt.Fprintf(&b, "  %-8s %s\n", sideName(p.Side), p.Address)
			}
		}
	}
	b.WriteString("\n")
	b.WriteString(turnReportText(w.Report))
	return b.String()
}

// replacedText tells a player that the umpire gave their side to someone
// else.
func replacedText(side adjudicator.Side) string {
	return fmt.Sprintf("The umpire has given the %s side to another player. Your token no longer works.\n"+
		"Thank you for playing.\n", sideName(side))
}

// reminderText reminds the awaited player of the deadline.
func reminderText(d reportInfo) string {
	return fmt.Sprintf("Reminder: %s is due by %s.\n\n"+
		"If no orders arrive by then, the default orders for this wait are applied\n"+
		"and the missed deadline is recorded.\n\n%s", d.Waiting, when(d.Deadline), d.Template)
}

// noticeText is a short notice about the game.
func noticeText(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// commandHelp is one command as the help lists it.
type commandHelp struct{ Usage, What string }

// helpText lists the commands a side may send.
func helpText(game, address string, cmds []commandHelp) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Commands for game %s: send one to %s (or with %s in the subject),\n", game, address, tag(game))
	b.WriteString("as the subject or the first line of the body. Commands marked * change the game:\n" +
		"put your token on a line of its own, token: ..., outside any quoted text.\n\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-22s %s\n", c.Usage, c.What)
	}
	b.WriteString("\nOrders go as a .yaml attachment or as YAML in the body; each report ends with a template.\n")
	return b.String()
}

// statusInfo is what "status" answers.
type statusInfo struct {
	Game, Name string
	Status     store.Status
	Waiting    string
	Awaited    adjudicator.Side
	Deadline   time.Time
	Late       map[adjudicator.Side]int
	Absent     map[adjudicator.Side]time.Time
	Held       *time.Time // the asker's held file, when there is one
	Takeback   string
	Result     string
}

func statusText(d statusInfo) string {
	var b strings.Builder
	title := d.Game
	if d.Name != "" {
		title = d.Name + " (" + d.Game + ")"
	}
	fmt.Fprintf(&b, "Game %s: %s.\n", title, d.Status)
	switch {
	case d.Status == store.Ended:
		fmt.Fprintf(&b, "Result: %s\n", d.Result)
	case d.Awaited != adjudicator.NoSide:
		fmt.Fprintf(&b, "Waiting for %s from the %s player, due by %s.\n", d.Waiting, sideName(d.Awaited), when(d.Deadline))
	default:
		fmt.Fprintf(&b, "Waiting for %s.\n", d.Waiting)
	}
	for _, s := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		fmt.Fprintf(&b, "%s player: %d deadlines missed", sideName(s), d.Late[s])
		if t, ok := d.Absent[s]; ok {
			fmt.Fprintf(&b, ", away until %s", when(t))
		}
		b.WriteString(".\n")
	}
	if d.Held != nil {
		fmt.Fprintf(&b, "Your orders are held; they will be applied at %s.\n", when(*d.Held))
	}
	if d.Takeback != "" {
		b.WriteString(d.Takeback + "\n")
	}
	return b.String()
}

// logText is the answer to "log": the record, a line an entry.
func logText(game string, lines []string) string {
	return fmt.Sprintf("The record of game %s as you may see it:\n\n%s\n", game, strings.Join(lines, "\n"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
