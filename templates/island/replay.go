package island

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/templates"
)

// The page's template, style sheet and script.
var (
	//go:embed replay/page.html
	replayHTML string
	//go:embed replay/replay.css
	replayCSS string
	//go:embed replay/replay.js
	replayJS string

	replayPage = template.Must(template.New("replay").Parse(replayHTML))
)

// replayData is what the page's script checks (templates.ReplayScript):
// the commitment, the seed, the head, the log entries as hashed and the
// dice as recorded.
type replayData struct {
	Commitment string                `json:"commitment"`
	Seed       string                `json:"seed"`
	Head       string                `json:"head"`
	Entries    []replayLink          `json:"entries"`
	Dice       []templates.ReplayDie `json:"dice"`
}

// replayLink is one log entry: its canonical JSON and the hash the
// export lists for it.
type replayLink struct {
	JSON string `json:"json"`
	Hash string `json:"hash"`
}

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
// the map after it. The page is packed (templates.PackedPage) and its
// script re-derives every d6 from the revealed seed, checks the seed
// against the commitment and the hash chain up to the head, says so in
// one line at the top and marks each die that does not match.
func (Rules) ReplayPage(r *templates.Replay) ([]byte, error) {
	data := struct {
		Game, Name, Scenario, Commitment, Seed, Head, Luck string
		Entries                                            []replayEntry
		Data                                               *replayData
	}{Game: r.Game, Name: r.Name, Scenario: r.Scenario, Commitment: r.Commitment, Seed: r.Seed, Head: r.Head, Luck: r.LuckText,
		Data: &replayData{Commitment: r.Commitment, Seed: r.Seed, Head: r.Head, Entries: []replayLink{}, Dice: r.Dice}}
	if data.Data.Dice == nil {
		data.Data.Dice = []templates.ReplayDie{}
	}
	for i, en := range r.Entries {
		n := uint64(i + 1)
		data.Data.Entries = append(data.Data.Entries, replayLink{JSON: en.JSON, Hash: en.Hash})
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
	title := "Island War replay: " + r.Game
	if r.Name != "" {
		title = r.Name + " — " + title
	}
	return templates.PackedPage(title, replayCSS, b.Bytes(), templates.ReplayScript(replayJS)), nil
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
