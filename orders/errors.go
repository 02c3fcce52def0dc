package orders

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one mistake in a YAML file, at a line and column (both from 1).
type Error struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Errors is every mistake found in a file, in the order they appear in it.
// Parse returns it as its error; a nil Errors means none.
type Errors []*Error

// Error prints one mistake per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// MaxErrors is how many mistakes a file's check collects: past it the
// checks stop collecting, so that a file of thousands of bad lines costs
// no more than a few. A list of MaxErrors mistakes may therefore stand
// for more.
const MaxErrors = 100

// Err returns es as an error, sorted and cut to the first MaxErrors, or
// nil when it is empty, so a caller never holds a non-nil error interface
// around an empty list.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	es.Sort()
	return es[:min(len(es), MaxErrors)]
}

// Sort orders the mistakes by position, keeping the order of those found at
// the same place.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Line != es[j].Line {
			return es[i].Line < es[j].Line
		}
		return es[i].Col < es[j].Col
	})
}

// ErrAt returns a mistake at (line, col), clamping both to at least 1 so
// every reported mistake points somewhere in the file.
func ErrAt(line, col int, format string, args ...any) *Error {
	return &Error{Line: max(line, 1), Col: max(col, 1), Msg: fmt.Sprintf(format, args...)}
}

// Pos is a place in a file: line and column, both from 1.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}
