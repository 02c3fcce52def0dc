package wind

import (
	"encoding/json"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
)

// ReportFormat names the version of the JSON report (report.json). A
// change that could break a reader gets a new version.
const ReportFormat = "attu-report/1"

// ReportJSON is a report as a JSON document, report.json: the same content
// as the text, for programs and tests. Its fields:
//
//   - format: ReportFormat.
//   - game: id, name, deadline (RFC 3339, UTC; absent when there is none),
//     time_zone (the reader's, when known), chain_head and commitment.
//   - side: the reader (us, jp or umpire); turn, date ("May 13"), night,
//     weather (while the U.S. decides, the previous turn's).
//   - wait: what the game waits for (adjudicator.Wait: turn, side, kind;
//     kind is jp-setup, us-landing, us-decision, us-refit, jp-refit,
//     actions or ended, absent before the game begins), wait_text the
//     same in words; awaited is true when that is the reader.
//   - steps: what happened since the reader's last report, grouped as in
//     the text: each a title and its events (kind, text, side, hexes).
//   - fought: the hexes where the events tell of fighting; close_ups: the
//     centres of the close-ups (radius 3) the text draws.
//   - view: the reader's wind.View, as State.View returns it.
//   - outlook: the reader's wind.Outlook: standing instructions,
//     heroes, winner, unit states and, for the side awaited, what it may
//     order: each unit's options in actions (moves {to, mp, path}, melee
//     hexes, fire {target, distance, los, sees, spotters, target_units}),
//     the refit options in a refit turn, the setup options at a setup
//     wait.
//   - order_template: the file name of the order template attached, when
//     the reader is awaited (its text is in the mail and the attachment).
type ReportJSON struct {
	Format        string            `json:"format"`
	Game          GameJSON          `json:"game"`
	Side          adjudicator.Side  `json:"side"`
	Turn          int               `json:"turn"`
	Date          string            `json:"date"`
	Night         bool              `json:"night"`
	Weather       wind.Weather      `json:"weather"`
	Wait          adjudicator.Wait  `json:"wait"`
	WaitText      string            `json:"wait_text"`
	Awaited       bool              `json:"awaited"`
	Steps         []StepJSON        `json:"steps"`
	Fought        []adjudicator.Hex `json:"fought"`
	CloseUps      []adjudicator.Hex `json:"close_ups"`
	View          *wind.View        `json:"view"`
	Outlook       *wind.Outlook     `json:"outlook"`
	OrderTemplate string            `json:"order_template,omitempty"`
}

// GameJSON is the game's record in a JSON report.
type GameJSON struct {
	ID         string `json:"id"`
	Name       string `json:"name,omitempty"`
	Deadline   string `json:"deadline,omitempty"`
	TimeZone   string `json:"time_zone,omitempty"`
	ChainHead  string `json:"chain_head,omitempty"`
	Commitment string `json:"commitment,omitempty"`
}

// StepJSON is one step of what happened.
type StepJSON struct {
	Title  string      `json:"title"`
	Events []EventJSON `json:"events"`
}

// EventJSON is one event as the reader may read it.
type EventJSON struct {
	Kind  string            `json:"kind"`
	Text  string            `json:"text"`
	Side  adjudicator.Side  `json:"side,omitempty"`
	Hexes []adjudicator.Hex `json:"hexes,omitempty"`
}

func (r *Report) document(steps []wordedStep) *ReportJSON {
	v := r.View
	d := &ReportJSON{
		Format: ReportFormat,
		Game: GameJSON{
			ID: r.Game.ID, Name: r.Game.Name,
			ChainHead: r.Game.Head, Commitment: r.Game.Commitment,
		},
		Side: v.Side, Turn: v.Turn, Date: wind.TurnDate(v.Turn), Night: v.Night, Weather: v.Weather,
		Wait: r.Outlook.Wait, WaitText: r.Outlook.WaitText, Awaited: r.awaited(),
		Steps:    []StepJSON{},
		Fought:   append([]adjudicator.Hex{}, foughtHexes(r.Events)...), // [] rather than null
		CloseUps: []adjudicator.Hex{},
		View:     v, Outlook: r.Outlook,
	}
	if !r.Game.Deadline.IsZero() {
		d.Game.Deadline = r.Game.Deadline.UTC().Format(time.RFC3339)
	}
	if r.Game.Zone != nil {
		d.Game.TimeZone = r.Game.Zone.String()
	}
	for _, st := range steps {
		s := StepJSON{Title: st.Title}
		for i, ev := range st.Events {
			s.Events = append(s.Events, EventJSON{Kind: string(ev.Kind), Text: st.Words[i], Side: ev.Side, Hexes: eventHexes(ev)})
		}
		d.Steps = append(d.Steps, s)
	}
	for _, a := range r.closeUps() {
		d.CloseUps = append(d.CloseUps, a.center)
	}
	if r.hasOrderTemplate() {
		d.OrderTemplate = OrderTemplateName(r.Outlook.Wait.Turn, r.View.Side, r.Outlook.Wait.Kind)
	}
	return d
}

// JSON returns the report as an indented JSON document (report.json).
func (r *Report) JSON() ([]byte, error) { return r.json(r.wordedSteps()) }

func (r *Report) json(steps []wordedStep) ([]byte, error) {
	b, err := json.MarshalIndent(r.document(steps), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// eventHexes returns the hexes an event is about, for a report: its hexes,
// or the hex attacked when it names no other.
func eventHexes(ev wind.Event) []adjudicator.Hex {
	if len(ev.Hexes) == 0 && ev.Target != 0 {
		return []adjudicator.Hex{ev.Target}
	}
	return ev.Hexes
}
