package autoplay

import "github.com/attu-pbem/attu/adjudicator"

// The setup waits (rule 12). The Japanese set up at random where the free
// setup allows (adjudicator.State.PlanJPSetup: every landing zone covered,
// the guns where 12.4 puts them), and place the victory point chits in a
// random order when they place them; the U.S. splits its units at random
// among the zones open to them, mostly where they still fit, holds some
// back and now and then delays the landing with the free setup
// (adjudicator.State.PlanLanding).
//
// What each side decides from: the Japanese from the map and their own
// units; the U.S. from its own units and where the Japanese counters stand
// (a zone they hold or whose hexes they are next to is closed, 9.2).

// jpSetup answers the Japanese setup wait.
func jpSetup(s *adjudicator.State, pick func(int) int) adjudicator.Orders {
	o := s.DefaultOrders()
	js := s.PlanJPSetup(pick)
	o.JPSetup = &js
	if len(adjudicator.CheckOrders(s, o)) > 0 {
		// The plan is legal by construction; should the map defeat it,
		// the default is what a missed deadline stands for.
		return s.DefaultOrders()
	}
	return o
}

// usLanding answers the U.S. landing wait.
func usLanding(s *adjudicator.State, pick func(int) int) adjudicator.Orders {
	o := s.DefaultOrders()
	l := s.PlanLanding(pick)
	o.Landing = &l
	if len(adjudicator.CheckOrders(s, o)) > 0 {
		return s.DefaultOrders()
	}
	return o
}
