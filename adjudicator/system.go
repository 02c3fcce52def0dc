package adjudicator

import (
	"encoding/json"
	"fmt"
)

// Position is a game's position as a system's rules hold it. The host
// stores it as its JSON (encoding/json) and asks the system to read it
// back; it looks at nothing else.
type Position interface {
	// Wait is what the game waits for in this position.
	Wait() Wait
	// Validate reports why the rules cannot reach this position, nil
	// when they can; the host never stores or plays on one they cannot.
	Validate() error
}

// Orders is one side's orders as a system decoded them; the host stores
// them as their JSON.
type Orders interface {
	// Answering is the wait the orders' envelope names: its side, turn
	// and kind, as written (a turn of 0 or an empty kind when the file
	// leaves them out).
	Answering() Wait
}

// Refusal is the rules refusing a side's orders: Stale when they do not
// answer what the game waits for, else illegal; Problems say why.
type Refusal struct {
	Stale    bool
	Problems []Problem
}

// Problem is one reason orders were refused, in words for the player, at a
// line and column of the order file (from 1), or 0 and 0 for no place.
type Problem struct {
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	Msg  string `json:"msg"`
}

// String writes "line:col: message", or the message alone.
func (p Problem) String() string {
	if p.Line == 0 {
		return p.Msg
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Msg)
}

// LuckRules is what a system may say of its dice for the host's dice-luck
// summary, with a method LuckRules() LuckRules on its rules; without it the
// summary counts faces only.
type LuckRules struct {
	// Kinds are the kinds of fire whose to-hit dice are judged against
	// the face they needed.
	Kinds []FireKind
	// Unowned names the dice no side rolls ("weather"), for the summary's
	// line about them.
	Unowned string
	// Ranked are the kinds of dice whose face is itself better or worse
	// for the side that rolls them (a combat results table's die), judged
	// by their mean face.
	Ranked []RankedKind
}

// RankedKind is a kind of die the luck summary judges by its mean face:
// its name, the purposes of its dice, and whether a low face is the one
// that helps the side rolling it.
type RankedKind struct {
	Name     string
	Purposes []DiePurpose
	Low      bool
}

// FireKind is a kind of fire the luck summary sums to-hit dice into: its
// name and the purposes of its dice.
type FireKind struct {
	Name     string
	Purposes []DiePurpose
}

// Choices are what a new game is created with, as its system reads them:
// its scenario ("" for the system's default), how its units are set up
// (each side's setup by the rules, or a placement by hand), and the
// optional rules chosen. The words are the system's own.
type Choices struct {
	Scenario string
	Setups   map[Side]string // each side's setup by the rules ("historic", "free"); empty for the scenario's default
	Place    string          // a placement by hand instead, when the system offers them
	Rules    []string
}

// Creation is how a new game begins, as its system says from the
// Choices it was created with.
type Creation struct {
	// Scenario is the scenario the game records; Start makes its opening
	// with the game's dice (store.NewGame.Start).
	Scenario string
	Start    func(d Dice) (Position, json.RawMessage, error)
	// Server is the side the rules have the server play (in War in the
	// Wind the Japanese of its solitaire game), NoSide for none.
	Server Side
	// Placed names each side's setup of a game placed by hand, empty for
	// one set up by the rules (Setups says).
	Placed map[Side]string
}

// Grade is how decisive a victory is, for a system whose rules rank
// victories; a tournament scores a game by it. The zero value is no grade:
// a victory the rules do not rank, or no victory.
type Grade uint8

// Grades, from the least decisive.
const (
	GradeNone Grade = iota
	GradeMarginal
	GradeMinor
	GradeMajor
)

var gradeNames = [...]string{"", "marginal", "minor", "major"}

func (g Grade) String() string {
	if int(g) < len(gradeNames) {
		return gradeNames[g]
	}
	return "grade?"
}

// MarshalText writes marginal, minor, major, or nothing for none.
func (g Grade) MarshalText() ([]byte, error) {
	if int(g) >= len(gradeNames) {
		return nil, fmt.Errorf("grade %d: want marginal, minor or major", uint8(g))
	}
	return []byte(g.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (g *Grade) UnmarshalText(b []byte) error {
	for i, n := range gradeNames {
		if n == string(b) {
			*g = Grade(i)
			return nil
		}
	}
	return fmt.Errorf("grade %q: want marginal, minor or major", b)
}
