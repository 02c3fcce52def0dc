package main

import (
	"strings"
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store/referee"
)

// A campaign of 20 turns played by mail keeps to the mail budget, counted
// as the players' mail programs received it (welcome and final report
// aside): each player gets at most 2.5 mails a turn on average and at most
// 120 KB a turn, no mail but the final report is over 500 KB, and the umpire, who by default gets a daily digest,
// nothing in the minutes the game takes. The U.S. player gives each turn's
// decision in advance (a standing decision), as the decision template
// suggests to a player who does not want to be asked each turn. With
// ATTU_MAILSERVERS set, through Dovecot and Postfix.
func TestE2EMailBudget(t *testing.T) {
	const turns = 20
	db, pg := playByMailFor(t, "attu e2e budget", "budget", turns, true, referee.NewGame{ID: "budget", Name: "Budget"})
	g, err := db.Game(pg.ID)
	if err != nil {
		t.Fatal(err)
	}
	played := g.Wait.Turn
	if played < turns {
		t.Fatalf("the game ended in turn %d, before %d turns were played", played, turns)
	}
	for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
		p := pg.Players[side]
		n, size := 0, 0
		for i, m := range p.received {
			if p.sizes[i] > 500_000 && !strings.Contains(m.Subject, "the game is over") {
				t.Errorf("the %s player received %q, %d KB: more than 500 KB", side, m.Subject, p.sizes[i]/1000)
			}
			if strings.Contains(m.Subject, "welcome:") || strings.Contains(m.Subject, "the game is over") {
				continue
			}
			n, size = n+1, size+p.sizes[i]
		}
		t.Logf("%s: %d mails, %d KB in %d turns", side, n, size/1000, turns)
		if size > turns*120_000 {
			t.Errorf("the %s player received %d KB in %d turns, more than 120 KB a turn", side, size/1000, turns)
		}
		if float64(n)/turns > 2.5 {
			t.Errorf("the %s player received %d mails in %d turns: more than 2.5 a turn on average", side, n, turns)
		}
	}
	umpire, err := fetchInbox(pg.Account["carol"])
	if err != nil {
		t.Fatal(err)
	}
	between := 0
	for _, raw := range umpire {
		if s := string(raw); !strings.Contains(s, "welcome: you umpire") && !strings.Contains(s, "the game is over") {
			between++
		}
	}
	if between > 0 {
		t.Errorf("the umpire received %d mails between the welcome and the final report, before a digest was due", between)
	}
}
