package templates

import (
	"cmp"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Tournament mails, filled by package store/tournament: the standings
// everyone receives after each finished game (they say of each game only
// who played it and how it ended), the umpire's daily digest (what every
// game waits for) and the umpire's mail when a round ends or begins.

// Standings is the tournament's table.
type Standings struct {
	Tournament    string // the tournament's id
	Name          string
	Round, Rounds int  // the round in play, of Rounds
	Final         bool // every game of the last round has ended
	// After says what just happened, like "Game spring-r1-2 of round 1
	// ended: ..."; empty in answer to "standings".
	After         string
	Reader        string   // the player the mail is for, whose line is marked; empty for the umpire
	TieBreaks     []string // the tie-break columns, in order
	Rows          []StandingsRow
	Results       []StandingsResult
	Scoring       string   // what each result scores
	TieBreakNotes []string // what each tie-break counts
	// Commitment is the SHA-256 of the seed the sides are drawn from,
	// empty when nothing is drawn; Seed that seed, in the final standings.
	Commitment, Seed string
}

// StandingsRow is one player's line.
type StandingsRow struct {
	Place                          int
	Shared                         bool
	Player                         string
	Played, Won, Drawn, Lost, Byes int
	Points                         int
	Breaks                         []string // the tie-breaks' values, as written
}

// StandingsResult is one game of the tournament (or a bye: Game empty,
// the player in US).
type StandingsResult struct {
	Round  int
	Game   string
	US, JP string
	Result string
	Over   bool
}

// Text renders the standings.
func (s Standings) Text() string {
	return execute("standings.tmpl", struct {
		Standings
		Table   []string
		Games   []string
		Playing []string
	}{s, s.table(), s.games(true), s.games(false)})
}

// cut shortens s to n runes.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "."
}

// table lays the rows out in aligned columns.
func (s Standings) table() []string {
	head := []string{"", "PLACE", "PLAYER", "GAMES", "WON", "DRAWN", "LOST", "POINTS"}
	for _, tb := range s.TieBreaks {
		head = append(head, tieBreakTitle(tb))
	}
	rows := [][]string{head}
	for _, r := range s.Rows {
		place := fmt.Sprint(r.Place)
		if r.Shared {
			place += "="
		}
		mark := ""
		if s.Reader != "" && r.Player == s.Reader {
			mark = ">"
		}
		played := fmt.Sprint(r.Played)
		if r.Byes > 0 {
			played += "+" + Plural(r.Byes, "bye")
		}
		row := []string{mark, place, cut(r.Player, 20), played, fmt.Sprint(r.Won), fmt.Sprint(r.Drawn), fmt.Sprint(r.Lost), fmt.Sprint(r.Points)}
		rows = append(rows, append(row, r.Breaks...))
	}
	// Numbers to the right; the header's titles are short enough to fit.
	lines := Columns(rows, func(col int) bool { return col != 2 })
	for i, l := range lines {
		lines[i] = cut(l, MaxWidth)
	}
	return lines
}

// tieBreakTitle is a tie-break's column title, short so that five fit.
func tieBreakTitle(tb string) string {
	short := map[string]string{"head-to-head": "H2H", "sonneborn-berger": "S-B", "buchholz": "BUCHH", "lateness": "LATE"}
	return cmp.Or(short[tb], strings.ToUpper(tb))
}

// games lists the games over (over) or being played, a line each.
func (s Standings) games(over bool) []string {
	var out []string
	for _, r := range s.Results {
		if r.Over != over {
			continue
		}
		var line string
		if r.Game == "" {
			line = fmt.Sprintf("round %d: %s has %s", r.Round, r.US, r.Result)
		} else if over {
			line = fmt.Sprintf("round %d, %s: %s (U.S.) v %s (Japanese): %s", r.Round, r.Game, r.US, r.JP, r.Result)
		} else {
			line = fmt.Sprintf("round %d, %s: %s (U.S.) v %s (Japanese)", r.Round, r.Game, r.US, r.JP)
		}
		out = append(out, Wrap("  ", "      ", line))
	}
	return out
}

