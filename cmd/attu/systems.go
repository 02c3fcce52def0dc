package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	oi "github.com/attu-pbem/attu/orders/island"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/store/tournament"
	"github.com/attu-pbem/attu/templates/island"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// hosted are the game systems attu hosts, the default of new games
// first. Every command that plays, checks, audits or replays a game takes
// its system from here, by the name the game or its export records.
type hosted []referee.System

// hostedSystems are the systems attu hosts, Island War knowing the
// operator's scenario files of dir (none when dir is empty) besides the
// shipped ones. Every file of dir is checked; one that does not is
// refused with its path, line and column, and nothing is hosted.
func hostedSystems(dir string) (hosted, error) {
	if dir == "" {
		return hosted{windsys.Rules{}, island.Rules{}}, nil
	}
	files, err := scenarioFiles(dir)
	if err != nil {
		return nil, err
	}
	return hosted{windsys.Rules{}, island.WithScenarios(files)}, nil
}

// scenarioFiles reads every Island War scenario file of dir by the name
// games are created with: the file's name without its extension. Files
// whose names begin with a dot are left out; every other file must be a
// scenario that checks, named unlike a shipped one.
func scenarioFiles(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("scenarios: %v: give a directory of Island War scenario files", err)
	}
	files := map[string][]byte{}
	from := map[string]string{}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		path := filepath.Join(dir, name)
		scen := strings.TrimSuffix(name, filepath.Ext(name))
		if _, shipped := island.Shipped[scen]; shipped {
			errs = append(errs, fmt.Errorf("%s: %q is the name of a scenario attu ships: rename the file (e.g. %s-own%s)", path, scen, scen, filepath.Ext(name)))
			continue
		}
		if other, ok := from[scen]; ok {
			errs = append(errs, fmt.Errorf("%s: scenario %q is also %s: keep one of the two", path, scen, other))
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", path, err))
			continue
		}
		if _, ps := oi.ParseScenario(data); len(ps) > 0 {
			for _, p := range ps {
				errs = append(errs, fmt.Errorf("%s:%s", path, p))
			}
			continue
		}
		files[scen], from[scen] = data, path
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("scenarios %s: not every file is a sound scenario (attu scenario check FILE says the same); nothing was changed:\n  %w", dir,
			errors.New(strings.ReplaceAll(errors.Join(errs...).Error(), "\n", "\n  ")))
	}
	return files, nil
}

// scenarioFlag is the -scenarios flag of the commands that take their
// systems without a configuration file.
func scenarioFlag(fs *flag.FlagSet) *string {
	return fs.String("scenarios", "", "a directory of the operator's Island War scenario files, besides the shipped ones")
}

// hosted are the systems the command plays by: inside the daemon, the
// daemon's (its configuration's scenarios); else those of dir.
func (s *session) hosted(dir string) (hosted, error) {
	if s.host != nil {
		svc := s.host.Service
		return slices.Clone(hosted(svc.Systems())), nil
	}
	return hostedSystems(dir)
}

// scenarioLister is a hosted system that names the scenarios its games
// are created with.
type scenarioLister interface {
	Scenarios() []string
}

// scenarioLines lists, one line per hosted system, the scenarios a game
// of it can be created with, for the -h of attu new.
func (h hosted) scenarioLines() string {
	var b strings.Builder
	for _, sys := range h {
		if l, ok := sys.(scenarioLister); ok {
			fmt.Fprintf(&b, "  %-16s %s\n", sys.System(), strings.Join(l.Scenarios(), ", "))
		}
	}
	return b.String()
}

// names lists the names of the systems attu hosts.
func (h hosted) names() []string {
	var out []string
	for _, sys := range h {
		out = append(out, sys.System())
	}
	return out
}

// named is the hosted system of that name (empty: the system of the
// games and exports that name none, store.SystemBefore).
func (h hosted) named(name string) (referee.System, error) {
	name = cmp.Or(name, store.SystemBefore)
	for _, sys := range h {
		if sys.System() == name {
			return sys, nil
		}
	}
	return nil, fmt.Errorf("%q is not a game system attu hosts; use %s", name, strings.Join(h.names(), ", "))
}

// carry puts into x what its audit needs besides the log: Island War's
// operator's scenario file (island.Rules.Carry).
func carry(sys referee.System, x *store.Export) error {
	if r, ok := sys.(island.Rules); ok {
		return r.Carry(x)
	}
	return nil
}

// forExport is the system that audits or replays x: the hosted one of
// its name, knowing the scenario file x carries when it carries one.
func (h hosted) forExport(x *store.Export) (referee.System, error) {
	sys, err := h.named(x.SystemName())
	if err != nil {
		return nil, err
	}
	if r, ok := sys.(island.Rules); ok {
		return r.Carried(x)
	}
	return sys, nil
}

// hosting is cfg with every hosted system: the first as the default of
// new games, the others besides.
func (h hosted) hosting(cfg referee.Config) referee.Config {
	cfg.System, cfg.Others = h[0], h[1:]
	return cfg
}

// director is the tournament director of the hosted systems that run
// tournaments (those that are tournament.Games).
func (h hosted) director() *tournament.Director {
	d := &tournament.Director{}
	for _, sys := range h {
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
func (h hosted) tournamentGames() []tournament.Games {
	d := h.director()
	return append([]tournament.Games{d.Games}, d.Others...)
}

// shippedOnly are the systems with the shipped scenarios alone.
func shippedOnly() hosted {
	h, _ := hostedSystems("")
	return h
}

// systemNames lists the names of the systems attu hosts.
func systemNames() []string { return shippedOnly().names() }

// hosting is cfg with every hosted system and the shipped scenarios
// alone.
func hosting(cfg referee.Config) referee.Config { return shippedOnly().hosting(cfg) }
