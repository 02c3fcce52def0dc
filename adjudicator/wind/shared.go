package wind

import "github.com/attu-pbem/attu/adjudicator"

// The vocabulary War in the Wind shares with the host and every other
// system (package adjudicator), under the names the rules use.
type (
	Side       = adjudicator.Side
	Hex        = adjudicator.Hex
	Direction  = adjudicator.Direction
	Die        = adjudicator.Die
	DiePurpose = adjudicator.DiePurpose
	Dice       = adjudicator.Dice
	Audience   = adjudicator.Audience
	Wait       = adjudicator.Wait
	WaitKind   = adjudicator.WaitKind
)

// Sides.
const (
	NoSide = adjudicator.NoSide
	US     = adjudicator.US
	JP     = adjudicator.JP
	Umpire = adjudicator.Umpire
)

// Audiences.
const (
	AudienceUmpire = adjudicator.AudienceUmpire
	AudienceUS     = adjudicator.AudienceUS
	AudienceJP     = adjudicator.AudienceJP
	AudienceBoth   = adjudicator.AudienceBoth
)

// Directions on the grid.
const (
	North     = adjudicator.North
	NorthEast = adjudicator.NorthEast
	SouthEast = adjudicator.SouthEast
	South     = adjudicator.South
	SouthWest = adjudicator.SouthWest
	NorthWest = adjudicator.NorthWest
)

// MakeHex returns the hex at column col and row row.
func MakeHex(col, row int) Hex { return adjudicator.MakeHex(col, row) }

// ParseHex reads a hex id of four digits (adjudicator.ParseHex).
func ParseHex(s string) (Hex, error) { return adjudicator.ParseHex(s) }

// ParseSide reads "us", "jp" or "umpire" (adjudicator.ParseSide).
func ParseSide(s string) (Side, error) { return adjudicator.ParseSide(s) }
