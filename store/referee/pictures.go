package referee

import (
	"fmt"
	"sync"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// A report's map picture is not drawn inside the transaction that queues
// its mail. The mail is queued with the picture's recipe alone (the entry
// whose position and events it shows, and the side: see
// store.Attachment.ToDraw), and the picture is drawn meanwhile on a
// goroutine of its own, while the transaction compresses the bodies and
// commits; the sender takes it from here (Draw). A picture is a function
// of its recipe, so one drawn for a transaction that is rolled back is
// never wrong for a mail that names it, and after a restart, or when a
// drawing was dropped, Draw draws it again from the log, byte for byte.

// maxDrawings bounds the pictures kept for mails not sent yet: a mail is
// sent a moment after it is queued, so only a burst, or mails whose
// transaction was rolled back, leave more than a few.
const maxDrawings = 24

// drawing is a picture being drawn for the mail that will carry it.
type drawing struct {
	done chan struct{} // closed once png and err are set
	png  []byte
	err  error
}

// drawings are the pictures drawn for mails not sent yet, by Message-ID
// (which is random, so never that of another mail).
type drawings struct {
	mu    sync.Mutex
	m     map[string]*drawing
	order []string
}

func (d *drawings) put(messageID string, dr *drawing) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[string]*drawing{}
	}
	for len(d.order) >= maxDrawings {
		delete(d.m, d.order[0])
		d.order = d.order[1:]
	}
	d.m[messageID] = dr
	d.order = append(d.order, messageID)
}

// take removes and returns the drawing for a mail, nil when there is none.
func (d *drawings) take(messageID string) *drawing {
	d.mu.Lock()
	defer d.mu.Unlock()
	dr := d.m[messageID]
	if dr != nil {
		delete(d.m, messageID)
		for i, id := range d.order {
			if id == messageID {
				d.order = append(d.order[:i], d.order[i+1:]...)
				break
			}
		}
	}
	return dr
}

// drawAll draws the pictures of reports in turn on a goroutine of its own,
// each once made[i] is closed, and returns their drawings at once; a nil
// made[i] has none. One after the other, they share one picture's buffers.
func drawAll(reports []*templates.Report, made []chan struct{}) []*drawing {
	drs := make([]*drawing, len(reports))
	for i, c := range made {
		if c != nil {
			drs[i] = &drawing{done: make(chan struct{})}
		}
	}
	go func() {
		for i, dr := range drs {
			if dr == nil {
				continue
			}
			<-made[i]
			dr.png, dr.err = reports[i].PNG()
			close(dr.done)
		}
	}()
	return drs
}

// Draw gives the attachments of m that were queued without their bodies
// (store.Attachment.ToDraw) their pictures: the one drawn when the mail
// was queued, or, when there is none (the daemon was restarted since),
// drawn again from the game's log. It changes nothing in the store.
func (s *Service) Draw(m *store.Mail) error {
	_, err := s.draw(m, true)
	return err
}

// DrawFresh is Draw for a mail whose transaction may not have committed
// yet: it gives m only the pictures drawn when it was queued, waiting for
// them, and never reads the store. False when one is missing (it was
// taken, or the daemon restarted): Draw will draw it.
func (s *Service) DrawFresh(m *store.Mail) bool {
	ok, _ := s.draw(m, false)
	return ok
}

// draw is Draw, drawing again from the log only when fromLog is set; false
// when a picture is left to draw.
func (s *Service) draw(m *store.Mail, fromLog bool) (bool, error) {
	for i := range m.Attachments {
		a := &m.Attachments[i]
		if !a.ToDraw() {
			continue
		}
		var png []byte
		if dr := s.drawings.take(m.MessageID); dr != nil {
			if <-dr.done; dr.err == nil {
				png = dr.png
			}
		}
		if png == nil {
			if !fromLog {
				return false, nil
			}
			var err error
			if png, err = s.redraw(m.Game, *a); err != nil {
				return false, fmt.Errorf("referee: mail %d: %s: %w", m.ID, a.Name, err)
			}
		}
		a.Data, a.Dropped, a.Size = png, false, len(png)
	}
	return true, nil
}

// redraw draws the picture of attachment a of a mail of game again from
// the database (drawAgain), as its side sees it.
func (s *Service) redraw(game string, a store.Attachment) ([]byte, error) {
	return drawAgain(game, a, a.DrawnFor, dbLog{s.db, game})
}

// gameLog reads a game's positions and entries: a store.Txn, or dbLog.
type gameLog interface {
	StateAt(seq uint64) (*adjudicator.State, error)
	Entry(seq uint64) (*store.Entry, error)
}

// dbLog is gameLog over the database, each read in a transaction of its
// own.
type dbLog struct {
	db   *store.DB
	game string
}

func (l dbLog) StateAt(seq uint64) (*adjudicator.State, error) { return l.db.Snapshot(l.game, seq) }

func (l dbLog) Entry(seq uint64) (*store.Entry, error) {
	es, err := l.db.Log(l.game, seq)
	if err != nil {
		return nil, err
	}
	if len(es) == 0 || es[0].Seq != seq {
		return nil, fmt.Errorf("no log entry %d", seq)
	}
	return es[0].Entry, nil
}

// drawAgain draws the picture attachment a records again, as side sees
// it: from the position after the entry it names and, when it says so,
// that entry's events, read from log. The same inputs through the same
// drawing code give the same bytes as when it was first drawn.
func drawAgain(game string, a store.Attachment, side adjudicator.Side, log gameLog) ([]byte, error) {
	st, err := log.StateAt(a.DrawnAt)
	if err != nil {
		return nil, err
	}
	var evs []adjudicator.Event
	if a.DrawnEvents {
		e, err := log.Entry(a.DrawnAt)
		if err != nil {
			return nil, err
		}
		evs = e.Events
	}
	return pictureOf(game, st, side, evs).PNG()
}

// pictureOf is what a report's picture is drawn from: the game's id, the
// map, side's view of st and its version of the events evs. sideReport
// fills the same fields the same way.
func pictureOf(game string, st *adjudicator.State, side adjudicator.Side, evs []adjudicator.Event) *templates.Report {
	return &templates.Report{Game: templates.Game{ID: game}, Map: st.Map(), View: st.View(side),
		Events: adjudicator.VisibleEvents(evs, side)}
}
