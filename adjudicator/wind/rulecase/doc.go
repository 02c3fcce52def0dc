// Package rulecase runs rules cases: small YAML files that pose a position,
// feed it orders and check what the adjudicator made of them.
// The project keeps its cases in testdata/, named AREA-WHAT.yaml (areas:
// move, zoc, stack, los, spot, supply, weather, air, ranged, air-strike,
// unknown, loss, melee, hero, refuse, turn, victory, refit, setup, scenario,
// vp, example), and runs them
// all in go test; "attu sandbox CASE.yaml" runs one.
//
// # Basics
//
// [Parse] decodes a case strictly, reporting every mistake with its line and
// column (as [orders.Errors]); the orders inside a case are decoded by
// package orders, so their mistakes point into the case file too. [Case.Run]
// builds the position, runs the server procedures the case asks for, passes
// each orders file to the adjudicator and checks every expectation, recording
// each difference in words in the [Result]. A case passes only when every
// expectation holds, every orders file it does not expect refused is
// accepted, and every forced die was rolled.
//
// # The file
//
// examples/rules-case.yaml is a commented case using every field. In short:
//
//	name: what the case shows              # required
//	rule: "5.4"                            # the rule(s) exercised
//	description: |                         # what and why, how an example was placed
//	map: builtin                           # or an inline map in the format of adjudicator/wind/data/attu-map.yaml
//	turn: 1                                # default 1
//	weather: cloudy                        # cloudy, rain, fog or williwaw; default cloudy
//	night: false
//	units:                                 # every unit on the map; all others stay unused
//	  - {id: 1/17-A, hex: 2821}            # steps default to full strength
//	  - {id: J01, hex: 2817, face: up}     # Japanese units default to face down
//	supply: {1/17-A: out}                  # force a unit in or out of supply
//	dice: [6, 5]                           # forced dice, in order; all must be rolled
//	roll: [weather, airpower]              # procedures run before the orders
//	orders:                                # orders files, the mailed schema without game and token
//	  - side: us                           # turn and wait default to the case's turn and actions
//	    actions:
//	      - move: {unit: 1/17-A, path: [2720, 2719]}
//	expect:                                # every key optional
//	  refused: ["costs 4 MP"]              # the first orders file is refused with these texts;
//	                                       # or {orders: 2, errors: [...]} for another file
//	  units: [{id: 1/17-A, hex: 2719, steps: 4, face: up}]   # or box: eliminated
//	  mp: {1/17-A: 4}                      # MP spent moving this turn
//	  events: ["1/17-A moves"]             # each a substring of some event as some reader reads it
//	  supply: {1/17-A: in}                 # rule 7
//	  los: [{from: 2619, to: 2717, clear: true, reason: "..."}]   # rule 8.1.2
//	  fire: [{units: [2/32-E], target: 2717, spotter: ID, target_unit: ID, legal: true, reason: "..."}]
//	  weather: rain
//	  air: {us: 2, jp: 1}
//	  zoc: [{hex: 2819, side: us, in: true}]   # is the hex in a ZOC of that side's units
//	  casualties: 0
//	  pool: {on_map: 2, pool: 5, eliminated: 1}   # Japanese infantry units (rule 2.5), by PoolCounts
//	  us_events: ["a hidden Japanese counter"]   # substrings of events the U.S. may read
//	  us_never: [U01, unknown]               # never in what the U.S. reads (any case)
//	  heroes: {martinez: true, arnold: false, yamasaki: false}   # rule 11: spent or not
//	  units: [{id: 105-1, hex: 2619, captured: true}]            # captured U.S. artillery (8.2.1.4)
//
// Melee and the heroes add these keys to a case:
//
//	units:
//	  - {id: 1/17-A, hex: 2618, melee: 2717}   # declared melee against 2717 earlier this turn
//	  - {id: J10, box: pool}                   # off the map in a box instead of a hex;
//	                                           # steps, face, melee and captured are then refused
//	standing:                                  # standing instructions in force
//	  us: {loss_order: [1/17-A], retreat: never, retreat_at: {"2619": always},
//	       advance: strongest, martinez: never, arnold: auto, melee_order: [2717]}
//	  jp: {advance: all, melee_pick: listed, unknown_table: most, unknown_table_at: {"2618": U02}}
//	casualties: 3                              # the U.S. casualty track at the start
//	roll: [melee]                              # the melee step (3.7), run after the orders files
//
// Melee declarations and Colonel Yamasaki's charge are ordinary activations
// of an orders file, as a player mails them:
//
//	orders:
//	  - side: us
//	    actions:
//	      - melee: {units: [1/17-A, 1/17-B], target: 2717}
//	  - side: jp
//	    actions:
//	      - yamasaki: {hex: 2717, moves: [{unit: J01, path: [2618]}]}
//
// # Whole turns and victory
//
// A case that names a phase runs its orders through adjudicator.Resolve,
// as the server does: each file must answer what the game waits for (or is
// refused, naming the wait), and after the second player's actions the
// server steps run (melee, victory, turn advance). Cases without phase pass
// each file to ResolveActions, with no wait checked. An orders file's turn
// defaults to the case's turn, so files after a turn advance name theirs.
//
//	phase: actions                         # or us-decision, us-refit, jp-refit, jp-setup, us-landing
//	waiting: jp                            # whose orders; default the first player (U.S. by day, Japanese at night)
//	casualties: 29                         # the track at the start; 30 ends the game (3.8.2)
//	komandorski: {effect: 27, delay: 2}    # the chits of 12.1; flipped as the turn says (12.1.3)
//	                                       # unless effect_revealed / delay_revealed are given
//	cleared: [E]                           # victory zones carrying a Zone Cleared marker (10.0)
//	units:
//	  - {id: 105-1, hex: 2717, captured: true}   # U.S. artillery taken by the Japanese (8.2.1.4)
//	  - {id: J40, box: pool}                     # Japanese infantry waiting in the pool (2.5)
//	expect:
//	  winner: jp                           # us, jp or none
//	  victory: "rule 3.8.3"                # a substring of why the game was won
//	  phase: ended                         # us-decision, actions, us-refit, jp-refit or ended
//	  waiting: us
//	  turn: 19
//	  cleared: [E]                         # exactly these zones are cleared
//	  komandorski: {effect_revealed: true, delay_revealed: false}
//
// # Refit turns
//
// A refit turn (rule 9) is played by the same orders files, with wait:
// us-refit or jp-refit and refit: (the schema of package orders), or by a
// decision carrying refit:. A case may start in either refit wait:
//
//	phase: us-refit                        # the U.S. refit orders are awaited
//	refit_steps: 4                         # what the loss recovery roll gave (9.1)
//	units:
//	  - {id: 1/32-A, box: reinforcements}  # ready to land (9.2)
//	  - {id: U05, box: offmap}             # an Unknown unit a swap may place (9.6)
//	expect:
//	  refit_steps: 4                       # while the U.S. refit orders are awaited
//
// # Setup, scenarios and victory point chits
//
// A case may start from a game just created (scenario: {name: campaign,
// japanese: free, us: historic, vp_chits: placed, dice: [...]}), pose a
// position under a scenario's rules (scenario: {name: the-linkup, pose:
// true}), pose the chits of rule 14.0 by hand (vp_chits:) and check their
// score (expect.vp); see setup.go.
//
// # Solitaire
//
// A case poses a solitaire game (rule 13) with solitaire:, or creates one
// with scenario: {name: ..., solitaire: true}:
//
//	solitaire:
//	  fixed: [U01]                 # Unknown units on the map that may not move (13.2.1)
//	  placed: [1425, 2011]         # victory hexes whose ad hoc placement is made (13.2.2)
//	  ad_hoc: [J10]                # infantry of an ad hoc placement, fired by the engine
//
// After every U.S. activation the engine makes the ad hoc placement of any
// victory hex not listed in placed with a U.S. unit within four hexes; list
// every victory hex a case is not about.
//
// Rule 3.8.2 ends the game at once when no Japanese infantry or artillery
// is on the map or in the pool, and units not placed stay unused: give a
// turn case some Japanese infantry, on the map or in the pool box, unless
// that victory is what it shows.
//
// # Events
//
// Events are data (adjudicator.Event); their words are the reports', which
// the caller hands to [Case.Run] as [Words] (attu passes
// templates.EventText), so that this package needs nothing of the reports,
// the database or the network. An expected text of events is looked for in the
// words every reader reads: the umpire's, and each player's version
// (adjudicator.Redact), so a case can expect what the U.S. reads of a
// face-down counter as well as what the Japanese read. us_events and
// us_never look only at the U.S. player's version. Result.Text shows the
// umpire's words.
//
// # Caveats
//
// Like the adjudicator, this package does no I/O: callers read the file and
// print the result. The setup waits, the scenarios and the victory point
// chits have their keys in setup.go.
package rulecase
