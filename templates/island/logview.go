package island

import (
	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/templates"
)

// LogParts words each log entry's events for side; every event is open
// (IW26), so each entry is the side's to read whole.
func (Rules) LogParts(items []templates.LogItem, side adjudicator.Side, _ adjudicator.Wait) ([]templates.LogPart, error) {
	var out []templates.LogPart
	for _, it := range items {
		evs, err := decodeEvents(it.Events)
		if err != nil {
			return nil, err
		}
		part := templates.LogPart{Seq: it.Seq}
		for _, ev := range evs {
			if l := eventLine(ev); l != "" {
				part.Events = append(part.Events, l)
			}
		}
		out = append(out, part)
	}
	return out, nil
}
