// Package island is SPI's Island War standard rules as the game service
// plays them by mail: the system value Rules (store.Rules and
// referee.System), its positions and order files, and its words — each
// side's report, order template, map picture, log lines and replay page.
// The rules themselves are adjudicator/island's; the order files are read
// by orders/island; how a Player-Turn goes by mail is RULINGS.md IW22 to
// IW27.
//
// # Basics
//
// A game waits for a set-up, for the phasing player's orders (his moves
// and attacks together) or, when the defender's standing instructions ask
// for it, for the defender's answer to the declared attacks (Position.Wait).
// Resolve plays a file through the engine: Deploy, Move, Combat, with the
// dice of the host (one d6 per attack, rolled in the open).
//
// # Scenarios
//
// A game's position carries its scenario's name and the SHA-256 of the
// scenario file (Ref). Rules holds a catalog: the files attu ships
// (Shipped, embedded from examples/island-war, so the documented example
// is the very file games are played with) and the operator's own
// (WithScenarios). A position is read back with the file of the catalog
// whose hash it names, whatever its name now, and never with a file
// changed since the game began: an export audits on any machine whose
// attu has that file, and says which file it needs on one that has not.
//
// # Hidden information
//
// Positions hold each side's standing instructions and the pending
// orders between the orders and defence waits (IW26). Nothing of them
// leaves the server but through Report, Template and Picture, which read
// only a view (report.go): the open position, events, the declared
// attacks without their advances, removals and retreats, and the
// reader's own standing instructions.
//
// # Caveats
//
// The Game-Turn's dates on the
// scenario's track are not read by the scenario reader, so Date names a
// turn by its number.
package island
