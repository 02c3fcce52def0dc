package tournament

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store/referee"
)

// Row is one player's line in the standings.
type Row struct {
	Player                   string
	Played, Won, Drawn, Lost int
	Byes                     int
	Points                   int
	Late                     int // the deadlines missed in the games that count
	// Breaks are the tie-breaks' values in the file's order, higher
	// ranking higher (Lateness counts down from zero).
	Breaks []float64
	Place  int  // the rank, from 1
	Shared bool // with another player
}

// gamePoints are the points each side of a finished game scores by its
// level of victory (Result.grade), or as a win, draw or loss; none when void.
func gamePoints(p Points, r *Result) (us, jp int) {
	if r.Void {
		return 0, 0
	}
	if r.Winner == adjudicator.NoSide {
		return p.Draw, p.Draw
	}
	pair := [2]int{p.Win, p.Loss}
	switch r.grade() {
	case adjudicator.GradeMajor:
		pair = p.Major
	case adjudicator.GradeMinor:
		pair = p.Minor
	case adjudicator.GradeMarginal:
		pair = p.Marginal
	}
	if r.Winner == adjudicator.US {
		return pair[0], pair[1]
	}
	return pair[1], pair[0]
}

// played is one finished game from one player's side.
type played struct {
	opponent string
	points   int
	score    float64 // 1 won, 0.5 drawn, 0 lost
}

// Table returns the standings: every player ranked by points, then the
// file's tie-breaks; players level on all share a place, listed by name.
func (t *Tournament) Table() []Row {
	pts := t.File.Scoring.Points()
	rows := map[string]*Row{}
	games := map[string][]played{}
	for _, p := range t.File.Players {
		rows[p.Name] = &Row{Player: p.Name}
	}
	for _, r := range t.Rounds {
		if r.Bye != "" {
			if row := rows[r.Bye]; row != nil {
				row.Byes++
				row.Points += pts.Bye
			}
		}
		for _, g := range r.Games {
			res := g.Result
			if !res.counts() {
				continue
			}
			us, jp := gamePoints(pts, res)
			for _, x := range []struct {
				me, opp string
				side    adjudicator.Side
				points  int
			}{{g.US, g.JP, adjudicator.US, us}, {g.JP, g.US, adjudicator.JP, jp}} {
				row := rows[x.me]
				if row == nil {
					continue
				}
				row.Played++
				row.Points += x.points
				row.Late += res.Late[x.side]
				score := 0.5
				switch res.Winner {
				case x.side:
					row.Won++
					score = 1
				case adjudicator.NoSide:
					row.Drawn++
				default:
					row.Lost++
					score = 0
				}
				games[x.me] = append(games[x.me], played{opponent: x.opp, points: x.points, score: score})
			}
		}
	}
	for _, row := range rows {
		for _, tb := range t.File.TieBreaks {
			var v float64
			switch tb {
			case Wins:
				v = float64(row.Won)
			case Lateness:
				v = -float64(row.Late)
			}
			// The others sum over the games played, by the opponent met.
			for _, g := range games[row.Player] {
				switch o := rows[g.opponent]; {
				case o == nil:
				case tb == HeadToHead && o.Points == row.Points:
					v += float64(g.points)
				case tb == Buchholz:
					v += float64(o.Points)
				case tb == SonnebornBerger:
					v += float64(o.Points) * g.score
				}
			}
			row.Breaks = append(row.Breaks, v)
		}
	}
	out := make([]Row, 0, len(rows))
	for _, p := range t.File.Players {
		out = append(out, *rows[p.Name])
	}
	slices.SortStableFunc(out, func(a, b Row) int {
		if c := rankCmp(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a.Player, b.Player)
	})
	for i := range out {
		if i > 0 && rankCmp(out[i-1], out[i]) == 0 {
			out[i].Place, out[i].Shared, out[i-1].Shared = out[i-1].Place, true, true
		} else {
			out[i].Place = i + 1
		}
	}
	return out
}

// rankCmp orders two rows best first by points and tie-breaks.
func rankCmp(a, b Row) int {
	if c := cmp.Compare(b.Points, a.Points); c != 0 {
		return c
	}
	for i := range a.Breaks {
		if c := cmp.Compare(b.Breaks[i], a.Breaks[i]); c != 0 {
			return c
		}
	}
	return 0
}

// breakText writes a tie-break's value as the table shows it.
func breakText(tb string, v float64) string {
	if tb == Lateness {
		return fmt.Sprint(int(-v))
	}
	if v == float64(int(v)) {
		return fmt.Sprint(int(v))
	}
	return fmt.Sprintf("%.1f", v)
}

// resultText is a finished game's result in a few words, for the
// standings: who won and how, never more of the game than that; a level
// of victory is cited by rule (Games.LevelWords) unless that is empty.
func resultText(g *Game, rule string) string {
	r := g.Result
	switch {
	case r == nil:
		return "playing"
	case r.Void:
		return "void (ended by the umpire without a result)"
	case r.Winner == adjudicator.NoSide:
		if r.How == referee.EndedByUmpire {
			return "draw (the umpire's ruling)"
		}
		return "draw"
	}
	winner, loser := g.US, g.JP
	if r.Winner == adjudicator.JP {
		winner, loser = g.JP, g.US
	}
	s := fmt.Sprintf("%s (%s) beat %s", winner, referee.SideName(r.Winner), loser)
	switch r.How {
	case referee.EndedByConcession:
		s += ", who conceded"
	case referee.EndedByUmpire:
		s += ", by the umpire's ruling"
	default:
		if r.Level != "" {
			s += ": " + r.Level
			if rule != "" {
				s += " (" + rule + ")"
			}
		}
	}
	return s
}

// grade is how decisive r's victory is: its Grade, or for a result recorded
// before results had grades, what its Level's words say (a record of War
// in the Wind's victory point chits, whose levels read "U.S. minor
// victory" and such).
func (r *Result) grade() adjudicator.Grade {
	if r.Grade != adjudicator.GradeNone || r.Level == "" {
		return r.Grade
	}
	switch l := strings.ToLower(r.Level); {
	case strings.Contains(l, "major"):
		return adjudicator.GradeMajor
	case strings.Contains(l, "minor"):
		return adjudicator.GradeMinor
	case strings.Contains(l, "marginal"):
		return adjudicator.GradeMarginal
	}
	return adjudicator.GradeNone
}
