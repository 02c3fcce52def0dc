package adjudicator

import "testing"

func TestBuiltinDataLoads(t *testing.T) {
	if builtinMapErr != nil {
		t.Fatalf("built-in map: %v", builtinMapErr)
	}
	if builtinCountersErr != nil {
		t.Fatalf("built-in counters: %v", builtinCountersErr)
	}
}
