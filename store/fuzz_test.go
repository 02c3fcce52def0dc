package store

import (
	"bytes"
	"testing"
)

// An export is what strangers send to attu audit: whatever it holds, the
// audit gives a verdict and never panics.
func FuzzAudit(f *testing.F) {
	db, _ := openTestDB(f)
	createTestGame(f, db, "g1")
	newDriver(db, "g1", 30).play(f, 6)
	x, err := db.Export("g1", true)
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	x.WriteJSON(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"format":"attu-export/3","log":[{"entry":{"seq":1,"kind":"create"}}]}`))
	f.Add([]byte(`{"format":"attu-export/3","dice":[{"seq":1}],"log":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ReadExport(bytes.NewReader(b))
		if err != nil {
			return
		}
		rep := Audit(x, toyEngine())
		var out bytes.Buffer
		rep.WriteText(&out)
	})
}
