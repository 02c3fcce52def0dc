package templates

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
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
	head := "9f2c4e0b7a51d3e86c0f9b2a4d7e1c3058b6a9f0e2d4c7b1a3f5e8d0c2b4a6f8"
	commit := "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"

	// The refusal quotes what windorders.Parse says of the file.
	var errs []LineError
	if _, err := windorders.Parse([]byte(badOrders), windorders.Options{}); err != nil {
		for _, e := range err.(orders.Errors) {
			errs = append(errs, LineError{Line: e.Line, Col: e.Col, Msg: e.Msg})
		}
	}
	if len(errs) == 0 {
		t.Fatal("the bad orders parse")
	}
	errs = append(errs, LineError{Line: 5, Col: 8, Msg: "token: this is not your side's token"})

	return map[string]interface{ Text() string }{
		"welcome-us": Welcome{Words: testWords, Game: "g1", Name: "Friday club", Scenario: "campaign", Side: adjudicator.US,
			Address: "attu+g1@example.org", Umpire: "umpire@example.org", Token: testToken, Commitment: commit,
			Deadline: 72 * time.Hour, Reminder: 24 * time.Hour, Waiting: "the U.S. decision of turn 1 (May 11)", Awaited: true},
		"welcome-jp": Welcome{Words: testWords, Game: "g1", Side: adjudicator.JP, Address: "attu+g1@example.org", Token: testToken,
			Commitment: commit, Deadline: 48 * time.Hour, Reminder: 12 * time.Hour, Waiting: "the U.S. decision of turn 1 (May 11)"},
		"welcome-us-standin": Welcome{Words: testWords, Game: "g1", Side: adjudicator.US, Address: "attu+g1@example.org", Token: testToken,
			Commitment: commit, Deadline: 48 * time.Hour, Reminder: 12 * time.Hour, Waiting: "the U.S. decision of turn 1 (May 11)", StandIn: []adjudicator.Side{adjudicator.JP}},
		"welcome-us-solitaire": Welcome{Words: testWords, Game: "g1", Side: adjudicator.US, Address: "attu+g1@example.org", Token: testToken,
			Commitment: commit, Deadline: 48 * time.Hour, Reminder: 12 * time.Hour, Waiting: "the U.S. decision of turn 1 (May 11)", StandIn: []adjudicator.Side{adjudicator.JP},
			RulesSide: adjudicator.JP, RulesPlay: "the solitaire rules of rule 13: the rule's tables and the game's dice decide what the Japanese do."},
		"accepted-actions": Accepted{Game: "g1", Side: adjudicator.US, Turn: 3, Wait: wind.WaitActions, Date: "May 13", Held: ", 12 activations",
			Standing: true, Next: "the Japanese actions of turn 3 (May 13)", Head: head},
		"accepted-alone": Accepted{Game: "g1", Side: adjudicator.US, Turn: 3, Wait: wind.WaitActions, Date: "May 13", Held: ", 4 activations",
			Next: "the Japanese actions of turn 3 (May 13)", Head: head, Alone: true},
		"accepted-decision": Accepted{Game: "g1", Side: adjudicator.US, Turn: 4, Wait: wind.WaitUSDecision, Date: "May 14",
			Next: "the U.S. actions of turn 4 (May 14)", Awaited: true, Head: head},
		"accepted-final": Accepted{Game: "g1", Side: adjudicator.JP, Turn: 9, Wait: wind.WaitActions, Date: "May 19", Held: ", 1 activation",
			Over: true, Head: head},
		"refused-errors": Refused{Game: "g1", Subject: "orders turn 3", Errors: errs, File: []byte(badOrders)},
		"refused-stale": Refused{Game: "g1", Subject: "Re: [attu g1] turn 2",
			Errors:  []LineError{{Line: 3, Col: 7, Msg: "the game waits for the U.S. actions of turn 3 (May 13, day), not U.S. actions for turn 2"}},
			File:    []byte(strings.Replace(badOrders, "turn: 3", "turn: 2", 1)),
			Waiting: "the U.S. actions of turn 3 (May 13)"},
		"refused-token": Refused{Game: "g1", Subject: "orders",
			Reason: "The mail does not carry the token of a player of this game, or comes from another address. Nothing more can be said about it."},
		"refused-fault": Refused{Game: "g1", Subject: "orders", Ref: "m-20260504-0042",
			Reason: "The server could not apply these orders."},
		"help":        Help{Game: "g1", Address: "attu+g1@example.org", Tokenless: 5},
		"help-umpire": Help{Game: "g1", Address: "attu+g1@example.org", Umpire: true, Tokenless: 5},
		"status": Status{Game: "g1", Name: "Friday club", Scenario: "campaign", Turn: 3, Date: wind.TurnDate(3),
			Waiting: "the U.S. actions of turn 3 (May 13)", Deadline: deadline, Zone: zone, Head: head, Commitment: commit,
			Players: []PlayerStatus{{Side: adjudicator.US, LastOrders: deadline.Add(-50 * time.Hour)}, {Side: adjudicator.JP, Missed: 1}}},
		"status-paused": Status{Game: "g1", Turn: 3, Date: wind.TurnDate(3), Waiting: "the Japanese actions of turn 3 (May 13)", Paused: true,
			Players: []PlayerStatus{{Side: adjudicator.US}, {Side: adjudicator.JP}}, Umpire: true},
		"reminder": Reminder{Words: testWords, Game: "g1", Side: adjudicator.JP, Waiting: "the Japanese actions of turn 3 (May 13)",
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
			Victory: "the U.S. casualty track reached 30 (rule 3.8.2)", Turn: 9, Date: wind.TurnDate(9), Seed: testSeed, Commitment: commit,
			Head: head, Export: "g1.json.gz"},
		"final-conceded": Final{Game: "g1", Turn: 4, Date: wind.TurnDate(4), Victory: Notice{Kind: "result-concede", Side: adjudicator.US}.Text(),
			Seed: testSeed, Commitment: commit, Export: "g1.json.gz"},
		"final-ended": Final{Game: "g1", Turn: 4, Date: wind.TurnDate(4), Victory: "ended by the umpire: a player left", Seed: testSeed,
			Commitment: commit, Export: "g1.json.gz", Luck: testLuck},

		"welcome-umpire": Welcome{Words: testWords, Game: "g1", Name: "Friday club", Side: adjudicator.Umpire, Address: "attu+g1@example.org",
			Token: testToken, Commitment: commit, Deadline: 72 * time.Hour, Reminder: 24 * time.Hour, Settle: 30 * time.Minute,
			Players: []PlayerAddress{{adjudicator.US, "us@example.org"}, {adjudicator.JP, "jp@example.org"}}},
		"welcome-umpire-every": Welcome{Words: testWords, Game: "g1", Side: adjudicator.Umpire, Address: "attu+g1@example.org", Copies: "every",
			Token: testToken, Commitment: commit, Players: []PlayerAddress{{adjudicator.US, "us@example.org"}, {adjudicator.JP, "jp@example.org"}}},
		"welcome-umpire-turn": Welcome{Words: testWords, Game: "g1", Side: adjudicator.Umpire, Address: "attu+g1@example.org", Copies: "turn",
			Token: testToken, Commitment: commit, Players: []PlayerAddress{{adjudicator.US, "us@example.org"}, {adjudicator.JP, "jp@example.org"}}},
		"help-puzzled": Help{Game: "g1", Address: "attu+g1@example.org", Puzzled: true, Tokenless: 5},
		"status-busy": Status{Game: "g1", Name: "Friday club", Turn: 3, Date: wind.TurnDate(3), Waiting: "the U.S. actions of turn 3 (May 13)",
			Deadline: deadline, Held: deadline.Add(-70 * time.Hour), HeldBy: adjudicator.US, TakebackBy: adjudicator.JP, TakebackUntil: deadline.Add(-48 * time.Hour),
			Players: []PlayerStatus{{Side: adjudicator.US, Away: deadline.Add(-60 * time.Hour)}, {Side: adjudicator.JP, Missed: 2}}},
		"status-over": Status{Game: "g1", Turn: 6, Date: wind.TurnDate(6), Waiting: "nothing", Result: "the Japanese player conceded: U.S. victory",
			Players: []PlayerStatus{{Side: adjudicator.US}, {Side: adjudicator.JP}}},
		"refused-over":   Refused{Game: "g1", Subject: "orders", Why: "why-over", Reason: Notice{Kind: "why-over"}.Text()},
		"refused-paused": Refused{Game: "g1", Subject: "orders", Why: "why-file-paused", Reason: Notice{Kind: "why-file-paused"}.Text() + "."},
		"refused-again": Refused{Game: "g1", Subject: "orders", Why: "why-already-applied",
			Reason: Notice{Kind: "why-already-applied", At: deadline, Entry: 7}.Text()},
		"refused-dropped": Refused{Game: "g1", Why: "why-dropped", Reason: Notice{Kind: "why-dropped"}.Text() + ".",
			Errors: errs[:1], File: []byte(badOrders), Waiting: "the Japanese actions of turn 3 (May 13)"},
		"generic":          Generic{Example: "attu+GAME@example.org"},
		"held":             Held{Game: "g1", Waiting: "the U.S. actions of turn 3 (May 13)", Due: deadline, Zone: zone},
		"held-replaced":    Held{Game: "g1", Waiting: "the U.S. actions of turn 3 (May 13)", Due: deadline, Replaced: true},
		"farewell":         Farewell{Game: "g1", Side: adjudicator.JP},
		"farewell-standin": Farewell{Game: "g1", Side: adjudicator.JP, StandIn: true},
		"log": Log{Game: "g1", Side: adjudicator.US, Entries: []LogLine{
			{Seq: 1, Entry: Entry{Kind: "create"}},
			{Seq: 2, Entry: Entry{Kind: "orders", Turn: 1, Wait: wind.WaitUSDecision, Side: adjudicator.US}, Events: []string{"Weather: clear (die 7)."}},
			{Seq: 3, Entry: Entry{Kind: "note", Side: adjudicator.US, Note: Notice{Kind: "asked", Side: adjudicator.US, Command: "status"}.Text()}},
			{Seq: 4, Entry: Entry{Kind: "orders", Turn: 1, Wait: wind.WaitActions, Side: adjudicator.US, UndoneBy: 6}},
			{Seq: 5, Entry: Entry{Kind: "note", Note: Notice{Kind: "takeback-asked", Side: adjudicator.US, Other: adjudicator.US, Turn: 1,
				Wait: wind.WaitActions, Entry: 4, At: deadline}.Text()}},
			{Seq: 6, Entry: Entry{Kind: "rollback", To: 3, Note: Notice{Kind: "takeback-agreed", Side: adjudicator.JP, Other: adjudicator.US, Entry: 4}.Text()}},
			{Seq: 7, Entry: Entry{Kind: "end", Note: "ended by the umpire: a draw"}},
		}},
		"template": TemplateAnswer{Game: "g1", Waiting: "the U.S. decision of turn 4 (May 14)", Name: "orders-4-us-decision.yaml",
			Body: "game: g1\nside: us\nturn: 4\nwait: us-decision\ntoken: PASTE-YOUR-TOKEN\ndecision: {refit: false, night: false}\n"},
		"notices": Notices{Paused: true, Lines: []string{
			Notice{Kind: "extend", Other: adjudicator.JP, Duration: 48 * time.Hour, At: deadline}.Text(),
			Notice{Kind: "deadline-missed", Side: adjudicator.US, Turn: 4, Wait: wind.WaitUSDecision, At: deadline,
				Applied: "no refit, a day turn", Missed: 2}.Text()}},
		"notice-takeback-asked": PlayerNotice{Game: "g1", Reader: adjudicator.JP, Deadline: deadline, Zone: zone,
			Notice: Notice{Kind: "takeback-asked", Side: adjudicator.US, Other: adjudicator.US, Turn: 3, Wait: wind.WaitActions, Entry: 9, At: deadline}},
		"notice-mail-set-aside": PlayerNotice{Game: "g1", Reader: adjudicator.Umpire,
			Notice: Notice{Kind: "mail-set-aside", Side: adjudicator.JP, Missed: 3,
				Note: `subject "Re: [attu g1] turn 4 (May 14): the Japanese actions", Message-ID <x1@example.org>`}},
		"notice-takeback-asked-umpire": PlayerNotice{Game: "g1", Reader: adjudicator.Umpire, Deadline: deadline,
			Notice: Notice{Kind: "takeback-asked", Side: adjudicator.US, Other: adjudicator.US, Turn: 3, Wait: wind.WaitActions, Entry: 9, At: deadline}},
		"notice-takeback-lapsed": PlayerNotice{Game: "g1", Reader: adjudicator.US,
			Notice: Notice{Kind: "takeback-lapsed", Side: adjudicator.US, At: deadline}},
		"notice-absent": PlayerNotice{Game: "g1", Reader: adjudicator.Umpire,
			Notice: Notice{Kind: "absent", Side: adjudicator.JP, At: deadline}},
		"notice-no-default": PlayerNotice{Game: "g1", Reader: adjudicator.Umpire,
			Notice: Notice{Kind: "deadline-no-default", Side: adjudicator.JP, Turn: 1, Wait: wind.WaitJPSetup, At: deadline}},
		"umpire-pause": UmpireNotice{Game: "g1", Action: "pause", Detail: Notice{Kind: "paused-you"}.Text(), Head: head},
		"umpire-resume": UmpireNotice{Game: "g1", Action: "resume", Detail: Notice{Kind: "resumed-you", Other: adjudicator.JP, At: deadline}.Text(),
			Deadline: deadline, Next: "the Japanese actions of turn 3 (May 13)", Head: head},
		"umpire-force": UmpireNotice{Game: "g1", Action: "force", Detail: Notice{Kind: "force-detail", Other: adjudicator.JP, Turn: 3,
			Wait: wind.WaitActions, Applied: "no activations"}.Text(), Deadline: deadline, Next: "the U.S. decision of turn 4 (May 14)", Head: head},
		"umpire-replace": UmpireNotice{Game: "g1", Action: "replace", Detail: Notice{Kind: "replace", Other: adjudicator.JP}.Text(),
			Deadline: deadline, Next: "the Japanese actions of turn 3 (May 13)", Reader: adjudicator.US, Awaited: adjudicator.JP, Head: head},
		"umpire-extend-awaited": UmpireNotice{Game: "g1", Action: "extend", Detail: "The deadline moves 24 hours later.",
			Deadline: deadline, Next: "the Japanese actions of turn 3 (May 13)", Reader: adjudicator.JP, Awaited: adjudicator.JP},
		"umpire-rollback-reports": UmpireNotice{Game: "g1", Action: "rollback", Detail: Notice{Kind: "rollback-detail", To: 12}.Text(),
			Reason: "mistyped hex", Deadline: deadline, Next: "the U.S. actions of turn 5 (May 15)", Head: head},
		"answer-extend": Answer{Game: "g1", Command: "extend", Says: []Notice{{Kind: "you-extend", At: deadline}},
			Next: "the Japanese actions of turn 3 (May 13)", Deadline: deadline, Zone: zone, Reader: adjudicator.Umpire, Awaited: adjudicator.JP},
		"answer-absent-awaited": Answer{Game: "g1", Command: "absent", Says: []Notice{{Kind: "you-absent", At: deadline}},
			Next: "the U.S. actions of turn 3 (May 13)", Deadline: deadline, Reader: adjudicator.US, Awaited: adjudicator.US},
		"answer-extend-paused": Answer{Game: "g1", Command: "extend", Says: []Notice{{Kind: "you-extend-paused", Duration: 50 * time.Hour}}},
		"answer-pause":         Answer{Game: "g1", Command: "pause", Says: []Notice{{Kind: "you-pause", Duration: 31 * time.Hour}}},
		"answer-resume": Answer{Game: "g1", Command: "resume", Says: []Notice{{Kind: "you-resume", At: deadline}},
			Next: "the Japanese actions of turn 3 (May 13)", Deadline: deadline},
		"answer-force": Answer{Game: "g1", Command: "force", Says: []Notice{{Kind: "you-force", Applied: "no activations"}},
			Next: "the U.S. decision of turn 4 (May 14)", Deadline: deadline},
		"answer-rollback": Answer{Game: "g1", Command: "rollback", Says: []Notice{{Kind: "you-rollback", To: 12,
			Note: "the U.S. actions of turn 5 (May 15)", At: deadline}}, Next: "the U.S. actions of turn 5 (May 15)", Deadline: deadline},
		"answer-replace": Answer{Game: "g1", Command: "replace", Says: []Notice{{Kind: "you-replace", Other: adjudicator.JP, Note: "newcomer@example.org"}},
			Next: "the Japanese actions of turn 3 (May 13)", Deadline: deadline},
		"answer-end":    Answer{Game: "g1", Command: "end", Says: []Notice{{Kind: "you-end", Note: "ended by the umpire: a draw"}}},
		"answer-reveal": Answer{Game: "g1", Command: "reveal", Says: []Notice{{Kind: "you-reveal", Seed: testSeed, Commitment: commit}}},
		"answer-absent": Answer{Game: "g1", Command: "absent", Says: []Notice{{Kind: "you-absent", At: deadline}, {Kind: "you-deadline", At: deadline.Add(72 * time.Hour)}},
			Next: "the U.S. actions of turn 3 (May 13)", Deadline: deadline.Add(72 * time.Hour)},
		"answer-takeback": Answer{Game: "g1", Command: "takeback", Says: []Notice{{Kind: "you-takeback", Side: adjudicator.US, Other: adjudicator.JP, Turn: 4, Wait: wind.WaitActions, Entry: 12, At: deadline}},
			Next: "the Japanese actions of turn 3 (May 13)", Deadline: deadline},
		"notdone-paused":      NotDone{Game: "g1", Command: "takeback", Why: Notice{Kind: "why-paused"}},
		"notdone-only-umpire": NotDone{Game: "g1", Command: "pause", Why: Notice{Kind: "why-only-umpire", Command: "pause"}},
		"notdone-absent-long": NotDone{Game: "g1", Command: "absent", Why: Notice{Kind: "why-absent-long", Duration: 14 * 24 * time.Hour, At: deadline}},
		"notdone-not-awaited": NotDone{Game: "g1", Command: "template", Why: Notice{Kind: "why-not-awaited",
			Note: "the Japanese actions of turn 3 (May 13)", Other: adjudicator.JP}},
	}
}

