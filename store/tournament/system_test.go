package tournament

import (
	"errors"
	"strings"
	"testing"

	"github.com/attu-pbem/attu/store/referee"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// A tournament whose file names another system than War in the Wind's
// has its games created by that system, played by mail as any other; a
// director that does not host the file's system refuses the tournament,
// creating nothing.
func TestTournamentOfAnotherSystem(t *testing.T) {
	w := newWorld(t, 1)
	w.others = []referee.System{otherWind{}}
	w.restart()
	w.dir.Others = []Games{otherWind{}}
	f, err := Parse([]byte("system: other-wind\n"+twoPlayers), windsys.Rules{}, otherWind{})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := w.dir.New(w.svc, f, mailbox, w.clk.now())
	if err != nil {
		t.Fatal(err)
	}
	w.newMails()
	for _, g := range tm.Rounds[0].Games {
		gm, err := w.db.Game(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if gm.SystemName() != "other-wind" {
			t.Fatalf("game %s is of %s", g.ID, gm.SystemName())
		}
		before := gm.Entries
		w.toActions(tm, g.ID) // the setups played by mail, each by the game's own system
		if gm, _ = w.db.Game(g.ID); gm.Entries == before {
			t.Fatalf("no orders were applied in %s", g.ID)
		}
	}
	d := &Director{Games: windsys.Rules{}}
	f2 := *f
	f2.ID = "other"
	if _, err := d.New(w.svc, &f2, mailbox, w.clk.now()); err == nil || !strings.Contains(err.Error(), `"other-wind" is not a game system this server hosts`) {
		t.Fatalf("a director without the system: %v", err)
	}
	if _, err := Load(w.db, "other"); !errors.Is(err, ErrNoTournament) {
		t.Fatalf("the refused tournament was recorded: %v", err)
	}
}
