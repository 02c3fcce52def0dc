package wind

import (
	"errors"
	"github.com/attu-pbem/attu/orders"
	"os"
	"path/filepath"
	"testing"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, and every
// refusal must point at a line and column in the file.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../examples/orders/*.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(envelope1 + "actions:\n  - move: {unit: A, path: [2720, 27x9]}\n"))
	f.Add([]byte(envelope1 + "actions:\n  - melee: {units: [A, A], target: 27}\n  - air: [{hex: 2717, factors: 0}, {hex: 2717}]\n  - air: []\n"))
	f.Add([]byte(envelopeJP + "actions:\n  - yamasaki: {hex: 2717, moves: [{unit: J1, path: [2718, '']}, {unit: J1}]}\n"))
	f.Add([]byte(decisionUS + "decision: {refit: true, night: true}\nactions: []\n"))
	f.Add([]byte(envelopeJP + "actions: []\nstanding: {retreat_at: {2717: always, 27x7: never}, martinez: auto, melee_order: [2717, 2717]}\n"))
	f.Add([]byte("side: us\nwait: us-decision\ndecision: {night: yes}\nstanding: [x]\n"))
	f.Add([]byte("a: &a [x, x]\nb: [*a, *a]\n"))
	f.Add([]byte("side: us\n---\nside: jp\n"))
	f.Add([]byte("\tside: us\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []Options{{}, {Case: true}} {
			file, err := Parse(data, opt)
			if err == nil {
				if file == nil {
					t.Fatal("nil file without an error")
				}
				o := file.Orders()
				for i, a := range file.Actions {
					if a.Kind() == "" {
						t.Fatalf("activation %d has not exactly one order: %+v", i, a)
					}
					if a.Pos.Line < 1 {
						t.Fatalf("activation %d without a line", i)
					}
				}
				if len(o.Actions) != len(file.Actions) {
					t.Fatal("Orders lost activations")
				}
				if (o.Wait == wind.WaitUSDecision) != (o.Decision != nil) {
					t.Fatalf("wait %s with decision %+v", o.Wait, o.Decision)
				}
				if o.Standing != nil && file.Side != wind.NoSide {
					if bad := o.Standing.Check(file.Side); len(bad) > 0 {
						t.Fatalf("standing accepted with problems: %v", bad)
					}
				}
				continue
			}
			var errs orders.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error is not a non-empty Errors: %v", err)
			}
			for _, e := range errs {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Fatalf("error without a position or message: %+v", e)
				}
			}
		}
	})
}
