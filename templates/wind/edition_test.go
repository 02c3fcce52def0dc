package wind

import (
	"math/rand"
	"testing"

	rules "github.com/attu-pbem/attu/adjudicator/wind"
)

// A new game is created by the latest edition of the rules; a game of
// edition 0, created before editions existed, still passes the audit of
// its opening, and other dice still fail it.
func TestEditionOfTheOpening(t *testing.T) {
	start := Start(rules.ScenarioCampaign, rules.Options{})
	p, _, err := start(testDice{rand.New(rand.NewSource(7))})
	if err != nil {
		t.Fatal(err)
	}
	s := p.(*rules.State)
	if s.Edition != rules.LatestEdition {
		t.Errorf("a new game is of edition %d, want %d", s.Edition, rules.LatestEdition)
	}
	if err := (Rules{}).Opening(s, testDice{rand.New(rand.NewSource(7))}); err != nil {
		t.Errorf("the opening of a new game: %v", err)
	}
	old := s.Clone()
	old.Edition = rules.EditionFirst
	if err := (Rules{}).Opening(old, testDice{rand.New(rand.NewSource(7))}); err != nil {
		t.Errorf("the opening of a game of edition 0: %v", err)
	}
	if err := (Rules{}).Opening(old, testDice{rand.New(rand.NewSource(8))}); err == nil {
		t.Error("an opening other dice do not create passes")
	}
}
