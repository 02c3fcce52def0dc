package island

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one mistake in a scenario file: where it is (line and column,
// both from 1), what is wrong, and what to change.
type Problem struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	What string `json:"what"`
	Fix  string `json:"fix"`
}

// String prints the problem as "line:col: what; what to change".
func (p Problem) String() string {
	if p.Fix == "" {
		return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.What)
	}
	return fmt.Sprintf("%d:%d: %s; %s", p.Line, p.Col, p.What, p.Fix)
}

// Problems is every mistake found in a file, in the order they appear in it.
type Problems []Problem

// Error prints one problem a line, so Problems can be returned as an error.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// MaxProblems is how many problems a check collects: past it the checks stop,
// so that a file of thousands of bad lines costs no more than a few. A list
// of MaxProblems problems may stand for more.
const MaxProblems = 100

// sortProblems orders problems by position, keeping the order of those found
// at the same place, drops exact repeats and cuts the list to MaxProblems.
func sortProblems(ps Problems) Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Col < ps[j].Col
	})
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p == ps[i-1] {
			continue
		}
		out = append(out, p)
	}
	return out[:min(len(out), MaxProblems)]
}

// Pos is a place in the file.
type Pos struct {
	Line int
	Col  int
}

// problems collects mistakes as a check finds them.
type problems struct {
	list Problems
}

func (ps *problems) full() bool { return len(ps.list) >= MaxProblems }

// at records a mistake at p: what is wrong, then (after the first "; ")
// what to change.
func (ps *problems) at(p Pos, fix string, format string, args ...any) {
	if ps.full() {
		return
	}
	ps.list = append(ps.list, Problem{Line: max(p.Line, 1), Col: max(p.Col, 1), What: fmt.Sprintf(format, args...), Fix: fix})
}
