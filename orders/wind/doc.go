// Package wind reads War in the Wind's order files: the one YAML schema every kind of orders
// uses, mailed by players and written inline in rules cases.
//
// # Basics
//
// [Parse] decodes a file strictly and reports every mistake it finds at
// once, each with its line and column, in words a player can act on, up to
// [orders.MaxErrors]: past that it stops collecting, so a file of thousands of bad
// lines costs no more than one of a hundred. A file
// that decodes becomes [wind.Orders] through [File.Orders]; the
// adjudicator then judges legality and reports [wind.Problem]s, which
// [File.Locate] and [File.Problems] map back to the lines of the file.
//
// Decoding is separate from judging: this package checks the shape of a file
// (known fields, the right kinds of values, hex numbers that are four
// digits), never whether a move is legal. It refuses only what the file
// itself shows to be wrong, so a refusal never tells a player anything about
// the game they could not see.
//
// [orders.DecodeStrict] is the strict decoder behind Parse, exported for other YAML
// inputs that want the same errors (rules cases use it).
//
// # The schema
//
// Every file starts with its envelope: game, side, turn, wait and token
// (a rules case may leave out game, token and turn), and optionally
// now: true, which asks a game with a settle window to apply the file at
// once instead of holding it. The wait says what the
// file answers, one of the kinds a game waits for ([wind.WaitKind]):
//
//   - wait: jp-setup (Japanese only, before the first turn) answers
//     setup: {place: [{unit, hex}], vp: [{hex, value}]}: the free setup
//     of rule 12.4 and the value chits of 14.0 when the Japanese place
//     them; with the historic setup only vp: is written.
//
//   - wait: us-landing (U.S. only, before the first turn) answers
//     landing: {land: [{unit, zone}], delay: false}: the staging zones
//     of rules 12.5 and 12.6, in the order the units land, or
//     landing: {delay: true} to land a turn later (12.6).
//
//   - wait: actions (the default) lists activations under actions:, in the
//     order they are carried out. Each is one of
//     move: {unit, path}, fire: {units, target, spotter, target_unit},
//     melee: {units, target}, air: [{hex, factors}, ...] (every air attack
//     of the turn in one activation, rule 8.1.6) and
//     yamasaki: {hex, moves: [{unit, path}, ...]} (Japanese only, rule 11.3).
//     actions: [] does nothing this turn.
//
//   - wait: us-decision (U.S. only) answers decision: {refit, night}
//     (rules 3.1, 3.2) and holds no activations. With refit: true it may
//     also carry the refit orders under refit:, as in us-refit.
//
//   - wait: us-refit (U.S. only) answers refit: {restore: [{unit, steps}],
//     land: [{unit, zone}], independents: [unit], depots: [unit]} (rules
//     9.1 to 9.4); every list may be left out, refit: {} does nothing.
//
//   - wait: jp-refit (Japanese only) answers refit: {hide: [unit],
//     move: [{unit, to}], swap: [{hex, place: [{unit, to}]}]} (rules 9.5,
//     9.6).
//
// Any file may carry standing: with the fields of [wind.Standing] in
// snake_case; only the fields written change. They are judged
// with [wind.Standing.Check] for the file's side as they are read,
// each complaint at the value it is about.
//
// # Where problems point
//
// [wind.Problem.Step] indexes the part of an activation at fault,
// which [Action.Steps] locates: the hexes of a move's path, the units of a
// fire or a melee, the attacks of an air activation. For a Yamasaki
// activation [wind.Problem.Move] counts its moves from 1 and Step then
// indexes that move's path ([Action.Moves]); Move 0 means the activation as
// a whole. In refit and setup orders [wind.Problem.Part] names the
// list (restore, land, independents, depots, hide, move, swap, place, vp)
// and Step its entry; for a swap, Place counts its placements from 1.
// Keys of decision, refit, setup, landing and standing are found with
// [File.Field], as "decision.night", "refit.land" or
// "standing.retreat_at".
//
// # Caveats
//
// Some YAML syntax errors are reported by the YAML library on a line near the
// mistake rather than on it (an unclosed "[" is reported where it opened).
package wind
