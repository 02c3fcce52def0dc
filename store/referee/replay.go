package referee

import (
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// replayAttachment is the replay page of a game that has ended
// (templates.ReplayPage), for the final report: one HTML file that shows
// the game step by step and checks every die against the revealed seed in
// the player's browser, for players who will not install attu to run
// "attu audit". It is named after the game, beside the export.
func replayAttachment(x *store.Export) (store.Attachment, error) {
	page, err := templates.ReplayPage(x)
	if err != nil {
		return store.Attachment{}, err
	}
	return store.Attachment{Name: "attu-" + x.Game + ".html", Type: "text/html", Data: page}, nil
}
