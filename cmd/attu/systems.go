package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/store/tournament"
	"github.com/attu-pbem/attu/templates/island"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// systems are the game systems attu hosts, the default of new games
// first. Every command that plays, checks, audits or replays a game takes
// its system from here, by the name the game or its export records.
func systems() []referee.System {
	return []referee.System{windsys.Rules{}, island.Rules{}}
}

// scenarioLister is a hosted system that names the scenarios its games
// are created with.
type scenarioLister interface {
	Scenarios() []string
}

// scenarioLines lists, one line per hosted system, the scenarios a game
// of it can be created with, for the -h of attu new.
func scenarioLines() string {
	var b strings.Builder
	for _, sys := range systems() {
		if l, ok := sys.(scenarioLister); ok {
			fmt.Fprintf(&b, "  %-16s %s\n", sys.System(), strings.Join(l.Scenarios(), ", "))
		}
	}
	return b.String()
}

// systemNames lists the names of the systems attu hosts.
func systemNames() []string {
	var out []string
	for _, sys := range systems() {
		out = append(out, sys.System())
	}
	return out
}

// systemNamed is the hosted system of that name (empty: the system of
// the games and exports that name none, store.SystemBefore).
func systemNamed(name string) (referee.System, error) {
	name = cmp.Or(name, store.SystemBefore)
	for _, sys := range systems() {
		if sys.System() == name {
			return sys, nil
		}
	}
	return nil, fmt.Errorf("%q is not a game system attu hosts; use %s", name, strings.Join(systemNames(), ", "))
}

// hosting is cfg with every hosted system: the first as the default of
// new games, the others besides.
func hosting(cfg referee.Config) referee.Config {
	all := systems()
	cfg.System, cfg.Others = all[0], all[1:]
	return cfg
}

// director is the tournament director of the hosted systems that run
// tournaments (those that are tournament.Games).
func director() *tournament.Director {
	d := &tournament.Director{}
	for _, sys := range systems() {
		if g, ok := sys.(tournament.Games); ok {
			if d.Games == nil {
				d.Games = g
			} else {
				d.Others = append(d.Others, g)
			}
		}
	}
	return d
}

// tournamentGames are the hosted systems a tournament file may name.
func tournamentGames() []tournament.Games {
	d := director()
	return append([]tournament.Games{d.Games}, d.Others...)
}
