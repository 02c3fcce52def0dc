package autoplay

import (
	"fmt"
	"strings"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// The setup waits (rule 12). The Japanese set up at random where the free
// setup allows (wind.State.PlanJPSetup: every landing zone covered,
// the guns where 12.4 puts them), and place the victory point chits in a
// random order when they place them; the U.S. splits its units at random
// among the zones open to them, mostly where they still fit, holds some
// back and now and then delays the landing with the free setup
// (wind.State.PlanLanding).
//
// What each side decides from: the Japanese from the map and their own
// units; the U.S. from its own units and where the Japanese counters stand
// (a zone they hold or whose hexes they are next to is closed, 9.2).

// jpSetup answers the Japanese setup wait.
func jpSetup(s *wind.State, pick func(int) int) wind.Orders {
	o := s.DefaultOrders()
	js := s.PlanJPSetup(pick)
	o.JPSetup = &js
	if len(wind.CheckOrders(s, o)) > 0 {
		// The plan is legal by construction; should the map defeat it,
		// the default is what a missed deadline stands for.
		return s.DefaultOrders()
	}
	return o
}

// usLanding answers the U.S. landing wait.
func usLanding(s *wind.State, pick func(int) int) wind.Orders {
	o := s.DefaultOrders()
	l := s.PlanLanding(pick)
	o.Landing = &l
	if len(wind.CheckOrders(s, o)) > 0 {
		return s.DefaultOrders()
	}
	return o
}

// DeployHistoric places the Japanese as rule 12.3 does: the sixteen Unknown
// units on their hexes (which on which is drawn), the artillery on
// theirs, all face down, the infantry in the pool (2.5). The U.S. stands
// in for the landing of rule 12.5, which the engine does not play yet:
// its units are placed near the landing zones as Deploy does,
// off the Japanese hexes and the victory hexes.
func DeployHistoric(s *wind.State, pick func(int) int) error {
	Deploy(s, pick)
	setup := s.Map().Setup
	cs := s.Counters()
	unknown := cs.Of(wind.JP, wind.Unknown)
	if len(unknown) != len(setup.HistoricUnknown) {
		return fmt.Errorf("%d Unknown units for %d historic hexes (rule 12.3)", len(unknown), len(setup.HistoricUnknown))
	}
	for i := len(unknown) - 1; i > 0; i-- {
		j := pick(i + 1)
		unknown[i], unknown[j] = unknown[j], unknown[i]
	}
	at := map[string]wind.Hex{}
	for i, id := range unknown {
		at[id] = setup.HistoricUnknown[i]
	}
	var guns20, guns75 []string
	for _, id := range cs.Of(wind.JP, wind.Artillery) {
		if strings.HasPrefix(id, "20") {
			guns20 = append(guns20, id)
		} else {
			guns75 = append(guns75, id)
		}
	}
	if len(guns20) != len(setup.Historic20mm) || len(guns75) != len(setup.Historic75mm) {
		return fmt.Errorf("the artillery does not match the historic hexes (rule 12.3)")
	}
	for i, id := range guns20 {
		at[id] = setup.Historic20mm[i]
	}
	for i, id := range guns75 {
		at[id] = setup.Historic75mm[i]
	}
	// The U.S. has not landed on a victory hex or a Japanese one.
	barred := map[wind.Hex]bool{}
	for _, h := range at {
		barred[h] = true
	}
	for _, vh := range s.Map().VictoryHexes {
		barred[vh.Hex] = true
	}
	for _, u := range s.Units {
		switch {
		case u.Side() == wind.JP:
			if h, ok := at[u.ID]; ok {
				if err := s.Place(u.ID, h, ""); err != nil {
					return err
				}
				u.FaceDown = true
			} else if err := s.Place(u.ID, 0, wind.BoxPool); err != nil {
				return err
			}
		case u.OnMap() && barred[u.Hex]:
			if err := s.Place(u.ID, 0, wind.BoxReinforcements); err != nil {
				return err
			}
		}
	}
	return nil
}