// Digest is the umpire's daily mail: every game of the tournament and
// what it waits for, the late players, what needs the umpire, the games
// that ended since the last digest, and the standings. Every time in it
// is written in UTC and in Zone.
type Digest struct {
	Tournament    string
	Name          string
	Time          time.Time      // when the digest was made
	Zone          *time.Location // the umpire's time zone
	Round, Rounds int            // the round in play, of Rounds
	Over          bool           // every game of the last round has ended
	// Auto: the next round begins by itself when this one's last game
	// ends; otherwise when the umpire runs attu tournament next.
	Auto  bool
	Asked bool // the umpire asked for this digest by mail
	Games []DigestGame
	// Late are the players who missed deadlines in the games that count
	// (scored, not void): the standings' LATE column.
	Late      []DigestLate
	Umpire    []string      // what needs the umpire: takebacks, disputes, pauses
	Ended     []DigestEnded // the games ended since the last digest, in the order they ended
	Standings Standings
}

// DigestGame is a game being played.
type DigestGame struct {
	Game     string
	Round    int
	US, JP   string         // the players' names
	Waiting  string         // what the game waits for (in the system's words)
	From     string         // whom, by name and side
	Deadline time.Time      // until when, shown also in Zone
	Zone     *time.Location // the awaited player's time zone
	// Notes are the game's open matters: held orders, absences, the
	// deadlines missed so far (counted once the game is scored).
	Notes []string
}

// DigestLate is a player who missed deadlines.
type DigestLate struct {
	Player string
	Missed int
	Where  string // says in which games, like "spring-r1-2 (2), spring-r2-1 (1)"
}

// DigestEnded is a game that ended, with its result in full.
type DigestEnded struct {
	Game   string
	Round  int
	US, JP string
	Result string
	Ended  time.Time
}

// Text renders the digest.
func (d Digest) Text() string {
	return execute("digest.tmpl", struct {
		Digest
		Table []string
		Last  bool
	}{d, d.Standings.table(), d.Round >= d.Rounds})
}

// Subject is the digest's subject line.
func (d Digest) Subject() string {
	zone := d.Zone
	if zone == nil {
		zone = time.UTC
	}
	return fmt.Sprintf("attu tournament %s: the umpire's digest of %s", d.Name, d.Time.In(zone).Format("Mon 2 Jan 2006"))
}

// RoundMail tells the umpire that a round ended, and how the next one is
// paired once it is.
type RoundMail struct {
	Tournament string
	Name       string
	// Ended is the round whose last game ended; 0 when the umpire began the
	// next round before that (Playing games of it are still being played).
	Ended     int
	Playing   int
	Rounds    int
	Next      *RoundPairing // the round that begins, nil while it waits for the umpire (Auto false)
	Auto      bool
	Standings Standings // the table the next round is paired on
}

// RoundPairing is a round's games, as they are created.
type RoundPairing struct {
	Number   int
	Scenario string // its title and rule, like "Up the Hog's Back (rule 15.1)"
	Games    []RoundGame
	Bye      string // the player who sits out, if any
}

// RoundGame is one game of a round: its id and who plays which side.
type RoundGame struct {
	Game   string
	US, JP string
}

// Text renders the round's mail.
func (r RoundMail) Text() string {
	return execute("round.tmpl", struct {
		RoundMail
		Table   []string
		Round   int // the round in play once this mail is read
		Current int // the round still being played when the next begins early
		Last    bool
		Over    bool
	}{r, r.Standings.table(), r.round(), r.round() - 1, r.round() >= r.Rounds, false})
}

// round is the round in play once the mail is read.
func (r RoundMail) round() int {
	if r.Next != nil {
		return r.Next.Number
	}
	return r.Ended
}

// Subject is the round mail's subject line.
func (r RoundMail) Subject() string {
	switch {
	case r.Next == nil:
		return fmt.Sprintf("attu tournament %s: round %d has ended", r.Name, r.Ended)
	case r.Ended == 0:
		return fmt.Sprintf("attu tournament %s: round %d begins", r.Name, r.Next.Number)
	}
	return fmt.Sprintf("attu tournament %s: round %d has ended, round %d begins", r.Name, r.Ended, r.Next.Number)
}
