package referee

import (
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// replayAttachments is the replay page of a game that has ended
// (templates.ReplayPage), for the final report: one HTML file that shows
// the game step by step and checks every die against the revealed seed in
// the player's browser, for players who will not install attu to run
// "attu audit". It is named after the game, beside the export. A page that
// cannot be made is logged and left out: the export it would be made from
// is attached anyway, and the game must end all the same.
func (s *Service) replayAttachments(x *store.Export) []store.Attachment {
	page, err := templates.ReplayPage(x)
	if err != nil {
		s.log.Error("no replay page", "game", x.Game, "err", err)
		return nil
	}
	return []store.Attachment{{Name: "attu-" + x.Game + ".html", Type: "text/html", Data: page}}
}
