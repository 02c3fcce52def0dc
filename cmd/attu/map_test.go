package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestMapCommand(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		out    string // expected in stdout
		err    string // expected as the only line of stderr
	}{
		{args: []string{"map"}, out: "Victory hexes: 1425 Temnac Bay"},
		{args: []string{"map", "--around", "2717", "--radius", "3"}, out: "*2717*"},
		{args: []string{"map", "-h"}, out: "attu map --around 2717 --radius 3"},
		{args: []string{"map", "--around", "2799"}, status: 2, err: "2799 is not on the map"},
		{args: []string{"map", "--around", "27x7"}, status: 2, err: `"27x7" is not a hex`},
		{args: []string{"map", "--radius", "x"}, status: 2, err: "invalid value"},
		{args: []string{"map", "2717"}, status: 2, err: "--around 2717"},
		{args: []string{"map", "--map", "/nonexistent.yaml"}, status: 1, err: "no such file"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(tc.args, &stdout, &stderr)
		name := strings.Join(tc.args, " ")
		if status != tc.status {
			t.Errorf("%s: status %d, want %d (stderr %q)", name, status, tc.status, stderr.String())
		}
		if !strings.Contains(stdout.String(), tc.out) {
			t.Errorf("%s: stdout lacks %q", name, tc.out)
		}
		if tc.err == "" {
			if stderr.Len() != 0 {
				t.Errorf("%s: unexpected stderr %q", name, stderr.String())
			}
			continue
		}
		if !strings.Contains(stderr.String(), tc.err) || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%s: stderr %q, want one line containing %q", name, stderr.String(), tc.err)
		}
	}
}
