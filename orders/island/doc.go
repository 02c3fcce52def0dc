// Package island reads scenario files for SPI's Island War standard rules
// (Bloody Ridge, Saipan, Leyte, Okinawa): the map, Terrain Key, counters,
// Initial Deployment Charts, Turn Record/Reinforcement Track and victory
// conditions that the standard rules leave to each game (rule 3.0), typed
// into YAML by a group that owns the game.
//
// It also reads the players' order files (orders.go): ReadOrders decodes
// the shared envelope and the part its wait asks for (set-up placements,
// a Player-Turn's moves and attacks, the defender's answer) with any
// standing instructions, strictly, every mistake at its line and column
// (RULINGS.md IW22 to IW27). WriteOrders is the one writer of that
// format, for the files the server writes itself (a missed deadline's,
// the stand-in's).
//
// The scenario's entry point is ParseScenario, which returns an
// adjudicator/island.Scenario the rules engine can trust, or every problem
// in the file at its line and column with what to change. The format is
// documented key by key in examples/island-war/README.md; the invented
// examples/island-war/ridge-42-invented.yaml uses all of it.
//
// Reading is two steps. decode.go reads the YAML strictly into the file's
// shape (file.go): unknown keys, repeated keys and values of the wrong kind
// are refused there, and a file that fails it is not checked further. The
// builder (parse.go, grid.go, units.go, victory.go) then checks what the
// values mean — every hex on the grid, every letter and name in the key,
// every unit's values complete for its class, every unit entering play once,
// every turn within the game — and fills the Scenario as it goes.
//
// The strict reading is this package's own (decode.go says why it is not
// package orders' ParseDocument and DecodeStrict: a scenario's answers keep a
// separate "what to change", count list items from 1 and keep the file's
// order of names); it takes from package orders what reads the same for
// every system.
package island
