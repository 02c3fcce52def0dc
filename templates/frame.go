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
