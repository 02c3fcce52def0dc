// Package adjudicator is what every game system's rules share with each
// other and with the host: the two sides and the umpire ([Side]), who may see
// a thing ([Audience]), one die as the rules ask for it ([Die]) and where the
// dice come from ([Dice]), what a game waits for ([Wait]), and the hex grid
// ([Hex]). It does no I/O.
//
// Each system's rules live in a package below it, pure and deterministic
// like this one: adjudicator/wind is War in the Wind, adjudicator/island the
// Island War standard rules. The host (packages store, store/referee, mail,
// the daemon) imports this package and never a system's.
//
// # Where to start for a new system
//
// Write the rules as a package adjudicator/NAME: a position, a side's
// orders and a [Dice] in; a new position, typed events and typed problems
// out. Name every die with a Die (its purpose, side and audience) so that
// the store can log it and the audit re-derive it, and say what the game
// waits for with a Wait of the system's own kinds besides [WaitNone] and
// [WaitEnded]. Its order schema goes in orders/NAME and its words in
// templates/NAME.
package adjudicator
