package referee

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/store"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// replayAttachments is the replay page of a game that has ended
// (windsys.ReplayPage), for the final report: one HTML file that shows
// the game step by step and checks every die against the revealed seed in
// the player's browser. A page that cannot be made is logged and left
// out: the export is attached anyway, and the game must end all the same.
func (s *Service) replayAttachments(x *store.Export, name string, luck *store.Luck) []store.Attachment {
	r, err := Replay(x, luck)
	var page []byte
	if err == nil {
		r.Name = name
		page, err = windsys.ReplayPage(r)
	}
	if err != nil {
		s.log.Error("no replay page", "game", x.Game, "err", err)
		return nil
	}
	return []store.Attachment{{Name: "attu-" + x.Game + ".html", Type: "text/html", Data: page}}
}

// Replay returns what the replay page of the game x shows
// (windsys.ReplayPage): each log entry's canonical JSON, what it
// records, and the position after it, replayed from the opening with the
// dice the entry recorded, following rollbacks; and the dice. luck is the
// game's dice-luck summary when its record is known sound, else nil. It
// checks nothing (the page checks the dice and the chain in the browser);
// a replay that breaks down keeps the last position it reached and says
// where it stopped.
func Replay(x *store.Export, luck *store.Luck) (*windsys.Replay, error) {
	if len(x.Log) == 0 {
		return nil, errors.New("referee: replay: the export has no log")
	}
	first, err := Engine().Position(x.InitialState) // read, not judged: a forged opening is shown as it is
	if err != nil {
		return nil, fmt.Errorf("referee: replay: the opening position: %w", err)
	}
	opening := first.(*wind.State)
	r := &windsys.Replay{Game: x.Game, Scenario: x.Scenario, Commitment: x.Commitment, Seed: x.Seed, Head: x.Head}
	if luck != nil {
		var b bytes.Buffer
		luck.WriteText(&b)
		r.LuckText = b.String()
	}
	rolls := make(map[uint64]store.Roll, len(x.Dice))
	for _, d := range x.Dice {
		rolls[d.Seq] = d
		r.Dice = append(r.Dice, windsys.ReplayDie{Seq: d.Seq, Entry: d.Entry, Die: d.Die, Faces: d.Faces, Raw: d.Raw, Face: d.Face})
	}
	// The positions after each entry, by its number; live are the
	// entries in force, as the audit follows them.
	states := map[uint64]*wind.State{}
	var live []uint64
	broken := false
	for i, xe := range x.Log {
		seq := uint64(i + 1)
		c, err := store.Canonical(xe.Entry)
		if err != nil {
			return nil, fmt.Errorf("referee: replay: entry %d: %w", seq, err)
		}
		e := new(store.Entry)
		if err := json.Unmarshal(c, e); err != nil {
			return nil, fmt.Errorf("referee: replay: entry %d: %w", seq, err)
		}
		re := windsys.ReplayEntry{JSON: string(c), Hash: xe.Hash, Entry: entryOf(e, e.To, xe.RolledBackBy),
			DiceFrom: e.DiceFrom, DiceTo: e.DiceTo, Events: EventsOf(e.Events)}
		var st *wind.State
		switch e.Kind {
		case store.KindCreate:
			st = opening
			live = []uint64{seq}
		case store.KindRollback:
			if at := slices.Index(live, e.To); at >= 0 {
				live = live[:at+1]
				st = states[e.To]
			} else {
				st = states[live[len(live)-1]]
			}
			live = append(live, seq)
		default:
			st = states[live[len(live)-1]]
			if e.Kind == store.KindOrders && !broken && len(e.Orders) > 0 {
				if out, err := replayStep(st, e, rolls); err != nil {
					re.Broken, broken = err.Error(), true
				} else {
					st = out
				}
			}
			live = append(live, seq)
		}
		states[seq] = st
		re.Position = st
		r.Entries = append(r.Entries, re)
	}
	return r, nil
}

// replayDice hands a replay the dice an entry recorded, in order.
type replayDice struct {
	rolls map[uint64]store.Roll
	next  uint64
	to    uint64
	short bool
}

func (r *replayDice) Roll(adjudicator.Die) int {
	roll, ok := r.rolls[r.next]
	if !ok || r.next >= r.to {
		r.short = true // the step is then refused, whatever it rolls
		return 1
	}
	r.next++
	return min(max(roll.Face, 1), 10)
}

// replayStep resolves an orders entry from the position before it with
// the dice the entry recorded.
func replayStep(top *wind.State, e *store.Entry, rolls map[uint64]store.Roll) (out *wind.State, err error) {
	defer func() {
		// An export altered by hand can lead the rules where no real
		// game goes.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the rules broke down: %v", r)
		}
	}()
	o, err := EntryOrders(e.Orders)
	if err != nil {
		return nil, err
	}
	dice := &replayDice{rolls: rolls, next: e.DiceFrom, to: e.DiceTo}
	out, _, problems := wind.Resolve(top.Clone(), *o, dice)
	switch {
	case len(problems) > 0:
		return nil, fmt.Errorf("the rules refuse its orders: %s", problems[0].Msg)
	case out == nil:
		return nil, errors.New("no position")
	case dice.short:
		return nil, errors.New("it needs more dice than it recorded")
	}
	return out, nil
}
