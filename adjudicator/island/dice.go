package island

// Die says what a roll is for, so that a source of dice can be derived from
// a game's seed and each roll replayed, and so that tests force each roll.
type Die struct {
	Purpose string `json:"purpose"` // "combat": the only roll of the standard rules (rule 2.5)
	Turn    int    `json:"turn"`
	Side    Side   `json:"side"`   // the phasing side
	Combat  int    `json:"combat"` // the Combat Phase's count (Position.Combats)
	Attack  int    `json:"attack"` // the attack's index in the combat orders
}

// Dice gives the rolls of one six-sided die; Roll returns 1 to 6.
type Dice interface {
	Roll(d Die) int
}

// DiceFunc adapts a function to Dice.
type DiceFunc func(d Die) int

// Roll calls f.
func (f DiceFunc) Roll(d Die) int { return f(d) }
