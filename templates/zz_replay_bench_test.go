package templates

import (
	"os"
	"testing"

	"github.com/attu-pbem/attu/store"
)

func BenchmarkZZReplay(b *testing.B) {
	f, err := os.Open("/tmp/x.json")
	if err != nil {
		b.Fatal(err)
	}
	x, err := store.ReadExport(f)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ReplayPage(x); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkZZAudit(b *testing.B) {
	f, _ := os.Open("/tmp/x.json")
	x, _ := store.ReadExport(f)
	for b.Loop() {
		store.Audit(x, store.Engine{})
	}
}
