package island

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"

	iw "github.com/attu-pbem/attu/adjudicator/island"
)

// WriteOrders writes o as an order file of game with token, in the shape
// ReadOrders reads: the one writer of the format, for the files the
// server writes when a deadline passes and for its stand-in.
func WriteOrders(game, token string, o Orders) ([]byte, error) {
	y := fileYAML{Game: game, Token: token, Turn: o.Turn, Wait: string(o.Wait), Now: o.Now, Setup: o.Setup}
	switch o.Side.String() {
	case "us", "jp":
		y.Side = o.Side.String()
	default:
		return nil, fmt.Errorf("orders of side %s", o.Side)
	}
	if p := o.Play; p != nil {
		for _, m := range p.Moves {
			y.Moves = append(y.Moves, moveYAML{Unit: m.Unit, Path: m.Path})
		}
		for _, a := range p.Attacks {
			ay := attackYAML{Defenders: a.Defenders, Attackers: a.Attackers, Barrage: a.Barrage, GSP: a.GSP, Banzai: a.Banzai, Removals: a.Removals}
			for _, v := range a.Advance {
				ay.Advance = append(ay.Advance, advanceYAML{Unit: v.Unit, To: &v.To})
			}
			y.Attacks = append(y.Attacks, ay)
		}
		y.Own = ownOut(p.Own)
	}
	if d := o.Defence; d != nil {
		y.Defence = &defenceYAML{FPF: fpfOut(d.FPF), Own: ownOut(d.Own), Advance: d.Advance}
	}
	if s := o.Standing; s != nil {
		y.Standing = &standingYAML{Ask: s.Ask, FPF: fpfOut(s.Defence.FPF), Own: ownOut(s.Defence.Own), Advance: s.Defence.Advance}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(y); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	// A wait that asks for a part the orders leave empty still names it,
	// so that the file reads back as the same answer.
	switch {
	case o.Wait == WaitSetup && len(o.Setup) == 0:
		out = append(out, "setup: {}\n"...)
	case o.Wait == WaitDefence && y.Defence != nil && y.Defence.FPF == nil && y.Defence.Own == nil && !y.Defence.Advance:
		out = bytes.Replace(out, []byte("defence: {}\n"), nil, 1)
		out = append(out, "defence: {}\n"...)
	case o.Wait == WaitDefence && y.Defence == nil:
		out = append(out, "defence: {}\n"...)
	}
	return out, nil
}

func ownOut(o iw.Instructions) *ownYAML {
	if len(o.Retreats) == 0 && len(o.Order) == 0 && len(o.Displace) == 0 {
		return nil
	}
	out := &ownYAML{Order: o.Order, Displace: o.Displace}
	for id, r := range o.Retreats {
		if out.Retreats == nil {
			out.Retreats = map[string]retreatYAML{}
		}
		out.Retreats[id] = retreatYAML{Paths: r.Paths, Toward: r.Toward}
	}
	return out
}

func fpfOut(ps []iw.FPFPlan) []fpfYAML {
	var out []fpfYAML
	for _, p := range ps {
		out = append(out, fpfYAML{Protect: p.Protect, Artillery: p.Artillery, GSP: p.GSP, MinDifferential: p.MinDifferential, OnlyBanzai: p.OnlyBanzai})
	}
	return out
}
