package island

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzResolve hands any file to the rules at each kind of wait of a game:
// a file that reads is judged and resolved without a panic, and a refused
// one changes nothing.
func FuzzResolve(f *testing.F) {
	files, _ := filepath.Glob("testdata/*-template.yaml")
	more, _ := filepath.Glob("../../orders/island/testdata/orders/*.yaml")
	for _, p := range append(files, more...) {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	ps, _ := goldenGame(f)
	var at []*Position
	seen := map[string]bool{}
	for _, p := range ps {
		if k := string(p.Wait().Kind); !seen[k] && p.Wait().Open() {
			seen[k] = true
			at = append(at, p)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Rules{}.Read(data)
		if err != nil {
			return
		}
		for _, p := range at {
			before, _ := json.Marshal(p)
			_ = (Rules{}).Check(p, o)
			_ = (Rules{}).Stale(p, o)
			next, _, ref := Rules{}.Resolve(p, o, &rolls{faces: []int{3, 6, 1}})
			after, _ := json.Marshal(p)
			if string(before) != string(after) {
				t.Fatal("resolving changed the position it was given")
			}
			if ref == nil && next != nil {
				if err := next.Validate(); err != nil {
					t.Fatalf("resolved into an unsound position: %v", err)
				}
			}
		}
	})
}
