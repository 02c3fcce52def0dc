package wind

import (
	"cmp"
	"embed"
	"fmt"
	"github.com/attu-pbem/attu/templates"
	"slices"
	"strings"
	"text/template"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Game is what a report says about the game beyond the position
// (templates.Game).
type Game = templates.Game

// Report is one side's report: its inputs, filtered for the side.
type Report struct {
	Game Game
	Map  *wind.Map // the map of the game; nil means the built-in map
	// View and Outlook are what the side sees of the position
	// (State.View, State.Outlook for the same side).
	View    *wind.View
	Outlook *wind.Outlook
	Events  []wind.Event // what happened since the side's last report, in order, filtered for the side
	// Solitaire is true in a game of rule 13, whose procedures move
	// the Japanese where they apply.
	Solitaire bool
}

//go:embed tmpl/*.tmpl
var tmplFS embed.FS

// tmpl holds War in the Wind's templates (reports, order templates, the
// maps' legends) with the frame's functions, parsed once.
var tmpl = template.Must(template.New("").Funcs(templates.Funcs()).Funcs(template.FuncMap{
	// For the order templates.
	"comments":   func(head string, items []string) string { return strings.Join(commentList(head, items), "\n") },
	"hexRanges":  hexRanges,
	"fireItem":   fireItem,
	"trimPrefix": strings.TrimPrefix,
	"date":       wind.TurnDate,
	// For report.tmpl.
	"casualtyLimit":   func() int { return wind.CasualtyLimit },
	"dayNight":        dayNight,
	"waitPhrase":      WaitPhrase,
	"waitPhraseTo":    WaitPhraseTo,
	"setupRule":       setupRule,
	"komandorskiTurn": func() int { return wind.KomandorskiTurn },
	"revealed":        func(b bool) string { return map[bool]string{true: "revealed", false: "face down"}[b] },
	"lastTurn": func(k *wind.KomandorskiView) int {
		return wind.Komandorski{Effect: k.Effect, Delay: k.Delay}.LastTurn()
	},
}).ParseFS(tmplFS, "tmpl/*.tmpl"))

// execute runs the named template on data.
func execute(name string, data any) string { return templates.Execute(tmpl, name, data) }

func (r *Report) gameMap() *wind.Map { return cmp.Or(r.Map, wind.BuiltinMap()) }

// awaited reports whether the game waits for this report's reader.
func (r *Report) awaited() bool {
	w := r.Outlook.Wait
	return w.Open() && w.Side == r.View.Side
}

// Text returns the report as the body of a mail: plain text within
// MaxWidth columns.
func (r *Report) Text() string {
	name, body, ok := r.OrderTemplate()
	return r.text(name, body, ok, r.wordedSteps())
}

// text renders the report around its order template, made once, with
// its events worded once (wordedSteps).
func (r *Report) text(name, body string, awaited bool, steps []wordedStep) string {
	return execute("report.tmpl", r.textData(name, body, awaited, steps))
}

// wordedStep is a step of the reader's events (groupSteps), each event
// with its words (EventText): the text and the JSON document both show
// them, and wording an event runs its template.
type wordedStep struct {
	Step
	Words []string
}

func (r *Report) wordedSteps() []wordedStep {
	var out []wordedStep
	for _, st := range groupSteps(r.Events) {
		w := wordedStep{Step: st}
		for _, ev := range st.Events {
			w.Words = append(w.Words, EventText(ev))
		}
		out = append(out, w)
	}
	return out
}

// Artefacts is a report's words: the mail's text, the order template
// attached to it (for the side awaited) and the JSON document.
type Artefacts struct {
	Text         string
	TemplateName string // the order template's file name, empty when the reader is not awaited
	Template     string
	JSON         []byte
}

// RenderWords makes the report's text, order template and JSON at once,
// the order template and the words of its events only once. The picture
// (PNG) is drawn apart: drawing the pictures of several reports one after
// the other reuses one picture's buffers, where drawing them side by side
// takes fresh megabytes for each.
func (r *Report) RenderWords() (*Artefacts, error) {
	a := &Artefacts{}
	name, body, ok := r.OrderTemplate()
	if ok {
		a.TemplateName, a.Template = name, body
	}
	steps := r.wordedSteps()
	a.Text = r.text(name, body, ok, steps)
	var err error
	if a.JSON, err = r.json(steps); err != nil {
		return nil, err
	}
	return a, nil
}

// reportText is what report.tmpl lays out: the report, whose sentences
// the template words, and the parts made here (steps, maps, tables), in
// lines of at most MaxWidth columns.
type reportText struct {
	*Report
	US, JP, Umpire bool // who reads it
	// Awaited: the game waits for the reader; Deadline is when.
	Awaited     bool
	Deadline    string
	Steps       []stepText
	Island      string
	CloseUps    []closeUpText
	Own         []string
	OffMap      []string
	Enemy       []string
	Hidden      []string // the hexes of hidden counters, HiddenCount of them
	HiddenCount int
	Boxes       []string
	Victory     []string
	Cleared     []string
	Standing    []standingText
	// TemplateName and Template are the order template attached, when the
	// reader is awaited; Says what it lists and what it does as it stands.
	TemplateName, Template string
	Says                   [2]string
	// ServerSide says, to a player facing the stand-in or rule 13, what
	// the server's side did that the reader saw; empty otherwise.
	ServerSide string
}

// serverSide words what the side the server plays, the stand-in's or
// rule 13's (which moves the Japanese of a solitaire game where it
// applies), did since the reader's last report, as far as the reader saw
// it: the events it was told, counted, so that nothing hidden shows.
func (r *Report) serverSide() string {
	me := r.View.Side
	if me != adjudicator.US && me != adjudicator.JP {
		return ""
	}
	enemy := me.Enemy()
	standIn := slices.Contains(r.Game.StandIn, enemy)
	solo := r.Solitaire && enemy == adjudicator.JP
	if !standIn && !solo {
		return ""
	}
	acts, procs := 0, 0
	for _, ev := range r.Events {
		switch {
		case ev.Side == enemy && activationKinds[ev.Kind]:
			acts++
		case solo && soloKinds[ev.Kind]:
			procs++
		}
	}
	who := "The " + templates.SideTitle(enemy) + " side is played by attu's stand-in"
	switch {
	case standIn && solo:
		who += ", within what rule 13's solitaire procedures leave to it"
	case solo:
		who = "Rule 13's solitaire procedures move the Japanese where they apply, and the Japanese player the rest"
	}
	did := fmt.Sprintf("since your last report you saw %s of its", templates.Plural(acts, "activation"))
	if acts == 0 {
		did = "since your last report it made no activation you could see"
	}
	if solo && procs == 0 {
		did += "; rule 13 did nothing you could see"
	} else if solo {
		did += fmt.Sprintf(", and rule 13 at work %s (ambush checks, placements, the last stand)", templates.Plural(procs, "time"))
	}
	if acts+procs > 0 {
		did += "; each is told above, in its step"
	}
	return templates.Wrap("", "", who+": "+did+".")
}

// soloKinds are the events of rule 13's procedures.
var soloKinds = map[wind.EventKind]bool{
	wind.EventSoloCount: true, wind.EventAdHoc: true, wind.EventAmbush: true, wind.EventAmbushWithdraw: true,
	wind.EventLastStand: true,
}

type stepText struct {
	Title string
	Lines []string
}

type closeUpText struct {
	Why string
	Map string
}

type standingText struct {
	Title string
	Lines []string
}

// templateSays names the waits that have an order template, and says
// what each template lists and what it does when mailed back unchanged.
var templateSays = map[adjudicator.WaitKind][2]string{
	wind.WaitActions:    {"it lists what each of your units may do now", "does nothing"},
	wind.WaitUSDecision: {"it asks whether this is a refit turn and whether it is fought by night", "does nothing"},
	wind.WaitUSRefit:    {"it lists what you may order in this refit turn", "does nothing"},
	wind.WaitJPRefit:    {"it lists what you may order in this refit turn", "does nothing"},
	wind.WaitJPSetup: {"it lists where each of your units may set up",
		"sets up your units as it lists them, as the game would at the deadline"},
	wind.WaitUSLanding: {"it lists where each of your units may land",
		"lands your units as it lists them, as the game would at the deadline"},
}

func (r *Report) textData(name, body string, awaited bool, steps []wordedStep) reportText {
	v := r.View
	d := reportText{Report: r, US: v.Side == adjudicator.US, JP: v.Side == adjudicator.JP, Umpire: v.Side == adjudicator.Umpire,
		Awaited: r.awaited(), Deadline: r.deadline()}
	for _, st := range steps {
		t := stepText{Title: st.Title}
		for _, w := range st.Words {
			t.Lines = append(t.Lines, templates.WrapLines(w, "  ", "    ")...)
		}
		d.Steps = append(d.Steps, t)
	}
	m := r.gameMap()
	mk := r.markers()
	d.Island = RenderMap(m, MapOptions{Markers: mk.island})
	for i, a := range r.closeUps() {
		d.CloseUps = append(d.CloseUps, closeUpText{
			Why: templates.Wrap("", "  ", fmt.Sprintf("Close-up %d. %s", i+1, a.why)),
			Map: RenderAround(m, a.center, closeUpRadius, MapOptions{Markers: mk.close, NoLegend: true}),
		})
	}
	d.Own = r.ownUnits()
	d.OffMap = r.offMap()
	d.Enemy = r.enemyUnits()
	d.Hidden, d.HiddenCount = r.hiddenCounters()
	d.Boxes = r.enemyBoxes()
	d.Victory = r.victoryHexes()
	d.Cleared = r.clearedZones()
	d.Standing = r.standing()
	d.ServerSide = r.serverSide()
	if awaited {
		d.TemplateName, d.Template, d.Says = name, body, templateSays[r.Outlook.Wait.Kind]
	}
	return d
}

// WaitPhrase says what a game waits for in the words reports and replies
// use: "the U.S. actions of turn 3 (May 13)".
func WaitPhrase(w adjudicator.Wait) string {
	date := wind.TurnDate(w.Turn)
	switch w.Kind {
	case wind.WaitUSDecision:
		return fmt.Sprintf("the U.S. decision of turn %d (%s)", w.Turn, date)
	case wind.WaitActions:
		return fmt.Sprintf("the %s actions of turn %d (%s)", templates.SideTitle(w.Side), w.Turn, date)
	case wind.WaitUSRefit, wind.WaitJPRefit:
		return fmt.Sprintf("the %s refit orders of turn %d (%s)", templates.SideTitle(w.Side), w.Turn, date)
	case wind.WaitJPSetup:
		return "the Japanese setup"
	case wind.WaitUSLanding:
		return "the U.S. landing"
	case adjudicator.WaitEnded:
		return "nothing more: the game is over"
	}
	return "nothing yet: the game has not begun"
}

// WaitPhraseTo is WaitPhrase as reader may read it: "the U.S. (turn 3,
// May 13)" for a wait veiled to it (adjudicator.Wait.Veiled), whatever
// the U.S. is deciding or doing.
func WaitPhraseTo(w adjudicator.Wait, reader adjudicator.Side) string {
	if wind.Veiled(w, reader) {
		return fmt.Sprintf("the %s (turn %d, %s)", templates.SideTitle(w.Side), w.Turn, wind.TurnDate(w.Turn))
	}
	return WaitPhrase(w)
}

// deadline writes the deadline in UTC and, when the reader's zone is
// known, in it.
func (r *Report) deadline() string {
	return templates.DeadlineText(r.Game.Deadline, r.Game.Zone)
}

func dayNight(night bool) string {
	if night {
		return "night"
	}
	return "day"
}

// ReportSubject names a report by its turn and what the game waits for.
func ReportSubject(r *Report) string {
	return fmt.Sprintf("turn %d (%s): %s", r.View.Turn, wind.TurnDate(r.View.Turn), WaitPhrase(r.Outlook.Wait))
}

// Held says what an orders file answering wait w held, to follow the
// acceptance's sentence (templates.Accepted.Held): its activations, or
// that an actions file had none; nothing for the other waits.
func Held(o wind.Orders, w adjudicator.WaitKind) string {
	switch {
	case len(o.Actions) > 0:
		return ", " + templates.Plural(len(o.Actions), "activation")
	case w == wind.WaitActions:
		return ", no activations"
	}
	return ""
}
