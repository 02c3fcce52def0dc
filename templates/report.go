package templates

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
)

// Turn reports.
//
// A Report is everything one side's report is made of: the game's record
// (id, deadline, chain head, commitment), the side's View and Outlook, and
// the events the side may read since its last report, already filtered for
// it. It never holds a game position: the fog of war is applied
// before anything reaches this package, so nothing here can leak what the
// side may not see. From one Report come four artefacts that say the same
// thing: the text of the mail (Text), the order template for the side
// awaited (OrderTemplate), a picture of the map (PNG) and a JSON document
// for programs (JSON).

// Game is what a report says about the game beyond the position.
type Game struct {
	// ID is the game's id, as players write it in their orders; Name an
	// optional longer name.
	ID   string
	Name string
	// Deadline is when the current wait ends; zero when there is none.
	Deadline time.Time
	// Zone is the reader's time zone, when the game knows it, for a
	// second reading of the deadline.
	Zone *time.Location
	// Head is the hash of the game's log after the last entry, and
	// Commitment the SHA-256 of the dice seed.
	Head       string
	Commitment string
}

// Report is one side's report: its inputs, filtered for the side.
type Report struct {
	Game Game
	// Map is the map of the game; nil means the built-in map.
	Map *adjudicator.Map
	// View and Outlook are what the side sees of the position
	// (State.View, State.Outlook for the same side).
	View    *adjudicator.View
	Outlook *adjudicator.Outlook
	// Events is what happened since the side's last report, in order,
	// already filtered for the side.
	Events []adjudicator.Event
}

//go:embed tmpl/*.tmpl
var tmplFS embed.FS

// tmpl holds every embedded template, parsed once.
var tmpl = template.Must(template.New("").Funcs(template.FuncMap{
	"wrap":   wrapText,
	"indent": indentLines,
	"inc":    func(i int) int { return i + 1 },
}).Funcs(replyFuncs).Funcs(tournamentFuncs).ParseFS(tmplFS, "tmpl/*.tmpl"))

// execute runs the named template on data.
func execute(name string, data any) string {
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name, data); err != nil {
		// The templates are part of the program and their data is built
		// here: a failure is a bug, caught by the golden tests.
		panic(fmt.Sprintf("templates: %s: %v", name, err))
	}
	return b.String()
}

func (r *Report) gameMap() *adjudicator.Map {
	if r.Map == nil {
		return adjudicator.BuiltinMap()
	}
	return r.Map
}

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

// Artefacts is everything a report consists of: the mail's text, the order
// template attached to it (for the side awaited), the picture of the map
// and the JSON document.
type Artefacts struct {
	Text string
	// TemplateName is the order template's file name, empty when the
	// reader is not awaited.
	TemplateName string
	Template     string
	PNG          []byte
	JSON         []byte
}

// Render makes every artefact of the report at once, the order template
// only once for the text and the attachment.
func (r *Report) Render() (*Artefacts, error) {
	a, err := r.RenderWords()
	if err != nil {
		return nil, err
	}
	if a.PNG, err = r.PNG(); err != nil {
		return nil, err
	}
	return a, nil
}

// RenderWords is Render without the picture (Artefacts.PNG is nil), for
// a caller that draws the pictures apart: drawing the pictures of several
// reports one after the other reuses one picture's buffers, where
// drawing them side by side takes fresh megabytes for each.
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

