// Package wind is the rules of War in the Wind, the wargame of the
// battle for Attu Island (May 1943), as a pure and deterministic library: a
// position ([State]), one side's orders ([Orders]) and a source of dice
// ([Dice]) give a new position and what happened ([Event]). It reads no
// file, clock or network and keeps no global state, so the same position,
// orders and dice always give the same result: a game replays from its log,
// and the rules are tested without a server or a mailbox.
//
// # Entry points
//
//   - [NewGameFrom] creates a game of a scenario with its [Options]; the
//     game then waits for the setup orders of rule 12. [NewGame] is the bare
//     campaign start for a position placed by hand ([State.Place]), as tests
//     and rules cases pose them.
//   - [State.Wait] says what the game waits for: whose orders of which kind
//     ([WaitKind]), or that it is over. [State.DefaultOrders] are the orders
//     that stand when a side misses its deadline.
//   - [Resolve] takes one side's orders at any wait and returns the new
//     position and its events, or the [Problem]s that refuse the file, in
//     which case nothing happened. [CheckOrders] judges a file the same way
//     without running it. [ResolveActions] and [ResolveMelee] are the two
//     halves of a turn on their own, for rules cases.
//   - [State.View] and [State.Outlook] are what one side may know of a
//     position (fog of war); reports, maps and order templates are built
//     from them alone. [Redact] and [VisibleEvents] give a side's version of
//     the events.
//   - [State.Validate] checks a position's invariants; the property tests
//     call it after every step.
//
// The input and output are plain data. A State round-trips through JSON
// ([State.Attach] after decoding); the map and the counter mix are built in
// ([BuiltinMap], [BuiltinCounters], from data/). Dice come from the caller:
// the server derives them from the game's committed seed, tests and rules
// cases force them with [ForcedDice]. Events carry no words; package
// templates words them for the reports.
//
// # Finding a rule
//
// Comments cite the rulebook by number where the code applies a rule:
// grep -rn 'rule 8.2' adjudicator finds the melee. A number repeated within
// one comment is written bare, as (8.2.1.4), so grep for the bare number
// too to find them all. Where the rulebook leaves a choice open, RULINGS.md at the
// root of the repository gives the reading taken, cited as RULINGS.md R49.
// The rules cases in rulecase/testdata show each rule on a small position;
// attu sandbox FILE runs one.
//
// # Where to start reading
//
// turn.go holds the turn as a state machine (the waits in order) and
// Resolve. From there: actions.go carries out an actions file, with
// move.go, fire.go and fire_resolve.go, air.go, melee.go and
// melee_round.go, losses.go and yamasaki.go for each kind of activation;
// weather.go, supply.go and victory.go the steps the server runs; refit*.go
// the refit turn (rule 9); setup*.go, scenario.go and vpchits.go the setup
// and the scenarios (rules 12, 14, 15); solitaire*.go the solitaire rules
// (rule 13), which a game takes with Options.Solitaire. state.go is the position, view.go
// and options.go what a side sees of it, hex.go, mapdata.go, terrain.go and
// los.go the map.
//
// Three packages below build on this one: rulecase runs rules cases
// written in YAML, autoplay is a player of random legal orders for tests
// that play whole games, and standin is the player the server can be,
// deciding from a side's View and Outlook alone.
package wind
