package templates

import (
	"strings"
	"testing"
	"time"
)

// standingsSample is a table as a tournament fills it, mid-way.
func standingsSample() Standings {
	return Standings{Tournament: "spring43", Name: "Spring 1943 Attu Open", Round: 2, Rounds: 3,
		After:     "Game spring43-r2-1 of round 2 ended: Erin (Japanese) beat Alice.",
		Reader:    "Alice",
		TieBreaks: []string{"head-to-head", "wins", "buchholz", "lateness"},
		Rows: []StandingsRow{
			{Place: 1, Player: "Erin", Played: 2, Won: 2, Points: 6, Breaks: []string{"0", "2", "3", "0"}},
			{Place: 2, Player: "Dmitri", Played: 2, Won: 1, Drawn: 1, Points: 4, Breaks: []string{"0", "1", "4", "1"}},
			{Place: 3, Shared: true, Player: "Alice", Played: 2, Won: 1, Lost: 1, Points: 3, Breaks: []string{"0", "1", "7", "0"}},
			{Place: 3, Shared: true, Player: "Chiyo Nakamura-Whitfield of the Aleutians", Played: 1, Won: 1, Byes: 1, Points: 3, Breaks: []string{"0", "1", "4", "0"}},
		},
		Results: []StandingsResult{
			{Round: 1, Game: "spring43-r1-1", US: "Farid", JP: "Alice", Result: "Alice (Japanese) beat Farid", Over: true},
			{Round: 1, Game: "spring43-r1-2", US: "Dmitri", JP: "Erin", Result: "draw (the umpire's ruling)", Over: true},
			{Round: 1, US: "Chiyo Nakamura-Whitfield of the Aleutians", Result: "a bye", Over: true},
			{Round: 2, Game: "spring43-r2-1", US: "Alice", JP: "Erin", Result: "Erin (Japanese) beat Alice", Over: true},
			{Round: 2, Game: "spring43-r2-2", US: "Dmitri", JP: "Farid", Result: "playing"},
		},
		Scoring: "A win scores 3, a draw 1, a loss 0, a bye 3.",
		TieBreakNotes: []string{"head-to-head: points scored in the games between the players level on points",
			"wins: games won", "buchholz: the sum of the points of every opponent met",
			"lateness: fewer deadlines missed in the games scored (ended, and not void) ranks higher"},
		Commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
	}
}

