package adjudicator

import "fmt"

// Waits: the kinds of orders a game can wait for (DESIGN section 3).
const (
	WaitActions = "actions"
)

// Orders is one side's orders for one wait, decoded by package orders. The
// adjudicator judges them; it never sees YAML.
type Orders struct {
	Side    Side
	Turn    int
	Wait    string
	Actions []Action
}

// Action is one activation (rule 3.5). Exactly one field is set.
type Action struct {
	Move *Move
	Fire *Fire
}

// Fire is a ranged attack (rule 8.1): one or more units firing together at a
// hex, optionally with a spotter calling in artillery (8.1.4) and, when the
// hex mixes face-up and face-down units, the target unit (8.0).
type Fire struct {
	Units      []string
	Target     Hex
	Spotter    string
	TargetUnit string
}

// Move moves a unit along an explicit path: the hexes it enters, in order,
// starting next to its hex (rule 5.0).
type Move struct {
	Unit string
	Path []Hex
}

// Problem is something illegal in a side's orders. Action is the index of the
// activation (-1 for the file as a whole), Step the index into a move's path
// (-1 when not about a step). Package orders turns these into line:col.
type Problem struct {
	Action int
	Step   int
	Msg    string
}

func (p Problem) Error() string {
	if p.Action < 0 {
		return p.Msg
	}
	return fmt.Sprintf("activation %d: %s", p.Action+1, p.Msg)
}

// Event is something that happened, in words, for the reports and the
// record. Seen is the only side (besides the umpire) that may read it;
// NoSide means both sides may.
type Event struct {
	Kind  string `json:"kind"`
	Text  string `json:"text"`
	Side  Side   `json:"side,omitempty"` // who acted
	Seen  Side   `json:"seen,omitempty"`
	Unit  string `json:"unit,omitempty"`
	Hexes []Hex  `json:"hexes,omitempty"`
}
