package island

// Event is one thing that happened, for reports and replays. Kind says
// which of the optional parts is set.
type Event struct {
	Kind   string        `json:"kind"`
	Turn   int           `json:"turn"`
	Side   Side          `json:"side,omitempty"`
	Phase  Phase         `json:"phase,omitempty"`
	Unit   string        `json:"unit,omitempty"`
	Path   []Hex         `json:"path,omitempty"` // a move
	Combat *CombatReport `json:"combat,omitempty"`
	Note   string        `json:"note,omitempty"`
}

// The kinds of Event.
const (
	EvPhase    = "phase"  // a phase begins: Turn, Side, Phase
	EvSetup    = "setup"  // a unit is placed: Unit, Path[0]
	EvMove     = "move"   // a unit moves: Unit, Path
	EvEnter    = "enter"  // a reinforcement enters: Unit, Path
	EvCombat   = "combat" // an attack is resolved: Combat
	EvSkip     = "skip"   // an attack is not made (IW20): Combat.Index, Note
	EvGameOver = "game-over"
)

// CombatReport is the whole of one attack.
type CombatReport struct {
	Index     int      `json:"index"` // in the combat orders
	Attackers []string `json:"attackers,omitempty"`
	Barrage   []string `json:"barrage,omitempty"`
	Defenders []string `json:"defenders"`
	GSP       int      `json:"gsp,omitempty"`
	FPF       []string `json:"fpf,omitempty"` // artillery giving FPF
	FPFGSP    int      `json:"fpf_gsp,omitempty"`
	Banzai    bool     `json:"banzai,omitempty"`
	// ArtilleryOnly: no non-artillery attacker (rules 8.15, 8.45, 8.62).
	ArtilleryOnly bool   `json:"artillery_only,omitempty"`
	AttackTotal   int    `json:"attack_total"`
	DefenseTotal  int    `json:"defense_total"`
	Differential  int    `json:"differential"`
	Line          Line   `json:"line"`
	Column        int    `json:"column"`
	Die           int    `json:"die"`
	Result        Result `json:"result"`
	// Void: the result has no effect (a D1 in an artillery-only attack,
	// rule 8.15).
	Void       bool      `json:"void,omitempty"`
	Retreats   []Retreat `json:"retreats,omitempty"`
	Eliminated []string  `json:"eliminated,omitempty"`
	Removals   []string  `json:"removals,omitempty"` // Banzai (rule 10.0)
	Advances   []Advance `json:"advances,omitempty"`
	Unmade     []Advance `json:"unmade,omitempty"`  // ordered advances the result did not allow
	Dropped    []string  `json:"dropped,omitempty"` // displaced barrage artillery (rule 7.82)
}

// Retreat is one unit's retreat: the hexes it entered, whether it was
// eliminated at the end of them (rule 7.74) or instead of a displacement
// (rule 7.82), and the units it displaced on the way.
type Retreat struct {
	Unit       string         `json:"unit"`
	Path       []Hex          `json:"path,omitempty"`
	Eliminated bool           `json:"eliminated,omitempty"`
	Displaced  []Displacement `json:"displaced,omitempty"`
}

// Displacement is one unit pushed one hex by a friend's retreat (rule 7.81).
type Displacement struct {
	Unit string `json:"unit"`
	From Hex    `json:"from"`
	To   Hex    `json:"to"`
}
