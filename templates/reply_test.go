package templates

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/orders"
)

const (
	testToken = "4f6c-2b9e-77d1-a0c3"
	testSeed  = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
)

// badOrders is an order file with mistakes, as a player might send it.
const badOrders = `game: g1
side: us
turn: 3
wait: actions
token: ` + testToken + `
actions:
  - move: {unit: 1/17-A, path: [2720, 2719, 2618]}
  - fire: {units: [2/32-E], target: 27177}
  - melee: {unit: [1/17-B], target: 2717}
`

// replies returns every kind of reply, filled as the game service would.
func replies(t *testing.T) map[string]interface{ Text() string } {
	zone, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 5, 4, 18, 0, 0, 0, time.UTC)
	head := testGame(t).Head
	commit := testGame(t).Commitment

	// The refusal quotes what orders.Parse says of the file.
	var errs []LineError
	if _, err := orders.Parse([]byte(badOrders), orders.Options{}); err != nil {
		for _, e := range err.(orders.Errors) {
			errs = append(errs, LineError{Line: e.Line, Col: e.Col, Msg: e.Msg})
		}
	}
	if len(errs) == 0 {
		t.Fatal("the bad orders parse")
	}
	errs = append(errs, LineError{Line: 5, Col: 8, Msg: "token: this is not your side's token"})

	return map[string]interface{ Text() string }{
		"welcome-us": Welcome{Game: "g1", Name: "Friday club", Scenario: "campaign", Side: adjudicator.US,
			Address: "attu+g1@example.org", Umpire: "umpire@example.org", Token: testToken, Commitment: commit,
			Deadline: 72 * time.Hour, Reminder: 24 * time.Hour},
		"welcome-jp": Welcome{Game: "g1", Side: adjudicator.JP, Address: "attu+g1@example.org", Token: testToken,
			Commitment: commit, Deadline: 48 * time.Hour, Reminder: 12 * time.Hour},
		"accepted-actions": Accepted{Game: "g1", Side: adjudicator.US, Turn: 3, Wait: adjudicator.WaitActions, Activations: 12,
			Standing: true, Next: "the Japanese actions of turn 3 (May 13)", Head: head},
		"accepted-decision": Accepted{Game: "g1", Side: adjudicator.US, Turn: 4, Wait: adjudicator.WaitUSDecision,
			Next: "the U.S. actions of turn 4 (May 14)", Awaited: true, Head: head},
		"refused-errors": Refused{Game: "g1", Subject: "orders turn 3", Errors: errs, File: []byte(badOrders)},
		"refused-stale": Refused{Game: "g1", Subject: "Re: [attu g1] turn 2",
			Errors:  []LineError{{Line: 3, Col: 7, Msg: "the game waits for the U.S. actions of turn 3 (May 13, day), not U.S. actions for turn 2"}},
			File:    []byte(strings.Replace(badOrders, "turn: 3", "turn: 2", 1)),
			Waiting: "the U.S. actions of turn 3 (May 13)"},
		"refused-token": Refused{Game: "g1", Subject: "orders",
			Reason: "The mail does not carry the token of a player of this game, or comes from another address. Nothing more can be said about it."},
		"refused-fault": Refused{Game: "g1", Subject: "orders", Ref: "m-20260504-0042",
			Reason: "The server could not apply these orders."},
		"help":        Help{Game: "g1", Address: "attu+g1@example.org"},
		"help-umpire": Help{Game: "g1", Address: "attu+g1@example.org", Umpire: true},
		"status": Status{Game: "g1", Name: "Friday club", Scenario: "campaign", Turn: 3,
			Waiting: "the U.S. actions of turn 3 (May 13)", Deadline: deadline, Zone: zone, Head: head, Commitment: commit,
			Players: []PlayerStatus{{Side: adjudicator.US, LastOrders: deadline.Add(-50 * time.Hour)}, {Side: adjudicator.JP, Missed: 1}}},
		"status-paused": Status{Game: "g1", Turn: 3, Waiting: "the Japanese actions of turn 3 (May 13)", Paused: true,
			Players: []PlayerStatus{{Side: adjudicator.US}, {Side: adjudicator.JP}}},
		"reminder": Reminder{Game: "g1", Side: adjudicator.JP, Waiting: "the Japanese actions of turn 3 (May 13)",
			Deadline: deadline, Zone: zone, Left: 24 * time.Hour, Template: "orders-3-actions.yaml"},
		"deadline-passed": DeadlinePassed{Game: "g1", Side: adjudicator.US, Waiting: "the U.S. decision of turn 4 (May 14)",
			Deadline: deadline, Zone: zone, Applied: "a day turn without refit", Next: "the U.S. actions of turn 4 (May 14)", Missed: 2},
		"umpire-extend": UmpireNotice{Game: "g1", Action: "extend",
			Detail: "The deadline for the Japanese actions of turn 3 (May 13) moves 24 hours later.",
			Reason: "The Japanese player is travelling until Monday.", Deadline: deadline.Add(24 * time.Hour), Zone: zone,
			Next: "the Japanese actions of turn 3 (May 13)", Head: head},
		"umpire-rollback": UmpireNotice{Game: "g1", Action: "rollback",
			Detail: "The game returns to the position after log entry 12, before the U.S. actions of turn 5 were applied; the reports of the entries undone no longer count.",
			Reason: "A bug in the handling of rule 8.2.1.3 was fixed.", Next: "the U.S. actions of turn 5 (May 15)", Head: head},
		"final": Final{Game: "g1", Name: "Friday club", Winner: adjudicator.JP,
			Victory: "the U.S. casualty track reached 30 (rule 3.8.2)", Turn: 9, Seed: testSeed, Commitment: commit,
			Head: head, Export: "g1.json"},
		"final-ended": Final{Game: "g1", Turn: 4, Victory: "ended by the umpire: a player left", Seed: testSeed,
			Commitment: commit, Export: "g1.json"},
	}
}

