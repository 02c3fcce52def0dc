package referee

import (
	"encoding/json"
	"fmt"
	"github.com/attu-pbem/attu/templates"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
)

// A report's map picture is queued with its recipe alone (the entry whose
// position and events it shows, and the side: store.Attachment.ToDraw)
// and drawn when the outbox sends the mail (Draw), after the transaction
// committed. A picture is a function of its recipe, so it is the same
// however late, and however often, it is drawn.

// Draw gives the attachments of m queued without their bodies (ToDraw)
// their pictures, drawn from the game's log; the store is left as it is.
func (s *Service) Draw(m *store.Mail) error {
	var sys System
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if !a.ToDraw() {
			continue
		}
		if sys == nil {
			g, err := s.db.Game(m.Game)
			if err != nil {
				return fmt.Errorf("referee: mail %d: %w", m.ID, err)
			}
			if sys, err = s.SystemOf(g); err != nil {
				return fmt.Errorf("referee: mail %d: %w", m.ID, err)
			}
		}
		png, err := drawAgain(sys, m.Game, *a, a.DrawnFor, dbLog{s.db, m.Game})
		if err != nil {
			return fmt.Errorf("referee: mail %d: %s: %w", m.ID, a.Name, err)
		}
		a.Data, a.Dropped, a.Size = png, false, len(png)
	}
	return nil
}

// gameLog reads a game's positions and entries: a store.Txn, or dbLog.
type gameLog interface {
	PositionAt(seq uint64) ([]byte, error)
	Entry(seq uint64) (*store.Entry, error)
}

// dbLog is gameLog over the database, a transaction per read.
type dbLog struct {
	db   *store.DB
	game string
}

func (l dbLog) PositionAt(seq uint64) ([]byte, error) { return l.db.PositionAt(l.game, seq) }

func (l dbLog) Entry(seq uint64) (*store.Entry, error) { return l.db.Entry(l.game, seq) }

// txLog is gameLog in a transaction.
type txLog struct{ t *store.Txn }

func (l txLog) PositionAt(seq uint64) ([]byte, error) { return l.t.PositionAt(seq) }

func (l txLog) Entry(seq uint64) (*store.Entry, error) { return l.t.Entry(seq) }

// drawAgain draws the picture attachment a records again, as side sees
// it, from the position (and events) of the entry it names, read from
// log: the same pixels as when it was first drawn.
func drawAgain(sys System, game string, a store.Attachment, side adjudicator.Side, log gameLog) ([]byte, error) {
	b, err := log.PositionAt(a.DrawnAt)
	if err != nil {
		return nil, err
	}
	st, err := sys.Position(b)
	if err != nil {
		return nil, err
	}
	var evs []json.RawMessage
	if a.DrawnEvents {
		e, err := log.Entry(a.DrawnAt)
		if err != nil {
			return nil, err
		}
		evs = splitEvents(e.Events)
	}
	return sys.Picture(templates.ReportFor{Game: templates.Game{ID: game}, Position: st, Side: side, Events: evs})
}
