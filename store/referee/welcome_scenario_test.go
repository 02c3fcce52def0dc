package referee

import (
	"testing"

	"github.com/attu-pbem/attu/adjudicator"
)

// A welcome names the scenario the game is played with: a short scenario's
// players are not told they play the campaign.
func TestWelcomeNamesItsScenario(t *testing.T) {
	for _, sc := range []string{"campaign", "up-the-hogs-back"} {
		h := newHarness(t, NewGame{Scenario: sc})
		welcome := h.newMails()
		for _, side := range []adjudicator.Side{adjudicator.US, adjudicator.JP} {
			m := mailTo(t, welcome, addressOf(side))
			mustContain(t, "the welcome of a game of "+sc, m.Text, ", scenario "+sc+".")
		}
		mustContain(t, "the umpire's welcome of a game of "+sc, mailTo(t, welcome, umpireAddr).Text, "; scenario "+sc+".")
	}
}
