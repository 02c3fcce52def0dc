package wind

import "fmt"

// Orders is one side's orders for one wait, decoded by package orders. The
// adjudicator judges them; it never sees YAML.
type Orders struct {
	Side Side
	Turn int
	// Wait is the kind of orders the file answers (its envelope's wait:).
	Wait    WaitKind
	Actions []Action
	// Decision answers the U.S. decision wait (rules 3.1, 3.2).
	Decision *Decision
	// Refit answers the U.S. refit wait (rules 9.1 to 9.4); a decision
	// calling a refit turn may carry it, and the game then does not wait
	// for it.
	Refit *Refit
	// Rearrange answers the Japanese refit wait (rules 9.5, 9.6).
	Rearrange *Rearrange
	// JPSetup answers the Japanese setup wait (rules 12.4, 14.0).
	JPSetup *JPSetup
	// Landing answers the U.S. landing wait (rules 12.5, 12.6).
	Landing *USLanding
	// Standing, when present, replaces the side's standing instructions
	// field by field (and per hex).
	Standing *Standing
}

// Decision is the U.S. choice at the start of a turn: refit or not (3.1),
// night or day (3.2).
type Decision struct {
	Refit bool
	Night bool
}

// Action is one activation (rule 3.5). Exactly one field is set.
type Action struct {
	Move     *Move
	Fire     *Fire
	Melee    *Melee
	Air      *AirStrikes
	Yamasaki *Yamasaki
}

// Action kinds, as Kind names them.
const (
	KindMove     = "move"
	KindFire     = "fire"
	KindMelee    = "melee"
	KindAir      = "air"
	KindYamasaki = "yamasaki"
)

// Kind names what the activation asks for, or "" when it asks for nothing
// or for more than one thing (rule 3.5: one action per activation).
func (a Action) Kind() string {
	kind := ""
	for _, k := range [...]struct {
		set  bool
		name string
	}{{a.Move != nil, KindMove}, {a.Fire != nil, KindFire}, {a.Melee != nil, KindMelee}, {a.Air != nil, KindAir}, {a.Yamasaki != nil, KindYamasaki}} {
		if k.set {
			if kind != "" {
				return ""
			}
			kind = k.name
		}
	}
	return kind
}

// Melee declares that units of one hex will melee the adjacent Target hex in
// the melee step (rule 8.2).
type Melee struct {
	Units  []string
	Target Hex
}

// AirStrikes is all of a side's airpower attacks for the turn, announced at once
// against hexes (rule 8.1.6).
type AirStrikes struct {
	Attacks []AirAttack
}

// AirAttack spends Factors airpower dice against a hex.
type AirAttack struct {
	Hex     Hex
	Factors int
}

// Yamasaki activates every Japanese unit in Hex with Colonel Yamasaki's
// effects (rule 11.3): each listed move may run through U.S. zones of
// control and into U.S.-held hexes, assaulting them.
type Yamasaki struct {
	Hex   Hex
	Moves []Move
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
// activation (-1 for the file as a whole). Step (-1 when not about one part)
// indexes the part of the activation at fault: a move's path, the units of
// a fire or a melee, the attacks of an air activation. Package orders turns
// these into line:col.
type Problem struct {
	Action int
	Step   int
	// Move is, for a Yamasaki activation, which of its moves the problem is
	// about, counting from 1 so that the zero value every other activation
	// leaves means the activation as a whole; Step then indexes that move's
	// path.
	Move int
	// Part names, for refit orders, the list the problem is about (one of
	// the Part constants); Step then indexes its entry, and Place counts
	// from 1 the placements of a swap (0: the swap as a whole).
	Part  string
	Place int
	Msg   string
	// Cause is, for a problem an earlier activation of the same file
	// brought about (its spotter moved, its hex filled, its unit already
	// used), that activation's index plus one; 0 when the activation is
	// at fault in the position as it was before the file.
	Cause int
}

func (p Problem) Error() string {
	if p.Action < 0 {
		return p.Msg
	}
	return fmt.Sprintf("activation %d: %s", p.Action+1, p.Msg)
}

// Answering is the wait the orders' envelope names, as written: their
// side, turn (0 when left out) and kind (empty when left out: the
// actions).
func (o Orders) Answering() Wait { return Wait{Turn: o.Turn, Side: o.Side, Kind: o.Wait} }