// The standings and the digest are kept as golden files, within MaxWidth
// columns, each saying what to do next; the standings mark the reader's
// line, and the final ones say the tournament is over.
func TestTournamentGolden(t *testing.T) {
	zone, err := time.LoadLocation("Europe/London")
	if err != nil {
		t.Fatal(err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 6, 3, 6, 0, 0, 0, time.UTC)
	final := standingsSample()
	final.Final, final.After, final.Reader, final.Round = true, "", "", 3
	final.Seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	umpire := standingsSample()
	umpire.Reader, umpire.After = "", ""
	texts := map[string]interface{ Text() string }{
		"standings":       standingsSample(),
		"standings-final": final,
		"digest": Digest{Tournament: "spring43", Name: "Spring 1943 Attu Open", Time: now, Zone: zone, Round: 2, Rounds: 3,
			Auto: true,
			Games: []DigestGame{
				{Game: "spring43-r2-2", Round: 2, US: "Dmitri", JP: "Farid", Waiting: "the Japanese actions of turn 3 (May 13)",
					From: "Farid, the Japanese player (farid@example.org)", Deadline: now.Add(30 * time.Hour), Zone: paris,
					Notes: []string{"Dmitri is away until Fri 5 Jun 2026 12:00 UTC"}},
				{Game: "spring43-r2-3", Round: 2, US: "Chiyo", JP: "Bruno", Waiting: "the U.S. landing",
					From: "Chiyo, the U.S. player (chiyo@example.org)", Deadline: now.Add(50 * time.Hour),
					Notes: []string{"Chiyo has missed 1 deadline in this game so far"}},
			},
			Late: []DigestLate{{Player: "Dmitri", Missed: 2, Where: "spring43-r1-2 (1), spring43-r2-2 (1)"},
				{Player: "Farid", Missed: 1, Where: "spring43-r1-1 (1)"}},
			Umpire: []string{"spring43-r2-2: Dmitri (U.S.) asks to take back the last step; Farid may agree until Wed 3 Jun 2026 18:00 UTC.",
				"spring43-r2-3 is paused: resume it when the matter is settled."},
			Ended: []DigestEnded{{Game: "spring43-r1-3", Round: 1, US: "Bruno", JP: "Chiyo",
				Result: "Void (ended by the umpire without a result). Ended by the umpire: the server lost the mail.",
				Ended:  now.Add(-20 * time.Hour)}, {Game: "spring43-r2-1", Round: 2, US: "Alice", JP: "Erin",
				Result: "Erin (Japanese) beat Alice. Game over, turn 8 (May 18): Japanese victory, the U.S. had not won by the end of the last turn (rule 3.8.3).",
				Ended:  now.Add(-5 * time.Hour)}},
			Standings: umpire},
		"digest-quiet": Digest{Tournament: "duel", Name: "The Duel", Time: now, Rounds: 1, Round: 1, Over: true,
			Standings: Standings{TieBreaks: []string{"wins"}, Rows: []StandingsRow{{Place: 1, Player: "A", Breaks: []string{"0"}}}}},
		"digest-last": Digest{Tournament: "duel", Name: "The Duel", Time: now, Zone: zone, Rounds: 2, Round: 2, Asked: true,
			Games: []DigestGame{{Game: "duel-r2-1", Round: 2, US: "A", JP: "B", Waiting: "the U.S. landing",
				From: "A, the U.S. player (a@example.org)", Deadline: now.Add(50 * time.Hour)}},
			Standings: Standings{TieBreaks: []string{"wins"}, Rows: []StandingsRow{{Place: 1, Player: "A", Breaks: []string{"0"}}}}},
		"round": RoundMail{Tournament: "spring43", Name: "Spring 1943 Attu Open", Ended: 2, Rounds: 3, Auto: true,
			Next: &RoundPairing{Number: 3, Scenario: "The campaign (rule 12.0)", Bye: "Chiyo Nakamura-Whitfield of the Aleutians",
				Games: []RoundGame{{Game: "spring43-r3-1", US: "Erin", JP: "Dmitri"}, {Game: "spring43-r3-2", US: "Alice", JP: "Farid"}}},
			Standings: umpire},
		"round-first": RoundMail{Tournament: "spring43", Name: "Spring 1943 Attu Open", Rounds: 3,
			Next: &RoundPairing{Number: 1, Scenario: "Up the Hog's Back (rule 15.1)",
				Games: []RoundGame{{Game: "spring43-r1-1", US: "Farid", JP: "Alice"}}},
			Standings: umpire},
		"round-ended": RoundMail{Tournament: "spring43", Name: "Spring 1943 Attu Open", Ended: 1, Rounds: 3, Standings: umpire},
		"round-early": RoundMail{Tournament: "spring43", Name: "Spring 1943 Attu Open", Playing: 1, Rounds: 3,
			Next: &RoundPairing{Number: 2, Scenario: "Up the Hog's Back (rule 15.1)",
				Games: []RoundGame{{Game: "spring43-r2-1", US: "Alice", JP: "Erin"}}},
			Standings: umpire},
	}
	for name, x := range texts {
		t.Run(name, func(t *testing.T) {
			text := x.Text()
			checkColumns(t, name, text)
			if !strings.Contains(text, "WHAT TO DO") {
				t.Errorf("%s says nothing of what to do next", name)
			}
			golden(t, name+".txt", text)
		})
	}
	if strings.Contains(standingsSample().Text(), final.Seed) || !strings.Contains(final.Text(), final.Seed) {
		t.Error("the seed is told before the final standings, or not in them")
	}
	if s := standingsSample().Text(); !strings.Contains(s, "\n>     3=  Alice ") {
		t.Errorf("the reader's line is not marked:\n%s", s)
	}
}
