package orders

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, and every
// refusal must point at a line and column in the file.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../examples/orders/*.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(envelope1 + "actions:\n  - move: {unit: A, path: [2720, 27x9]}\n"))
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
					if kinds(a) != 1 {
						t.Fatalf("activation %d has not exactly one order: %+v", i, a)
					}
					if a.Pos.Line < 1 {
						t.Fatalf("activation %d without a line", i)
					}
				}
				if len(o.Actions) != len(file.Actions) {
					t.Fatal("Orders lost activations")
				}
				continue
			}
			var errs Errors
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

// kinds counts the orders an activation holds.
func kinds(a Action) int {
	n := 0
	for _, set := range []bool{a.Move != nil, a.Fire != nil, a.Melee != nil, a.Air != nil, a.Yamasaki != nil} {
		if set {
			n++
		}
	}
	return n
}