// TestReplyGolden keeps every reply as a golden file, each within MaxWidth
// columns and ending with what to do next.
func TestReplyGolden(t *testing.T) {
	for name, r := range replies(t) {
		t.Run(name, func(t *testing.T) {
			text := r.Text()
			checkColumns(t, name, text)
			if !strings.Contains(text, "WHAT") && !strings.Contains(text, "CHECK EVERY DIE") {
				t.Errorf("%s says nothing of what to do next", name)
			}
			golden(t, "reply-"+name+".txt", text)
		})
	}
}

// TestRepliesKeepSecrets checks that the token appears only in the
// welcome, on its token line, and the seed only in the final report.
func TestRepliesKeepSecrets(t *testing.T) {
	for name, r := range replies(t) {
		text := r.Text()
		hasToken := strings.Contains(text, testToken)
		if strings.HasPrefix(name, "welcome") {
			if !strings.Contains(text, "  token: "+testToken+"\n") || strings.Count(text, testToken) != 1 {
				t.Errorf("%s does not give the token once, on its own line", name)
			}
		} else if hasToken {
			t.Errorf("%s repeats the token", name)
		}
		if strings.Contains(text, testSeed) != strings.HasPrefix(name, "final") {
			t.Errorf("%s: seed shown %v", name, strings.Contains(text, testSeed))
		}
	}
}

// TestRefusedQuotesEveryError checks that a refusal gives every mistake
// with its line:col, the line quoted and a caret under the column.
func TestRefusedQuotesEveryError(t *testing.T) {
	r := replies(t)["refused-errors"].(Refused)
	text := r.Text()
	lines := strings.Split(badOrders, "\n")
	for _, e := range r.Errors {
		if !strings.Contains(text, fmt.Sprintf("line %d, column %d:", e.Line, e.Col)) {
			t.Errorf("no line:col for %+v", e)
		}
		quoted := quoteLine(lines[e.Line-1])
		if !strings.Contains(text, "| "+quoted+"\n") {
			t.Errorf("line %d is not quoted: %q", e.Line, quoted)
		}
	}
	if !strings.Contains(text, "token: (your token, not repeated here)") {
		t.Error("the token line is not quoted without its value")
	}
	for _, l := range []string{"token: " + testToken, "  - {token: '" + testToken + "', move: x}", "TOKEN:\t" + testToken + " # mine"} {
		if q := quoteLine(l); strings.Contains(q, testToken) {
			t.Errorf("quoting %q shows the token: %q", l, q)
		}
	}
}
