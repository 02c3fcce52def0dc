// Package island is the rules engine of SPI's Island War standard rules
// (1975; cases 4.0 to 10.13), shared by Bloody Ridge, Saipan, Leyte and
// Okinawa. A game's map, order of battle and exclusive rules come in a
// Scenario (scenario.go). The package does no I/O: a position, one side's
// orders and a dice source go in; a new position, events and problems come
// out. How the engine reads the rules where they are silent is in the
// "Island War" section of RULINGS.md, cited in the code as IW1, IW2, ...
package island
