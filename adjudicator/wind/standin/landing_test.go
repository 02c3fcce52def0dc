package standin

import (
	"math"
	"testing"
)

// TestZoneLoadOver checks the expected loss to a zone's capacity (rule
// 9.2.1) against sums worked by hand: a zone of capacity 12 holding 10
// steps loses 2 steps when a 4-step company surely lands there, and 1.2
// when it lands with chance 0.6; a second one landing with chance 0.5
// adds what the comment below works out.
func TestZoneLoadOver(t *testing.T) {
	z := &zoneLoad{capacity: 12, p: make([]float64, 11)}
	z.p[10] = 1
	if got := z.add(4, 1).over(); math.Abs(got-2) > 1e-9 {
		t.Errorf("a sure 4-step landing on 10 of 12: over %.3f, want 2", got)
	}
	one := z.add(4, 0.6)
	if got := one.over(); math.Abs(got-1.2) > 1e-9 {
		t.Errorf("a 4-step landing with chance 0.6: over %.3f, want 1.2", got)
	}
	// Both land (0.3): 18 steps, 6 over; one of them (0.3 + 0.2): 14, 2
	// over; neither (0.2): none.
	if got := one.add(4, 0.5).over(); math.Abs(got-(0.3*6+0.5*2)) > 1e-9 {
		t.Errorf("two landings: over %.3f, want %.3f", got, 0.3*6+0.5*2)
	}
}
