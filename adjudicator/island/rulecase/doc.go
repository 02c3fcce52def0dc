// Package rulecase reads and runs rules cases for the Island War standard
// rules (adjudicator/island), in the manner of War in the Wind's: a case
// poses a position, gives the phasing player's orders, the defender's
// choices and forced dice, and says what must come of them. attu sandbox
// runs a case whose system: key is island-war; this package's tests run
// every case in testdata.
//
// A case, key by key (every key strict, every mistake at its line:col):
//
//	system: island-war
//	name: one line saying what the case shows
//	rule: "7.74, IW9"        # case numbers and rulings; the file is named by the first
//	description: |           # why the expected numbers hold, from the rules
//	scenario: examples/island-war/ridge-42-invented.yaml  # or map:
//	map:                     # a small map with a fixed key:
//	  columns: 8             #   terrain clear (1 MP), town (2, Broken/Town line,
//	  rows: 8                #   armor), broken (2), jungle (2, Broken/Town line),
//	  shifted: even          #   rough (3), sea (impassable); hexsides river (+1 MP,
//	  default: clear         #   River line), road, trail, cliff (prohibited),
//	  terrain: {rough: ["0303"]}             # gully (+1 MP, Rough line)
//	  hexsides: {river: ["0303-0304"]}
//	turn: 1
//	game_turns: 10           # inline maps: 10 unless given
//	first_player: us         # inline maps: the phasing side unless given
//	phasing: us
//	phase: movement          # or combat (the Movement Phase is then over)
//	gsp: {us: 2, japan: 1}   # Ground Support Points left (default: the track's)
//	gsp_range: 0             # an exclusive rule limiting GSP range
//	units:                   # only the units listed are on the map
//	  - {id: U1, side: us, class: infantry, attack: 6, defense: 4, movement: 4, hex: "0302"}
//	  - {id: G1, side: us, class: artillery, barrage: 5, fpf: 3, range: 4, defense: 2, movement: 2, hex: "0101"}
//	  - {id: R1, side: us, class: armor, attack: 4, defense: 2, movement: 6, due: 1, entry: ["0101"]}
//	  # with a scenario: {id: 1/5, hex: "0303", attack: 9} (values override the print);
//	  # facts of earlier play: attacked, defended, advanced, displaced,
//	  # fired_fpf (true: this Combat Phase), adverse: this | last
//	orders:                  # the phasing player's: moves, then attacks in order
//	  moves: [{unit: U1, path: ["0303", "0304"]}]
//	  attacks:
//	    - {defenders: [J1], attackers: [U1], barrage: [G1], gsp: 1, banzai: false,
//	       advance: [{unit: U1, to: "0303"}], removals: [J2]}
//	  own: {retreats: {U1: {paths: [["0301"]], toward: "0101"}}, order: [U1], displace: {U2: ["0201"]}}
//	defence:                 # the non-phasing player's choices
//	  fpf: [{protect: J1, artillery: [JG], gsp: 1, min_differential: 2, only_banzai: false}]
//	  own: {retreats: {...}, order: [...], displace: {...}}
//	  advance: true
//	dice: [3, 5]             # one per attack made, in order; each must be rolled
//	expect:
//	  refused: [{rule: "5.12", unit: U1, reason: "holds an enemy unit"}]
//	  attacks:               # one per attack of the orders, made or skipped
//	    - {attack: 9, defense: 4, differential: 5, line: clear, column: 9, die: 3,
//	       result: D1, skipped: false, artillery_only: false, void: false,
//	       fpf: [JG], fpf_gsp: 1, barrage: [G1], dropped: [], eliminated: [],
//	       removals: [], advances: [{unit: U1, to: "0303"}], unmade: [],
//	       retreats: [{unit: J1, path: ["0304"], eliminated: false,
//	                   displaced: [{unit: J2, from: "0304", to: "0405"}]}]}
//	  units: [{id: U1, hex: "0303"}, {id: J1, eliminated: true}, {id: R1, waiting: true}]
//	  eliminated: [J1]       # exactly the units eliminated by the case's play
//	  facts: [{unit: G1, attacked: true, fired_fpf: false, displaced: false, adverse: true}]
//	  reach: [{unit: U1, includes: ["0304"], excludes: ["0306"]}]  # before the orders
//	  column: [{line: rough, differential: 11, column: 9}]         # the table alone
//	  phase: movement
//	  phasing: japan
//	  turn: 1
//	  gsp: {us: 1}
//	  verdict: {winner: us}
//
// The package does no I/O: a case that names a scenario has it read by the
// Loader its caller gives.
//
// # The project's cases
//
// testdata holds one file or more for every case number of rules 5.0 to
// 10.13 and every ruling IW1 to IW21, each named by the first rule its
// rule: key cites. TestCoverage checks that every case number listed in
// testdata/rules-digest-cases.txt (taken from the rules digest) and every
// ruling is cited; TestRulingsNameTheirCases that RULINGS.md names, under
// each ruling, the cases citing it. The Combat Results Table cases,
// 7.61-crt-*.yaml, are written by testdata/gen/crt-cases.py from its own
// transcription of the digest's table, never from the engine, so that
// they fail if the engine's table is wrong.
package rulecase
