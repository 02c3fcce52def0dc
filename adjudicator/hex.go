package adjudicator

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Hex is a map hex identified the way the printed map numbers it: CCRR,
// column then row, so 2717 is column 27, row 17. Columns run west to east and
// rows north to south. The zero Hex means "not on the map".
//
// The grid is flat-topped with odd columns shifted half a hex south: a hex in
// an odd column touches rows r and r+1 of the columns beside it, a hex in an
// even column touches rows r-1 and r. So 2717 touches 2617, 2618, 2817 and
// 2818 beside it, and 1406 touches 1505.
type Hex int

// MakeHex returns the hex at column col and row row.
func MakeHex(col, row int) Hex { return Hex(col*100 + row) }

// Col returns the hex's column.
func (h Hex) Col() int { return int(h) / 100 }

// Row returns the hex's row.
func (h Hex) Row() int { return int(h) % 100 }

// String returns the four-digit CCRR form.
func (h Hex) String() string {
	if h == 0 {
		return "off-map"
	}
	return fmt.Sprintf("%04d", int(h))
}

// MarshalText writes the CCRR form, so hexes read the same in JSON and YAML.
func (h Hex) MarshalText() ([]byte, error) {
	if h == 0 {
		return []byte(""), nil
	}
	return fmt.Appendf(nil, "%04d", int(h)), nil
}

// UnmarshalText reads exactly four digits (CCRR). An empty text is the zero
// Hex.
func (h *Hex) UnmarshalText(b []byte) error {
	v, err := ParseHex(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// ParseHex reads a hex id: four digits, column then row, both at least 1.
// An empty string is the zero Hex.
func ParseHex(s string) (Hex, error) {
	if s == "" {
		return 0, nil
	}
	if len(s) != 4 {
		return 0, fmt.Errorf("%q is not a hex: a hex is four digits, column then row, like 2717", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a hex: a hex is four digits, column then row, like 2717", s)
	}
	h := Hex(n)
	if h.Col() == 0 || h.Row() == 0 {
		return 0, fmt.Errorf("%q is not a hex: column and row start at 01", s)
	}
	return h, nil
}

// Direction is one of the six hexsides of a flat-topped hex, clockwise from
// north.
type Direction int

// The six directions, clockwise from north.
const (
	North Direction = iota
	NorthEast
	SouthEast
	South
	SouthWest
	NorthWest
)

var directionNames = [6]string{"N", "NE", "SE", "S", "SW", "NW"}

func (d Direction) String() string { return directionNames[d%6] }

// Opposite returns the direction pointing back.
func (d Direction) Opposite() Direction { return (d + 3) % 6 }

// Step returns the hex next to h in direction d. It may lie outside any map.
func (h Hex) Step(d Direction) Hex {
	c, r := h.Col(), h.Row()
	odd := c%2 == 1
	switch d {
	case North:
		return MakeHex(c, r-1)
	case South:
		return MakeHex(c, r+1)
	case NorthEast:
		if odd {
			return MakeHex(c+1, r)
		}
		return MakeHex(c+1, r-1)
	case SouthEast:
		if odd {
			return MakeHex(c+1, r+1)
		}
		return MakeHex(c+1, r)
	case SouthWest:
		if odd {
			return MakeHex(c-1, r+1)
		}
		return MakeHex(c-1, r)
	default: // NorthWest
		if odd {
			return MakeHex(c-1, r)
		}
		return MakeHex(c-1, r-1)
	}
}

// Neighbours returns the six hexes around h, clockwise from north. Some may
// lie outside the map; Map.Neighbours filters those.
func (h Hex) Neighbours() [6]Hex {
	var n [6]Hex
	for d := North; d <= NorthWest; d++ {
		n[d] = h.Step(d)
	}
	return n
}

// DirectionTo returns the direction from h to an adjacent hex o.
func (h Hex) DirectionTo(o Hex) (Direction, bool) {
	for d := North; d <= NorthWest; d++ {
		if h.Step(d) == o {
			return d, true
		}
	}
	return 0, false
}

// Adjacent reports whether h and o share a hexside.
func (h Hex) Adjacent(o Hex) bool {
	_, ok := h.DirectionTo(o)
	return ok
}

// Cube returns h in cube coordinates (x+y+z = 0), in which straight lines
// and distances are sums.
func (h Hex) Cube() (x, y, z int) {
	c, r := h.Col(), h.Row()
	x = c
	z = r - (c-(c&1))/2
	y = -x - z
	return
}

// Distance returns the number of hexes between h and o (adjacent hexes are 1
// apart).
func (h Hex) Distance(o Hex) int {
	x1, y1, z1 := h.Cube()
	x2, y2, z2 := o.Cube()
	return max(abs(x1-x2), abs(y1-y2), abs(z1-z2))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// UnmarshalYAML reads a hex written as a number (2717) or a string ("2717"),
// refusing anything that is not four digits.
func (h *Hex) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a hex is four digits, column then row, like 2717", n.Line)
	}
	v, err := ParseHex(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*h = v
	return nil
}

// MarshalYAML writes the hex as a plain number.
func (h Hex) MarshalYAML() (any, error) {
	if h == 0 {
		return nil, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: h.String()}, nil
}
