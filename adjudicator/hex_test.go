package adjudicator

import (
	"encoding/json"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestHexParse(t *testing.T) {
	for _, bad := range []string{"271", "27170", "ab12", "0017", "2700", "-717"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) accepted", bad)
		}
	}
	h, err := ParseHex("2717")
	if err != nil || h.Col() != 27 || h.Row() != 17 || h.String() != "2717" {
		t.Fatalf("ParseHex(2717) = %v, %v", h, err)
	}
	var v struct{ H Hex }
	if err := yaml.Unmarshal([]byte("h: 2717"), &v); err != nil || v.H != 2717 {
		t.Errorf("yaml number: %v %v", v.H, err)
	}
	if err := yaml.Unmarshal([]byte("h: \"0905\""), &v); err != nil || v.H != 905 {
		t.Errorf("yaml string: %v %v", v.H, err)
	}
	if err := yaml.Unmarshal([]byte("h: 27175"), &v); err == nil {
		t.Error("yaml accepted a five-digit hex")
	}
	b, _ := json.Marshal(struct{ H Hex }{2717})
	if string(b) != `{"H":"2717"}` {
		t.Errorf("json = %s", b)
	}
}

func TestHexDistanceMatchesSteps(t *testing.T) {
	// Distance equals the number of steps of a breadth-first walk.
	start := Hex(2717)
	dist := map[Hex]int{start: 0}
	queue := []Hex{start}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if dist[h] == 6 {
			continue
		}
		for _, n := range h.Neighbours() {
			if _, ok := dist[n]; !ok {
				dist[n] = dist[h] + 1
				queue = append(queue, n)
			}
		}
	}
	for h, d := range dist {
		if got := start.Distance(h); got != d {
			t.Errorf("Distance(2717, %s) = %d, walk says %d", h, got, d)
		}
	}
	for d := North; d <= NorthWest; d++ {
		if back := start.Step(d).Step(d.Opposite()); back != start {
			t.Errorf("step %s then back lands on %s", d, back)
		}
	}
}
