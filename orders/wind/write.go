package wind

import (
	"encoding/json"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// Write writes orders as a player would mail them: YAML in the order
// template's shape (the envelope, then the decision, refit or actions),
// with the side's token, for every wait (the setup waits of rule 12
// included). Parse reads it back to the same orders.
func Write(game, token string, o wind.Orders) ([]byte, error) {
	type move struct {
		Unit string     `yaml:"unit"`
		Path []wind.Hex `yaml:"path,flow"`
	}
	f := map[string]any{"game": game, "side": o.Side.String(), "turn": o.Turn, "wait": o.Wait, "token": token}
	if d := o.Decision; d != nil {
		f["decision"] = map[string]bool{"refit": d.Refit, "night": d.Night}
	}
	if r := o.Refit; r != nil {
		refit := map[string]any{}
		var restore, land []map[string]any
		for _, e := range r.Restore {
			m := map[string]any{"unit": e.Unit}
			if e.Steps > 0 {
				m["steps"] = e.Steps
			}
			restore = append(restore, m)
		}
		for _, e := range r.Land {
			land = append(land, map[string]any{"unit": e.Unit, "zone": e.Zone})
		}
		if len(restore) > 0 {
			refit["restore"] = restore
		}
		if len(land) > 0 {
			refit["land"] = land
		}
		if len(r.Independents) > 0 {
			refit["independents"] = r.Independents
		}
		if len(r.Depots) > 0 {
			refit["depots"] = r.Depots
		}
		f["refit"] = refit
	}
	if r := o.Rearrange; r != nil {
		refit := map[string]any{}
		place := func(ms []wind.UnknownMove) []map[string]any {
			var out []map[string]any
			for _, m := range ms {
				out = append(out, map[string]any{"unit": m.Unit, "to": m.To})
			}
			return out
		}
		if len(r.Hide) > 0 {
			refit["hide"] = r.Hide
		}
		if len(r.Moves) > 0 {
			refit["move"] = place(r.Moves)
		}
		var swaps []map[string]any
		for _, sw := range r.Swaps {
			swaps = append(swaps, map[string]any{"hex": sw.Hex, "place": place(sw.Place)})
		}
		if len(swaps) > 0 {
			refit["swap"] = swaps
		}
		f["refit"] = refit
	}
	if o.Standing != nil {
		// The standing instructions' JSON names are the file's keys.
		var m map[string]any
		b, err := json.Marshal(o.Standing)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		f["standing"] = m
	}
	// The setup waits of rule 12, as orders/doc.go writes them.
	if su := o.JPSetup; su != nil {
		setup := map[string]any{}
		var place, vp []map[string]any
		for _, p := range su.Place {
			place = append(place, map[string]any{"unit": p.Unit, "hex": p.Hex})
		}
		for _, v := range su.VP {
			vp = append(vp, map[string]any{"hex": v.Hex, "value": v.Value})
		}
		if place != nil {
			setup["place"] = place
		}
		if vp != nil {
			setup["vp"] = vp
		}
		f["setup"] = setup
	}
	if l := o.Landing; l != nil {
		landing := map[string]any{"delay": l.Delay}
		var land []map[string]any
		for _, e := range l.Land {
			land = append(land, map[string]any{"unit": e.Unit, "zone": e.Zone})
		}
		if land != nil {
			landing["land"] = land
		}
		f["landing"] = landing
	}
	if o.Wait == wind.WaitActions {
		acts := []map[string]any{}
		for _, a := range o.Actions {
			switch {
			case a.Move != nil:
				acts = append(acts, map[string]any{"move": move{a.Move.Unit, a.Move.Path}})
			case a.Fire != nil:
				fire := map[string]any{"units": a.Fire.Units, "target": a.Fire.Target}
				if a.Fire.Spotter != "" {
					fire["spotter"] = a.Fire.Spotter
				}
				if a.Fire.TargetUnit != "" {
					fire["target_unit"] = a.Fire.TargetUnit
				}
				acts = append(acts, map[string]any{"fire": fire})
			case a.Melee != nil:
				acts = append(acts, map[string]any{"melee": map[string]any{"units": a.Melee.Units, "target": a.Melee.Target}})
			case a.Air != nil:
				var air []map[string]any
				for _, at := range a.Air.Attacks {
					air = append(air, map[string]any{"hex": at.Hex, "factors": at.Factors})
				}
				acts = append(acts, map[string]any{"air": air})
			case a.Yamasaki != nil:
				var moves []move
				for _, m := range a.Yamasaki.Moves {
					moves = append(moves, move{m.Unit, m.Path})
				}
				acts = append(acts, map[string]any{"yamasaki": map[string]any{"hex": a.Yamasaki.Hex, "moves": moves}})
			}
		}
		f["actions"] = acts
	}
	b, err := yaml.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("writing orders: %w", err)
	}
	return b, nil
}
