package adjudicator

import "fmt"

// Side is a player's side, or the umpire when asking what a side sees.
type Side uint8

// Sides.
const (
	NoSide Side = iota
	US
	JP
	Umpire
)

func (s Side) String() string {
	switch s {
	case US:
		return "us"
	case JP:
		return "jp"
	case Umpire:
		return "umpire"
	default:
		return "none"
	}
}

// Enemy returns the other player's side.
func (s Side) Enemy() Side {
	switch s {
	case US:
		return JP
	case JP:
		return US
	}
	return NoSide
}

// ParseSide reads "us", "jp" or "umpire".
func ParseSide(s string) (Side, error) {
	switch s {
	case "us":
		return US, nil
	case "jp":
		return JP, nil
	case "umpire":
		return Umpire, nil
	}
	return NoSide, fmt.Errorf("side %q: want us, jp or umpire", s)
}

// MarshalText writes the side's name.
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a side's name.
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	*s = v
	return err
}
