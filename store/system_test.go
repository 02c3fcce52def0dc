package store

import (
	"bytes"
	"strings"
	"testing"
)

// Every game records its system, and so does its export; the audit
// refuses to replay a game by another system's rules, and an export of
// this layout must name its system while the older layouts name none.
func TestExportNamesItsSystem(t *testing.T) {
	x := endedGame(t)
	if x.System != SystemBefore || x.SystemName() != SystemBefore || x.Format != ExportFormat {
		t.Fatalf("the export is of system %q in the layout %q, want %q in %q", x.System, x.Format, SystemBefore, ExportFormat)
	}
	other := clone(t, x)
	other.System = "island-war"
	if rep := Audit(other, toyEngine()); rep.OK() || rep.Bad.Entry != 0 ||
		!strings.Contains(rep.Bad.What, "played by the rules of island-war; these are the rules of war-in-the-wind") {
		t.Errorf("audited by another system's rules: %v", rep.Bad)
	}
	for _, c := range []struct {
		format, system, says string
	}{
		{ExportFormat, "", "names its game's system"},
		{ExportFormatSecrets, "island-war", "names no system"},
		{ExportFormatBefore, "war-in-the-wind", "names no system"},
	} {
		y := clone(t, x)
		y.Format, y.System = c.format, c.system
		b, err := y.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ReadExport(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("an export in %s naming the system %q reads with %v, want an error saying %q", c.format, c.system, err, c.says)
		}
	}
	y := clone(t, x)
	y.Format, y.System = ExportFormatSecrets, ""
	b, _ := y.JSON()
	old, err := ReadExport(bytes.NewReader(b))
	if err != nil || old.SystemName() != SystemBefore {
		t.Fatalf("an export in %s reads as of the system %q (%v), want %q", ExportFormatSecrets, old.SystemName(), err, SystemBefore)
	}
}
