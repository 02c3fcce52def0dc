package main

import (
	"strings"
	"testing"
)

func TestCheckWellFormed(t *testing.T) {
	code, out, errs := runAttu("check", "../../examples/orders/move.yaml")
	if code != 0 || !strings.Contains(out, "well formed: us orders for turn 1, 2 activations") {
		t.Fatalf("exit %d, %q, %q", code, out, errs)
	}
}

func TestCheckMistakes(t *testing.T) {
	p := writeFile(t, "orders.yaml", "game: g\nside: us\nturn: 1\ntoken: t\nactions:\n  - move: {unit: 1/17-A, path: [27x9]}\n  - jump: {}\n")
	code, out, _ := runAttu("check", p)
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	want := []string{p + `:6:33: move.path[0]: "27x9" is not a hex`, p + `:7:5: activation 2: unknown order "jump"`}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(want) {
		t.Fatalf("output:\n%s", out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want %q", i, lines[i], w)
		}
	}
}

func TestCheckAgainstCase(t *testing.T) {
	c := writeFile(t, "case.yaml", holdingCase)
	// 1/17-A stands in J01's zone of control: it may not leave by day.
	o := writeFile(t, "orders.yaml", "side: us\nactions: []\n")
	code, out, errs := runAttu("check", o, "--case", c)
	if code != 0 || !strings.Contains(out, "legal in the position of") {
		t.Fatalf("legal orders: exit %d, %q, %q", code, out, errs)
	}
	o2 := writeFile(t, "orders2.yaml", "side: us\nactions:\n  - move: {unit: 1/17-A, path: [2619, 2717]}\n  - move: {unit: J01, path: [2716]}\n")
	code, out, _ = runAttu("check", "--case", c, o2)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 2 || !strings.HasPrefix(lines[0], o2+":3:") || !strings.HasPrefix(lines[1], o2+":4:5: J01 is not one of your units") {
		t.Fatalf("illegal orders: exit %d\n%s", code, out)
	}
	bad := writeFile(t, "bad-case.yaml", "name: x\nunitz: []\n")
	if code, _, errs := runAttu("check", o, "--case", bad); code != 2 || !strings.Contains(errs, ":2:1: unknown field") {
		t.Fatalf("malformed case: exit %d, %q", code, errs)
	}
}

func TestCheckUsage(t *testing.T) {
	code, out, _ := runAttu("check", "--help")
	if code != 0 || !strings.Contains(out, "Example:") || !strings.Contains(out, "--case") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// A hex of the right form but off the island is refused by the form check,
// at the place it is written, wherever the orders put a hex.
func TestCheckOffMap(t *testing.T) {
	p := writeFile(t, "orders.yaml", "game: g\nside: us\nturn: 1\ntoken: t\nactions:\n"+
		"  - move: {unit: 1/17-A, path: [2618, 2599]}\n  - fire: {units: [1/17-B], target: 9999}\n"+
		"standing:\n  retreat_at: {2731: never}\n")
	code, out, _ := runAttu("check", p)
	want := []string{
		p + ":6:39: hex 2599 is not on the map: its columns run 10 to 41 and its rows 01 to 30",
		p + ":7:37: hex 9999 is not on the map",
		p + ":9:16: hex 2731",
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != len(want) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want %q", i, lines[i], w)
		}
	}
	ok := writeFile(t, "ok.yaml", "game: g\nside: us\nturn: 1\ntoken: t\nactions:\n  - move: {unit: 1/17-A, path: [1001, 4130]}\n")
	if code, out, errs := runAttu("check", ok); code != 0 {
		t.Fatalf("the map's corners: exit %d, %q, %q", code, out, errs)
	}
}
