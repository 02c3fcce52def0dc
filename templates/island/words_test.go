package island

import (
	"testing"

	oi "github.com/attu-pbem/attu/orders/island"
)

// Standing instructions that only ask read "no FPF plan", never "0 FPF
// plans".
func TestStandingWordsCountInWords(t *testing.T) {
	got := standingWords(oi.Standing{Ask: true})
	if want := "ask to see the attacks (a defence wait); no FPF plan; no retreat plan; no advance"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