// testLuck is a dice-luck summary as store writes it.
const testLuck = `Dice luck: each to-hit die against the face it needed (needing N, it hits 11-N times in 10)

US: 41 dice
  faces  1:4 2:5 3:3 4:4 5:6 6:3 7:4 8:5 9:3 10:4   (4.1 expected of each)
  ranged   22 dice:    9 hits,   10.4 expected (-1.4, within what fair dice do)
`

// TestReplyGolden keeps every reply as a golden file, each within MaxWidth
// columns and ending with what to do next.
// testWords are War in the Wind's words, as its system gives them
// (templates/wind holds the two alike).
var testWords = Words{Title: "War in the Wind, The Battle for Attu Island, May 1943",
	Defaults:    "a day turn without refit, or no activations",
	EachDefault: "for a decision, a day turn without refit; for actions, no activations"}

func TestReplyGolden(t *testing.T) {
	all := replies(t)
	for name, r := range budgetReplies(t) {
		all[name] = r
	}
	for name, r := range all {
		t.Run(name, func(t *testing.T) {
			text := r.Text()
			checkColumns(t, name, text)
			if !strings.Contains(text, "WHAT") && !strings.Contains(text, "CHECK EVERY DIE") && name != "notices" {
				t.Errorf("%s says nothing of what to do next", name)
			}
			golden(t, "reply-"+name+".txt", text)
		})
	}
}

