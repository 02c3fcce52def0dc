package referee

import (
	"fmt"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// A report's map picture is queued with its recipe alone (the entry whose
// position and events it shows, and the side: store.Attachment.ToDraw)
// and drawn when the outbox sends the mail (Draw), after the transaction
// committed. A picture is a function of its recipe, so it is the same
// however late, and however often, it is drawn.

// Draw gives the attachments of m queued without their bodies (ToDraw)
// their pictures, drawn from the game's log; the store is left as it is.
func (s *Service) Draw(m *store.Mail) error {
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if !a.ToDraw() {
			continue
		}
		png, err := drawAgain(m.Game, *a, a.DrawnFor, dbLog{s.db, m.Game})
		if err != nil {
			return fmt.Errorf("referee: mail %d: %s: %w", m.ID, a.Name, err)
		}
		a.Data, a.Dropped, a.Size = png, false, len(png)
	}
	return nil
}

// gameLog reads a game's positions and entries: a store.Txn, or dbLog.
type gameLog interface {
	StateAt(seq uint64) (*wind.State, error)
	Entry(seq uint64) (*store.Entry, error)
}

// dbLog is gameLog over the database, a transaction per read.
type dbLog struct {
	db   *store.DB
	game string
}

func (l dbLog) StateAt(seq uint64) (*wind.State, error) { return StateOf(l.db.PositionAt(l.game, seq)) }

func (l dbLog) Entry(seq uint64) (*store.Entry, error) { return l.db.Entry(l.game, seq) }

// txLog is gameLog in a transaction.
type txLog struct{ t *store.Txn }

func (l txLog) StateAt(seq uint64) (*wind.State, error) { return StateOf(l.t.PositionAt(seq)) }

func (l txLog) Entry(seq uint64) (*store.Entry, error) { return l.t.Entry(seq) }

// drawAgain draws the picture attachment a records again, as side sees
// it, from the position (and events) of the entry it names, read from
// log: the same pixels as when it was first drawn.
func drawAgain(game string, a store.Attachment, side adjudicator.Side, log gameLog) ([]byte, error) {
	st, err := log.StateAt(a.DrawnAt)
	if err != nil {
		return nil, err
	}
	var evs []wind.Event
	if a.DrawnEvents {
		e, err := log.Entry(a.DrawnAt)
		if err != nil {
			return nil, err
		}
		evs = EventsOf(e.Events)
	}
	return pictureOf(game, st, side, evs).PNG()
}

// pictureOf is what a report's picture is drawn from: the game's id, the
// map, side's view of st and its version of the events evs. sideReport
// fills the same fields the same way.
func pictureOf(game string, st *wind.State, side adjudicator.Side, evs []wind.Event) *windsys.Report {
	return &windsys.Report{Game: windsys.Game{ID: game}, Map: st.Map(), View: st.View(side),
		Events: wind.VisibleEvents(evs, side)}
}
