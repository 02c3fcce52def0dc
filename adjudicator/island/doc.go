// Package island is the rules engine of SPI's Island War standard rules
// (1975; cases 4.0 to 10.13), shared by Bloody Ridge, Saipan, Leyte and
// Okinawa. How it reads the rules where they are silent is the "Island
// War" section of RULINGS.md, cited in the code as IW1, IW2, ...; the
// rules themselves are cited by case number (`// rule 7.74`).
//
// # Basics
//
// A game's map, order of battle and exclusive rules come in a Scenario
// (scenario.go), checked elsewhere (orders/island). New indexes it into an
// Engine. Start gives the first Position; Deploy takes each side's set-up
// in areas; then each Player-Turn is Move (the Movement Phase) and Combat
// (the Combat Phase), or both at once with PlayerTurn. Verdict judges a
// position by the victory conditions.
//
// The package does no I/O. Every function takes a position and returns a
// new one, never changing its argument; dice are a parameter (Dice, one
// roll per attack, named by a Die), so a game replays exactly from its
// orders and rolls. Orders that break a rule come back as Problems citing
// it, and then nothing changes. Events report what happened, each attack
// with its totals, line, column, die, result, retreats, displacements,
// removals and advances. A Position marshals to canonical JSON.
//
// # Orders and waits
//
// The phasing player's Orders carry his moves and his attacks in the order
// they are resolved; the defender's Defence carries his final protective
// fire plans, his retreat and displacement preferences and whether he
// advances after an attacker's defeat. What a player leaves out is decided
// by fixed defaults (IW21), so a mail turn needs one order file per player
// and Player-Turn, and a second wait only for a defender who wants to see
// the attacks first (CheckAttacks tells whether they stand).
//
// # Caveats
//
// The engine trusts its scenario: run the scenario checker first. Hexes
// are "CCRR" ids (scenario.go explains the grid).
package island