// TestReplySubjects keeps the subject of every reply that has its own as
// one golden file, a line each.
func TestReplySubjects(t *testing.T) {
	all := replies(t)
	all["accepted-orders"] = Accepted{Game: "g1", Side: adjudicator.US, Turn: 1, Wait: "orders"}
	all["final-draw"] = Final{Game: "g1", Turn: 8, Victory: "a draw, U.S. 3 points, Japanese 3"}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(all)) {
		if r, ok := all[name].(interface{ Subject() string }); ok {
			fmt.Fprintf(&b, "%-24s %s\n", name, r.Subject())
		}
	}
	golden(t, "reply-subjects.txt", b.String())
}

// A system whose turns have no date (Island War) has its turns named by
// number alone in the replies that name a turn.
func TestUndatedTurnReplies(t *testing.T) {
	for name, r := range map[string]interface{ Text() string }{
		"accepted": Accepted{Game: "g1", Side: adjudicator.JP, Turn: 3, Wait: "orders", Held: ", 4 moves and 2 attacks",
			Next: "the U.S. orders of Game-Turn 4 (wait: orders)", Head: "9f2c4e0b7a51d3e86c0f9b2a4d7e1c3058b6a9f0e2d4c7b1a3f5e8d0c2b4a6f8", Alone: true},
		"status": Status{Game: "g1", Turn: 3, Waiting: "the U.S. orders of Game-Turn 3 (wait: orders)",
			Players: []PlayerStatus{{Side: adjudicator.US}, {Side: adjudicator.JP}}},
		"final": Final{Game: "g1", Turn: 8, Winner: adjudicator.US, Victory: "decisive, 15 victory points to 0",
			Seed: testSeed, Commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd", Export: "g1.json.gz"},
	} {
		text := r.Text()
		if strings.Contains(text, "()") || strings.Contains(text, "Game-Turn 3 (Game-Turn") {
			t.Errorf("%s names its turn badly:\n%s", name, text)
		}
		golden(t, "reply-undated-"+name+".txt", text)
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
		if strings.Contains(text, testSeed) != (strings.HasPrefix(name, "final") || name == "answer-reveal") {
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

// TestNoticeSentences renders every sentence of what happens outside the
// rules (every "notice-" template) with the same fields, as one golden
// file: each is one line of words, and none is missing a field it needs.
func TestNoticeSentences(t *testing.T) {
	at := time.Date(2026, 5, 4, 18, 0, 0, 0, time.UTC)
	var names []string
	for _, x := range tmpl.Templates() {
		if k, ok := strings.CutPrefix(x.Name(), "notice-"); ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for _, k := range names {
		n := Notice{Kind: k, Side: adjudicator.US, Other: adjudicator.JP, Turn: 3, Wait: wind.WaitActions, Entry: 9, To: 7,
			At: at, Duration: 48 * time.Hour, Applied: "no activations", Missed: 2, Note: "NOTE", Command: "status",
			Seed: testSeed, Commitment: "COMMITMENT"}
		text := n.Text()
		if text == "" || strings.Contains(text, "<no value>") || strings.Contains(text, "%!") {
			t.Errorf("%s: %q", k, text)
		}
		b.WriteString(Wrap(k+": ", "    ", text) + "\n")
	}
	checkColumns(t, "notices", b.String())
	golden(t, "reply-notice-sentences.txt", b.String())
}

// Durations are written in words, never as Go prints them (192h0m0s).
func TestHoursInWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		192 * time.Hour: "8 days", 31 * time.Hour: "31 hours", time.Hour: "1 hour",
		5*time.Hour + 20*time.Minute: "5 hours 20 minutes", 20 * time.Minute: "20 minutes", 90 * time.Second: "2 minutes",
	} {
		if got := hours(d); got != want {
			t.Errorf("hours(%v) = %q, want %q", d, got, want)
		}
	}
}
