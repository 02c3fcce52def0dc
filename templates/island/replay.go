package island

import (
	"bytes"
	"fmt"
	"html/template"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/templates"
)

// replayPage is the replay page's template: one self-contained HTML file
// with no script, a section per log entry with its events in words, its
// six-sided dice and the map after it.
var replayPage = template.Must(template.New("replay").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Island War replay: {{.Game}}</title>
<style>
body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}
pre{font-size:12px;background:#f6f4ec;padding:.5em;overflow-x:auto}
.dice span{display:inline-block;border:1px solid #555;border-radius:3px;width:1.4em;text-align:center;margin-right:.2em}
.broken{color:#b00}
</style></head><body>
<h1>Island War: {{.Game}}{{if .Name}} ({{.Name}}){{end}}</h1>
<p>Scenario: {{.Scenario}}. Dice commitment (SHA-256 of the seed): <code>{{.Commitment}}</code>.
{{if .Seed}}Seed: <code>{{.Seed}}</code> (every die below can be derived again from it; <code>attu audit</code> does).{{else}}The seed is not revealed yet, so the dice cannot be checked.{{end}}
Log head: <code>{{.Head}}</code>.</p>
{{if .Luck}}<pre>{{.Luck}}</pre>{{end}}
{{range .Entries}}<section id="e{{.N}}">
<h2>Entry {{.N}}: {{.Title}}</h2>
<p>Hash <code>{{.Hash}}</code></p>
{{if .Broken}}<p class="broken">This entry does not replay: {{.Broken}}</p>{{end}}
{{if .Events}}<ul>{{range .Events}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Dice}}<p class="dice">Dice (d6): {{range .Dice}}<span title="die {{.Seq}}">{{.Face}}</span>{{end}}</p>{{end}}
<pre>{{.Map}}</pre>
</section>
{{end}}</body></html>
`))

// replayEntry is one section of the page.
type replayEntry struct {
	N           uint64
	Title, Hash string
	Broken, Map string
	Events      []string
	Dice        []templates.ReplayDie
}

// ReplayPage draws the replay page of a game from what the game service
// replayed of its export: a section per entry with its events, dice and
// the map after it.
func (Rules) ReplayPage(r *templates.Replay) ([]byte, error) {
	data := struct {
		Game, Name, Scenario, Commitment, Seed, Head, Luck string
		Entries                                            []replayEntry
	}{Game: r.Game, Name: r.Name, Scenario: r.Scenario, Commitment: r.Commitment, Seed: r.Seed, Head: r.Head, Luck: r.LuckText}
	for i, en := range r.Entries {
		n := uint64(i + 1)
		re := replayEntry{N: n, Hash: en.Hash, Broken: en.Broken, Title: entryTitle(en.Entry)}
		evs, err := decodeEvents(en.Events)
		if err != nil {
			return nil, err
		}
		for _, ev := range evs {
			if l := eventLine(ev); l != "" {
				re.Events = append(re.Events, l)
			}
		}
		for _, d := range r.Dice {
			if d.Seq >= en.DiceFrom && d.Seq < en.DiceTo {
				re.Dice = append(re.Dice, d)
			}
		}
		if pos, ok := en.Position.(*Position); ok && pos.e != nil {
			v := &view{e: pos.e, g: pos.Game, reader: iw.US}
			re.Map = v.asciiMap()
		}
		data.Entries = append(data.Entries, re)
	}
	var b bytes.Buffer
	if err := replayPage.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("replay page: %w", err)
	}
	return b.Bytes(), nil
}

func entryTitle(e templates.Entry) string {
	switch e.Kind {
	case "orders":
		return fmt.Sprintf("%s %s, Game-Turn %d", hostTitle(e.Side), e.Wait, e.Turn)
	case "end":
		return "the game ends: " + e.Note
	case "create":
		return "the game is created"
	}
	if e.Note != "" {
		return e.Kind + ": " + e.Note
	}
	return e.Kind
}
