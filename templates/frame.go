package templates

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
)

// Game is what a side's report says about the game beyond the position.
type Game struct {
	ID         string         // as players write it in their orders
	Name       string         // an optional longer name
	Deadline   time.Time      // when the current wait ends; zero when there is none
	Zone       *time.Location // the reader's time zone, when the game knows it, for a second reading of the deadline
	Head       string         // the hash of the game's log after the last entry
	Commitment string         // the SHA-256 of the dice seed
	// StandIn lists the sides attu's stand-in plays, so that a report
	// to a person facing it can say what it did.
	StandIn []adjudicator.Side
}

// ReportFor is what the game service asks a system's report of one side to
// be made of: the game, the position in force, the side, the events since
// its last report (each the JSON of one of the system's events, all of
// them: the system keeps what the side may read), whether the game has
// ended (a game ended by a concession or by the umpire awaits nothing,
// whatever its position's last wait), and the game's address, which an
// order sheet mails its file to.
type ReportFor struct {
	Game     Game
	Position adjudicator.Position
	Side     adjudicator.Side
	Events   []json.RawMessage
	Ended    bool
	Address  string
}

// SideReport is one side's report as a system words it: the subject and
// body of the mail, the order template for the side awaited (empty name
// for none), report.json, the order sheet (empty name for none), and a key
// that changes when the picture of the map would.
type SideReport struct {
	Subject, Text          string
	TemplateName, Template string
	JSON                   []byte
	SheetName              string
	Sheet                  []byte
	PictureKey             string
}

//go:embed tmpl/*.tmpl
var tmplFS embed.FS

// tmpl holds the frame's templates (the replies, a tournament's mails),
// parsed once.
var tmpl = template.Must(template.New("").Funcs(Funcs()).ParseFS(tmplFS, "tmpl/*.tmpl"))

// Funcs are the functions every template may call, the frame's and a
// system's alike: wrap text to the width of a mail, name sides, write
// deadlines, durations and plurals.
func Funcs() template.FuncMap {
	fm := template.FuncMap{
		"wrap": Wrap,
		"inc":  func(i int) int { return i + 1 },
		"join": strings.Join,
		"args": func(v ...any) []any { return v },
	}
	for k, v := range replyFuncs {
		fm[k] = v
	}
	return fm
}

// Execute runs the named template of set t on data. The templates are part
// of the program and their data is built by it: a failure is a bug, caught
// by the golden tests, and panics.
func Execute(t *template.Template, name string, data any) string {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("templates: %s: %v", name, err))
	}
	return b.String()
}

// execute runs the named frame template on data.
func execute(name string, data any) string { return Execute(tmpl, name, data) }

// MaxWidth is the widest line any map may print, so that reports read well
// in a fixed-width font.
const MaxWidth = 100

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

// DeadlineText writes a time as the replies do: in UTC, and in each other
// zone given (the reader's, the umpire's); empty for the zero time.
func DeadlineText(t time.Time, zones ...*time.Location) string {
	if t.IsZero() {
		return ""
	}
	var local []string
	seen := map[string]bool{"UTC": true}
	for _, z := range zones {
		if z != nil && !seen[z.String()] {
			seen[z.String()] = true
			local = append(local, fmt.Sprintf("%s in %s", t.In(z).Format("Mon 2 Jan 15:04 MST"), z))
		}
	}
	s := t.UTC().Format("Mon 2 Jan 2006 15:04 MST")
	if len(local) > 0 {
		s += " (" + strings.Join(local, "; ") + ")"
	}
	return s
}

// SideTitle names a side at the start of a title.
func SideTitle(s adjudicator.Side) string {
	switch s {
	case adjudicator.US:
		return "U.S."
	case adjudicator.JP:
		return "Japanese"
	case adjudicator.Umpire:
		return "Umpire"
	}
	return "Server"
}

// Replay is a game as its replay page shows it, for a system to draw: its
// record, each log entry with the position after it, and its dice. The
// game service makes it from the game's export (store/referee.Replay),
// when the seed is revealed and the umpire's view is no secret.
type Replay struct {
	Game       string
	Name       string // the game's longer name, "" when it has none
	Scenario   string // "" for the campaign
	Commitment string
	Seed       string // hex; "" when not revealed, and the page says it cannot check the dice
	Head       string
	Entries    []ReplayEntry
	Dice       []ReplayDie
	// LuckText is the dice-luck summary in words (store.Luck.WriteText)
	// when the record is known sound, "" when it is not.
	LuckText string
}

// ReplayEntry is one log entry of a Replay.
type ReplayEntry struct {
	JSON string // the entry's canonical JSON, which Hash is the SHA-256 of: the page checks the chain with it
	Hash string
	Entry
	DiceFrom uint64 // the dice it rolled: DiceFrom up to DiceTo, excluded
	DiceTo   uint64
	Events   []json.RawMessage // each the JSON of one of the system's events
	// Position is the position after the entry, replayed from the
	// opening position; never nil. Broken says why the replay of this
	// entry failed (an export altered by hand); Position is then the last
	// position reached, as are those of the entries after it.
	Position adjudicator.Position
	Broken   string
}

// ReplayDie is one die of the dice log, as recorded; the page reads it
// in this JSON.
type ReplayDie struct {
	Seq   uint64 `json:"n"` // from 1
	Entry uint64 `json:"e"` // the log entry that rolled it
	adjudicator.Die
	Faces int   `json:"faces,omitempty"` // the die's faces, none for a d10 (store.Roll)
	Raw   []int `json:"r"`               // the bytes read from the seed's stream
	Face  int   `json:"f"`
}
