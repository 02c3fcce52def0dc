package adjudicator

import "fmt"

// Die describes one roll the rules ask for: why it is rolled, who rolls
// it, for which unit or hex, for a to-hit roll what it needs, and who may
// see it. The dice source logs it with the value. Every field is typed, so
// that a dice log can be sorted and shown without reading words.
type Die struct {
	Purpose DiePurpose `json:"purpose"`
	// Side is the side that rolls it at the table; NoSide for a die
	// neither player owns (the weather).
	Side Side   `json:"side,omitempty"`
	Unit string `json:"unit,omitempty"`
	Hex  Hex    `json:"hex,omitempty"`
	// Need is the lowest natural face that scores a hit, for a to-hit
	// roll; 0 for every other die. It lets a dice log say how lucky a roll was without knowing the
	// situation it was rolled in.
	Need int `json:"need,omitempty"`
	// Seen is who may see this die while the game runs, besides the
	// umpire, as at the table: in War in the Wind the Japanese roll some
	// dice out of the U.S. player's sight; a die rolled in the open is
	// AudienceBoth. The zero value is the umpire alone, so a die that does
	// not say stays secret.
	Seen Audience `json:"seen"`
}

// DiePurpose is why a die is rolled: the table or check of the rules that
// reads it. Its values are the names the dice log records.
type DiePurpose string

// Audience is who may see something while the game runs, besides the
// umpire, who sees everything. Its zero value is the umpire alone, so that
// a die rolled without saying who sees it is kept secret: visibility fails
// closed.
type Audience uint8

// Audiences.
const (
	AudienceUmpire Audience = 0                       // the umpire alone
	AudienceUS     Audience = 1 << 0                  // the U.S. player
	AudienceJP     Audience = 1 << 1                  // the Japanese player
	AudienceBoth            = AudienceUS | AudienceJP // both players: rolled in the open
)

var audienceNames = [...]string{"umpire", "us", "jp", "both"}

func (a Audience) String() string {
	if int(a) < len(audienceNames) {
		return audienceNames[a]
	}
	return "audience?"
}

// MarshalText writes umpire, us, jp or both.
func (a Audience) MarshalText() ([]byte, error) {
	if int(a) >= len(audienceNames) {
		return nil, fmt.Errorf("audience %d: want umpire, us, jp or both", uint8(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads umpire, us, jp or both.
func (a *Audience) UnmarshalText(b []byte) error {
	for i, n := range audienceNames {
		if n == string(b) {
			*a = Audience(i)
			return nil
		}
	}
	return fmt.Errorf("audience %q: want umpire, us, jp or both", b)
}

// Dice is where the rules get their dice. Roll returns a face of the
// system's die, from 1 to its number of faces (a face of 0 reads as the
// highest, as War in the Wind's rule 1.2 reads a d10). The server derives
// dice from the game's committed seed; tests and rules cases force them.
type Dice interface {
	Roll(d Die) int
}