// reportText is what report.tmpl lays out; every part is already in
// lines of at most MaxWidth columns.
type reportText struct {
	Title     string
	Header    []string
	Steps     []stepText
	Island    string
	Markers   []string
	CloseUps  []closeUpText
	CloseKey  string
	Own       []string
	OwnTitle  string
	OffMap    []string
	Enemy     []string
	EnemyHead string
	Hidden    []string
	Boxes     []string
	Track     []string
	Victory   []string
	Cleared   []string
	Chits     []string
	Heroes    []string
	Standing  []standingText
	// StandingIntro says what standing instructions are and how to
	// change them.
	StandingIntro []string
	Record        []string
	Orders        []string
	Template      string
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

func (r *Report) textData(name, body string, awaited bool, steps []wordedStep) reportText {
	v := r.View
	d := reportText{}
	d.Title = fmt.Sprintf("attu report: game %s%s, %s", r.Game.ID, nameSuffix(r.Game.Name), readerName(v.Side))
	d.Header = r.header()
	for _, st := range steps {
		t := stepText{Title: st.Title}
		for _, w := range st.Words {
			t.Lines = append(t.Lines, wrapLines(w, "  ", "    ")...)
		}
		d.Steps = append(d.Steps, t)
	}
	m := r.gameMap()
	mk := r.markers()
	d.Island = RenderMap(m, MapOptions{Markers: mk.island})
	d.Markers = markerLegend(v.Side)
	for i, a := range r.closeUps() {
		d.CloseUps = append(d.CloseUps, closeUpText{
			Why: strings.Join(wrapLines(fmt.Sprintf("Close-up %d. %s", i+1, a.why), "", "  "), "\n"),
			Map: RenderAround(m, a.center, closeUpRadius, MapOptions{Markers: mk.close, NoLegend: true}),
		})
	}
	if len(d.CloseUps) > 0 {
		d.CloseKey = closeUpKey()
	}
	d.OwnTitle, d.Own = r.ownUnits()
	d.OffMap = r.offMap()
	d.EnemyHead, d.Enemy = r.enemyUnits()
	d.Hidden = r.hiddenCounters()
	d.Boxes = r.enemyBoxes()
	d.Track = r.casualtyTrack()
	d.Victory = r.victoryHexes()
	d.Cleared = r.clearedZones()
	d.Chits = r.komandorski()
	d.Heroes = r.heroes()
	d.Standing = r.standing()
	intro := "These answer, in advance, the questions the rules put to you in the middle of a fight. To change any, add a standing: section to any orders file, naming only what changes; the template shows how."
	if v.Side == adjudicator.Umpire {
		intro = "Each side's answers, given in advance, to the questions the rules put to a player in the middle of a fight; each side changes its own with a standing: section in any orders file."
	}
	d.StandingIntro = wrapLines(intro, "", "")
	d.Record = r.record()
	if awaited {
		what := "it lists what each of your units may do now"
		unchanged := "does nothing"
		switch r.Outlook.Wait.Kind {
		case adjudicator.WaitUSDecision:
			what = "it asks whether this is a refit turn and whether it is fought by night"
		case adjudicator.WaitUSRefit, adjudicator.WaitJPRefit:
			what = "it lists what you may order in this refit turn"
		case adjudicator.WaitJPSetup:
			what = "it lists where each of your units may set up"
			unchanged = "sets up your units as it lists them, as the game would at the deadline"
		case adjudicator.WaitUSLanding:
			what = "it lists where each of your units may land"
			unchanged = "lands your units as it lists them, as the game would at the deadline"
		}
		d.Orders = wrapLines(fmt.Sprintf(
			"The game waits for your orders. The template below is attached as %s: %s. Edit it (or a copy of it), put your token in, and mail it back%s. Unchanged it is accepted and %s.",
			name, what, r.beforeDeadline(), unchanged), "", "")
		d.Template = body
	} else {
		d.Orders = wrapLines(r.nothingNeeded(), "", "")
	}
	return d
}

func nameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return " (" + name + ")"
}

// readerName says whose report it is.
func readerName(s adjudicator.Side) string {
	switch s {
	case adjudicator.US:
		return "report for the U.S. player"
	case adjudicator.JP:
		return "report for the Japanese player"
	case adjudicator.Umpire:
		return "the umpire's report (everything)"
	}
	return "public report"
}

