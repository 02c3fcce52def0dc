// Package standin is a player the server can be: one decision-maker for
// either side and every wait of a game (the setup waits of rule 12, the
// U.S. decision, actions, the refit orders of either side), for practice
// games against the server and for a side the umpire hands over.
//
// # Basics
//
// Decide takes what one side may know of a position — its
// adjudicator.View and adjudicator.Outlook, nothing else — and a seed,
// and returns that side's orders for what the outlook says the game waits
// for. It never sees the adjudicator.State: fog of war holds for it by
// construction, as it holds for the reports a person reads, and the
// non-interference test (fog_test.go) checks it over generated games.
// Its choices are heuristics with a little randomness drawn from the seed
// alone, so the same view, outlook and seed give the same orders: the
// server derives the seed from the game's secret seed, and an audit
// replays the choices once that seed is revealed.
//
// Each option an outlook lists is legal on its own; an actions file of
// several activations may still hold one that an earlier activation made
// illegal (a hex filled up by an earlier move). Trim drops such entries,
// asking a check function for the problems — adjudicator.CheckOrders on
// the position, whose refusals tell a side nothing it may not know, as
// they are what a person's refused file is told.
//
// # What it plays for
//
// The U.S. goes for the victory hexes (the scenario's objectives, or those
// it does not hold in the campaign) along the cheapest paths. It reckons
// an anonymous Japanese stack at what a hex can hold — all the Unknown
// units of a hex turn into three infantry at most (2.5) and no hex holds
// more than three platoons (4.2) — so it assaults stacks it can beat
// rather than waiting on piles of counters. It declares melee with odds
// in its favour (a company down to its last step joins an assault but
// never makes one); against an objective even odds will do, and as the
// calendar runs out it goes up to the objectives whatever stands beside
// them, spreads round them so that the assault comes from more hexes
// (6.2), and in the last turn assaults them at any odds. It fires its
// artillery at the stacks it is about to assault or that hold the
// objectives, calling it in through spotters, but fires at no hex where
// fire cannot take a step (the last infantry of a hex, 8.5), and a unit
// beside the enemy moves on when it can get nearer its goals. It strikes
// from the air only where a factor is at least as likely to hit the
// enemy as its own units (8.1.6, 8.3: none at face-down counters, none in
// fog or a williwaw, none by night in rain). After a melee round, or an
// ambush round of the solitaire game, that cost it more than the
// Japanese it withdraws, except from a goal hex. It calls a refit turn before the
// casualty track nears its limit, but none that the calendar leaves no
// time to pay back, and lands its reinforcements near its objectives
// where each zone has room for them: it counts the steps a zone holds and
// may receive this turn, scatters included, by the chances of the scatter
// chart under the turn's weather (landing.go), and leaves at sea a unit
// that would lose a quarter of a step landing in a refit turn, or half a
// step in the opening landing of a free setup (12.6). It never calls a
// night turn: halved movement, -1 to its melee and the Japanese moving
// first (3.2, 5.2, 8.3) help the side that waits.
//
// The Japanese set up freely (12.4) with the fewest covering Unknown
// units the rule asks for by the beaches, one on each victory hex and the
// rest in a second line two hexes out on the side of the beaches
// (setup.go). Until the sixth turn a lone Unknown unit of that ring holds
// its hex: each one the U.S. must assault turns into infantry on its own
// table, where stacked in the victory hex they would give three platoons
// together (2.5); then the ring falls back on the victory hexes, which
// they hold with as many units as stacking allows. A victory hex that
// fire empties of its last Unknown unit takes in another at once. They
// keep their Unknown and face-down units from firing while no U.S. unit
// stands beside them (a shot turns an Unknown unit into infantry and
// shows what a face-down one is, 2.5). An Unknown unit beside U.S. units
// fires at them: it could not leave, and the infantry it turns into hold
// the hex against ranged fire, which never takes a hex's last platoon
// (8.5), where one hit would take the Unknown unit off the map. On the
// last day turn, when nothing is left to hide, the face-down counters
// beside the U.S. assault fire first too. They fire at U.S. units in
// reach from face-up units and counter-attack a victory hex the U.S. has
// taken.
// They strike from the air on the same odds as the U.S., and nowhere an
// Unknown unit is among their units nearest the target, since a die of 2
// or less would take it off the map. In a refit turn they hide what may
// hide, and in the two-player game they regroup (regroup.go, 9.6): the
// Unknown units farther out than the ring move to the victory hexes, two
// to each, and to the empty hexes of the ring, and those that fire took
// off the map come back there by swaps for infantry outside the victory
// hexes.
//
// Where to start: standin.go (Decide, Trim), actions.go (an actions file),
// waits.go (the other waits), setup.go (the free Japanese setup),
// regroup.go (the Japanese refit turn),
// landing.go (where reinforcements land), field.go (the distances it
// steers by). internal/baseline keeps an
// earlier stand-in unchanged, for the strength test to measure against.
package standin
