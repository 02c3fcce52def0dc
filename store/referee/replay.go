package referee

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/templates"
)

// replayAttachments is the replay page of a game of sys that has ended
// (System.ReplayPage), for the final report: one HTML file that shows
// the game step by step and checks every die against the revealed seed in
// the player's browser. A page that cannot be made is logged and left
// out: the export is attached anyway, and the game must end all the same.
func (s *Service) replayAttachments(sys System, x *store.Export, name string, luck *store.Luck) []store.Attachment {
	r, err := Replay(sys, x, luck)
	var page []byte
	if err == nil {
		r.Name = name
		page, err = sys.ReplayPage(r)
	}
	if err != nil {
		s.log.Error("no replay page", "game", x.Game, "err", err)
		return nil
	}
	return []store.Attachment{{Name: "attu-" + x.Game + ".html", Type: "text/html", Data: page}}
}

// Replay returns what the replay page of the game x shows
// (System.ReplayPage): each log entry's canonical JSON, what it
// records, and the position after it, replayed by the rules of sys from
// the opening with the dice the entry recorded, following rollbacks; and
// the dice. luck is the game's dice-luck summary when its record is known
// sound, else nil. It checks nothing (the page checks the dice and the
// chain in the browser); a replay that breaks down keeps the last
// position it reached and says where it stopped.
func Replay(sys store.Rules, x *store.Export, luck *store.Luck) (*templates.Replay, error) {
	if len(x.Log) == 0 {
		return nil, errors.New("referee: replay: the export has no log")
	}
	opening, err := sys.Position(x.InitialState) // read, not judged: a forged opening is shown as it is
	if err != nil {
		return nil, fmt.Errorf("referee: replay: the opening position: %w", err)
	}
	r := &templates.Replay{Game: x.Game, Scenario: x.Scenario, Commitment: x.Commitment, Seed: x.Seed, Head: x.Head}
	if luck != nil {
		var b bytes.Buffer
		luck.WriteText(&b)
		r.LuckText = b.String()
	}
	rolls := make(map[uint64]store.Roll, len(x.Dice))
	for _, d := range x.Dice {
		rolls[d.Seq] = d
		r.Dice = append(r.Dice, templates.ReplayDie{Seq: d.Seq, Entry: d.Entry, Die: d.Die, Faces: d.Faces, Raw: d.Raw, Face: d.Face})
	}
	// The positions after each entry, by its number; live are the
	// entries in force, as the audit follows them.
	states := map[uint64]adjudicator.Position{}
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
		re := templates.ReplayEntry{JSON: string(c), Hash: xe.Hash, Entry: entryOf(e, e.To, xe.RolledBackBy),
			DiceFrom: e.DiceFrom, DiceTo: e.DiceTo, Events: splitEvents(e.Events)}
		var st adjudicator.Position
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
				if out, err := replayStep(sys, st, e, rolls); err != nil {
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
	return min(max(roll.Face, 1), roll.Sides())
}

// replayStep resolves an orders entry from the position before it, top,
// with the dice the entry recorded, by the rules of sys.
func replayStep(sys store.Rules, top adjudicator.Position, e *store.Entry, rolls map[uint64]store.Roll) (out adjudicator.Position, err error) {
	defer func() {
		// An export altered by hand can lead the rules where no real
		// game goes.
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("the rules broke down: %v", r)
		}
	}()
	o, err := sys.Orders(e.Orders)
	if err != nil {
		return nil, err
	}
	// The rules take a copy of their own: top is still the position of
	// the entry before, which a rollback may return to.
	b, err := json.Marshal(top)
	if err != nil {
		return nil, err
	}
	in, err := sys.Position(b)
	if err != nil {
		return nil, err
	}
	dice := &replayDice{rolls: rolls, next: e.DiceFrom, to: e.DiceTo}
	out, _, refused := sys.Resolve(in, o, dice)
	switch {
	case refused != nil && len(refused.Problems) > 0:
		return nil, fmt.Errorf("the rules refuse its orders: %s", refused.Problems[0].Msg)
	case refused != nil:
		return nil, errors.New("the rules refuse its orders")
	case out == nil:
		return nil, errors.New("no position")
	case dice.short:
		return nil, errors.New("it needs more dice than it recorded")
	}
	return out, nil
}