// header is the turn, its date, day or night, the weather, the airpower,
// what the game waits for and the deadline.
func (r *Report) header() []string {
	v, o := r.View, r.Outlook
	var lines []string
	add := func(s string) { lines = append(lines, wrapLines(s, "", "  ")...) }
	date := adjudicator.TurnDate(v.Turn)
	switch o.Wait.Kind {
	case adjudicator.WaitUSRefit, adjudicator.WaitJPRefit:
		add(fmt.Sprintf("Turn %d, %s: a refit turn (rule 9): no fighting. Weather: %s (rule 3.3).", v.Turn, date, v.Weather))
		if o.Wait.Kind == adjudicator.WaitUSRefit {
			add(fmt.Sprintf("The loss recovery roll gave the U.S. %s to restore; the casualty track is back at 0 (rule 9.1).", Plural(v.RefitSteps, "step")))
		}
	case adjudicator.WaitUSDecision:
		add(fmt.Sprintf("Turn %d, %s: the U.S. decides first whether it is a refit turn and whether it is fought by night (rules 3.1, 3.2).", v.Turn, date))
		add(fmt.Sprintf("Weather: %s, as last rolled; this turn's weather and airpower are rolled once the U.S. has decided (rules 3.3, 3.4).", v.Weather))
	default:
		add(fmt.Sprintf("Turn %d, %s, %s. Weather: %s (rule 3.3).", v.Turn, date, dayNight(v.Night), v.Weather))
		add(fmt.Sprintf("Airpower this turn (rule 3.4): U.S. %s, Japanese %s; factors not announced this turn are lost.",
			Plural(v.Air.US, "factor"), Plural(v.Air.JP, "factor")))
	}
	switch {
	case o.Wait.Kind == adjudicator.WaitEnded:
		add(endText(o, v.Turn))
	case o.Wait.Kind == adjudicator.WaitNone:
		add("The game has not begun.")
	case r.awaited():
		add("The game waits for " + WaitPhrase(o.Wait) + ": your orders.")
	default:
		add("The game waits for " + WaitPhrase(o.Wait) + "; nothing is needed from you now.")
	}
	if dl := r.deadline(); dl != "" && o.Wait.Kind != adjudicator.WaitEnded {
		add("Deadline: " + dl + ".")
	}
	return lines
}

// endText says how the game ended (rule 3.8).
func endText(o *adjudicator.Outlook, turn int) string {
	s := fmt.Sprintf("The game is over after turn %d (%s)", turn, adjudicator.TurnDate(turn))
	if o.Winner == adjudicator.NoSide {
		return s + "."
	}
	return fmt.Sprintf("%s: %s victory, %s.", s, sideTitle(o.Winner), o.Victory)
}

// WaitPhrase says what a game waits for in the words reports and replies
// use: "the U.S. actions of turn 3 (May 13)".
func WaitPhrase(w adjudicator.Wait) string {
	date := adjudicator.TurnDate(w.Turn)
	switch w.Kind {
	case adjudicator.WaitUSDecision:
		return fmt.Sprintf("the U.S. decision of turn %d (%s)", w.Turn, date)
	case adjudicator.WaitActions:
		return fmt.Sprintf("the %s actions of turn %d (%s)", sideTitle(w.Side), w.Turn, date)
	case adjudicator.WaitUSRefit, adjudicator.WaitJPRefit:
		return fmt.Sprintf("the %s refit orders of turn %d (%s)", sideTitle(w.Side), w.Turn, date)
	case adjudicator.WaitJPSetup:
		return "the Japanese setup"
	case adjudicator.WaitUSLanding:
		return "the U.S. landing"
	case adjudicator.WaitEnded:
		return "nothing more: the game is over"
	}
	return "nothing yet: the game has not begun"
}

// deadline writes the deadline in UTC and, when the reader's zone is
// known, in it.
func (r *Report) deadline() string {
	return DeadlineText(r.Game.Deadline, r.Game.Zone)
}

// DeadlineText writes a time as the replies do: in UTC, and in zone when
// it is another.
func DeadlineText(t time.Time, zone *time.Location) string {
	if t.IsZero() {
		return ""
	}
	s := t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	if zone != nil && zone != time.UTC {
		s += fmt.Sprintf(" (%s in %s)", t.In(zone).Format("Mon 2 Jan 15:04 MST"), zone)
	}
	return s
}

func (r *Report) beforeDeadline() string {
	if dl := r.deadline(); dl != "" {
		return " before " + dl
	}
	return ""
}

// nothingNeeded says, for a reader not awaited, what comes next.
func (r *Report) nothingNeeded() string {
	o := r.Outlook
	switch {
	case r.View.Side == adjudicator.Umpire:
		return "The umpire gives no orders in play. Every side's report is built from its own view; this one shows all."
	case o.Wait.Kind == adjudicator.WaitEnded:
		return "The game is over: no more orders. The final report brings the revealed dice seed and the command that checks every die."
	case o.Wait.Kind == adjudicator.WaitNone:
		return "Nothing is needed from you now."
	}
	return "Nothing is needed from you now: the game waits for " + WaitPhrase(o.Wait) +
		". You will get a report as soon as that is resolved, with a template when your orders are wanted."
}

func dayNight(night bool) string {
	if night {
		return "night"
	}
	return "day"
}

// Plural writes n and what, with an s unless n is 1 ("1 round", "3
// rounds").
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if what == "hex" {
		return fmt.Sprintf("%d hexes", n)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
