package island

// The orders a player gives, as typed values. A mail turn needs at most two
// waits per Player-Turn: the phasing player's Orders (movement and combat
// together, since movement rolls no dice), and, only when the defender
// asked to see the attacks first, his Defence for that phase. A defender
// who does not ask gives his Defence in advance as standing instructions
// with his own orders; whatever it leaves out is decided by the defaults of
// IW21, which never change.

// Orders are the phasing player's orders for one Player-Turn.
type Orders struct {
	Moves   []Move   `json:"moves,omitempty"`
	Attacks []Attack `json:"attacks,omitempty"`
	// Own holds the phasing player's choices for his own units' retreats
	// and displacements after A results.
	Own Instructions `json:"own,omitzero"`
}

// Move is one unit's whole move (rule 5.0): the hexes it enters in order,
// not counting the hex it starts in. A reinforcement's first hex is its
// entry hex (IW16).
type Move struct {
	Unit string `json:"unit"`
	Path []Hex  `json:"path"`
}

// Attack is one combat (rules 4.1 B, 7.0), in the order they are resolved.
type Attack struct {
	// Defenders are the enemy units attacked; every one is next to every
	// unit of Attackers (rule 7.23).
	Defenders []string `json:"defenders"`
	// Attackers are the phasing units attacking from adjacent hexes,
	// artillery among them with its Barrage Strength (rules 7.15, 8.31).
	Attackers []string `json:"attackers,omitempty"`
	// Barrage is artillery attacking from non-adjacent hexes (rule 8.11).
	Barrage []string `json:"barrage,omitempty"`
	// GSP is the Ground Support Points added (rule 9.0).
	GSP    int  `json:"gsp,omitempty"`
	Banzai bool `json:"banzai,omitempty"` // rule 10.0; Japanese only
	// Advance is which victorious units advance where after a D or De
	// result (rule 7.9): each stops in its To hex on a path of retreat.
	Advance []Advance `json:"advance,omitempty"`
	// Removals is the Japanese order of Banzai removals (rule 10.12); the
	// engine still takes the classes in the rule's order.
	Removals []string `json:"removals,omitempty"`
}

// Advance moves one unit along a path of retreat to To (rule 7.92).
type Advance struct {
	Unit string `json:"unit"`
	To   Hex    `json:"to"`
}

// Instructions are a side's choices for the retreats and displacements of
// its own units, decided when they happen.
type Instructions struct {
	// Retreats per unit id.
	Retreats map[string]RetreatPlan `json:"retreats,omitempty"`
	// Order is the order in which this side's units of one combat retreat
	// (IW15); units not named follow in id order.
	Order []string `json:"order,omitempty"`
	// Displace per unit id: the hexes it prefers when displaced, best first.
	Displace map[string][]Hex `json:"displace,omitempty"`
}

// RetreatPlan is how one unit would like to retreat: the first of Paths
// that is legal and among the best the rules allow, otherwise the legal
// path ending nearest Toward, otherwise the default of IW21.
type RetreatPlan struct {
	Paths  [][]Hex `json:"paths,omitempty"`
	Toward *Hex    `json:"toward,omitempty"`
}

// Defence is the non-phasing player's choices for one enemy Combat Phase.
type Defence struct {
	// FPF is tried in order for each attack: every entry that protects one
	// of the attack's defenders and whose condition holds commits what it
	// can (rules 8.4, 9.0).
	FPF []FPFPlan `json:"fpf,omitempty"`
	// Own holds the retreats and displacements of the defender's units.
	Own Instructions `json:"own,omitzero"`
	// Advance, after an A result or Ae, moves each eligible defender into
	// the combat hex of the attacker it was next to when it is free
	// (rule 7.91, IW11); otherwise the defender never advances.
	Advance bool `json:"advance,omitempty"`
}

// FPFPlan commits final protective fire to a unit when it is attacked.
type FPFPlan struct {
	Protect   string   `json:"protect"`             // the defending unit's id
	Artillery []string `json:"artillery,omitempty"` // guns to fire, each if eligible
	GSP       int      `json:"gsp,omitempty"`       // ground support points, as many as are left
	// MinDifferential, if set, commits only when the differential before
	// FPF is at least this much.
	MinDifferential *int `json:"min_differential,omitempty"`
	// OnlyBanzai commits only against a Banzai attack.
	OnlyBanzai bool `json:"only_banzai,omitempty"`
}
