// Package standin is a stand-in player for Island War: it plays one side
// of a game from what that side may know, for a player who is missing, for
// solitaire play and for measuring the engine's scenarios against a
// reasonable opponent.
//
// Island War is a game of open information (every unit, value and die is
// on the table) except for the enemy's pending orders and his standing
// instructions (his island.Defence), which the stand-in never reads: each
// entry point takes the engine, a position and the side it plays, and
// nothing else about the enemy.
//
// # Entry points
//
//   - Deploy gives the set-up placements of the side placing its units.
//   - Orders gives the phasing side's moves, attacks (in the order they
//     are resolved) and its own retreat instructions.
//   - Defence gives the non-phasing side's standing instructions for the
//     enemy's coming Player-Turn: final protective fire with conditions,
//     retreats and the advance policy.
//
// Each is deterministic: the same inputs give the same answer, the seed
// being its only randomness (it breaks ties). Start reading at Orders
// (orders.go): the moves are planned in move.go (attacks worth moving for
// first, then every other unit toward the scoring hexes), the combat
// orders in attack.go, the standing instructions in defence.go; the
// judgement of a single attack is in odds.go, the worth of hexes and
// units in goals.go.
//
// # Caveats
//
// It plays by fixed judgement rather than search: one Player-Turn at a
// time, valuing hexes by the scenario's victory points and attacks by the
// Combat Results Table's odds. The package does no I/O.
package standin
