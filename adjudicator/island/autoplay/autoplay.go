// Package autoplay is a player of random legal Island War orders, for soak
// tests and for trying scenarios: it sets up, moves, attacks and defends at
// random, but only as the rules allow, so any problem the engine reports
// about its orders is a bug in one of the two.
//
// Start with Play, which plays one whole Player-Turn. Randomness comes from
// a seed through Rand, a splitmix64 generator written here because the
// rules packages may not import math/rand (adjudicator/purity_test.go): a
// game is the same for the same seed on every machine and Go version.
package autoplay

import (
	"fmt"
	"sort"

	"github.com/attu-pbem/attu/adjudicator/island"
)

// Rand is a splitmix64 generator.
type Rand struct{ s uint64 }

// NewRand gives a generator from a seed.
func NewRand(seed uint64) *Rand { return &Rand{seed} }

// Uint64 gives the next number.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	return mix(r.s)
}

func mix(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Intn gives a number in [0, n); n must be positive.
func (r *Rand) Intn(n int) int { return int(r.Uint64() % uint64(n)) }

// chance reports true one time in n.
func (r *Rand) chance(n int) bool { return r.Intn(n) == 0 }

// Dice rolls each die from the seed and what the die is for, so that a
// replay rolls the same whatever orders came before.
type Dice uint64

// Roll gives 1 to 6.
func (d Dice) Roll(die island.Die) int {
	x := uint64(d) ^ uint64(die.Turn)<<40 ^ uint64(die.Combat)<<20 ^ uint64(die.Attack)
	if die.Side == island.Japan {
		x ^= 1 << 60
	}
	return int(mix(x+0x9e3779b97f4a7c15)%6) + 1
}

// sortedHexes gives a map's hexes in id order, for determinism.
func sortedHexes[V any](m map[island.Hex]V) []island.Hex {
	out := make([]island.Hex, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// Deploy places the setting-up side's area units on random free hexes of
// their areas.
func Deploy(e *island.Engine, p island.Position, r *Rand) map[string]island.Hex {
	taken := map[island.Hex]bool{}
	for _, pc := range p.Pieces {
		if pc.Where == island.OnMap {
			taken[pc.Hex] = true
		}
	}
	out := map[string]island.Hex{}
	for _, pl := range e.ToPlace(p, p.Phasing) {
		var free []island.Hex
		for _, h := range e.S.Areas[pl.Area] {
			if !taken[h] {
				free = append(free, h)
			}
		}
		if len(free) > 0 {
			h := free[r.Intn(len(free))]
			taken[h] = true
			out[pl.Unit] = h
		}
	}
	return out
}

// Moves gives random moves for the phasing side: each unit, in a random
// order, stays or goes to a random hex it can reach that no friend will
// hold at the end of the phase (rule 5.31).
func Moves(e *island.Engine, p island.Position, r *Rand) []island.Move {
	held := map[island.Hex]bool{}
	var ids []string
	for i, pc := range p.Pieces {
		if e.S.Units[i].Side != p.Phasing {
			continue
		}
		if pc.Where == island.OnMap {
			held[pc.Hex] = true
		}
		if pc.Where == island.OnMap || (pc.Where == island.Waiting && pc.Due > 0 && pc.Due <= p.Turn) {
			ids = append(ids, pc.ID)
		}
	}
	shuffle(r, ids)
	var moves []island.Move
	for _, id := range ids {
		if r.chance(3) {
			continue
		}
		reach := e.Reach(p, id)
		var ok []island.Hex
		for _, h := range sortedHexes(reach) {
			if !held[h] {
				ok = append(ok, h)
			}
		}
		if len(ok) == 0 {
			continue
		}
		to := ok[r.Intn(len(ok))]
		if pc, _ := e.Piece(p, id); pc.Where == island.OnMap {
			delete(held, pc.Hex)
		}
		held[to] = true
		moves = append(moves, island.Move{Unit: id, Path: reach[to]})
	}
	return moves
}

func shuffle[T any](r *Rand, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// Play plays one whole Player-Turn with random orders for the phasing side
// and a random Defence for the other, and returns what the engine returns.
// It is an error if the engine refuses the random orders: they are meant
// to be legal.
func Play(e *island.Engine, p island.Position, r *Rand, dice island.Dice) (island.Position, []island.Event, error) {
	o := island.Orders{Moves: Moves(e, p, r)}
	q, evs, ps := e.Move(p, o)
	if len(ps) > 0 {
		return p, nil, fmt.Errorf("%s: moves refused: %v", p, ps)
	}
	o.Attacks = Attacks(e, q, r)
	o.Own = Instructions(e, q, q.Phasing, r)
	d := Defence(e, q, r)
	q2, evs2, ps := e.Combat(q, o, d, dice)
	if len(ps) > 0 {
		return p, nil, fmt.Errorf("%s: attacks refused: %v", q, ps)
	}
	return q2, append(evs, evs2...), nil
}
