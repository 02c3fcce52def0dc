package rulecase

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/attu-pbem/attu/orders"
	windsys "github.com/attu-pbem/attu/templates/wind"
)

// FuzzParse: no case file, however broken, makes Parse or Run panic, and
// every refusal points at a line and column.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	files = append(files, "../../../examples/rules-case.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("name: x\nmap: {columns: [1, 2], rows: [1, 1], levels: \"00\"}\nunits: [{id: J01, hex: 0101}]\n"))
	f.Add([]byte("name: x\norders: [side, {side: us, actions: [move]}]\nexpect: {refused: {orders: 1}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var errs orders.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("error is not a non-empty orders.Errors: %v", err)
			}
			for _, e := range errs {
				if e.Line < 1 || e.Col < 1 {
					t.Fatalf("error without a position: %+v", e)
				}
			}
			return
		}
		r := c.Run(windsys.EventText)
		if r.Passed != (len(r.Failures) == 0) {
			t.Fatalf("passed %v with failures %q", r.Passed, r.Failures)
		}
		_ = r.Text()
	})
}
