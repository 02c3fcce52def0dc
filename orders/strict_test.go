package orders

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator/wind"
)

type strictInner struct {
	At    Pos
	Hex   wind.Hex `yaml:"hex"`
	Count *int     `yaml:"count"`
	Ok    bool     `yaml:"ok"`
}

type strictOuter struct {
	Name  string            `yaml:"name"`
	Pair  [2]int            `yaml:"pair"`
	Items []strictInner     `yaml:"items"`
	Tags  map[string]string `yaml:"tags"`
	Raw   yaml.Node         `yaml:"raw"`
	Skip  string            `yaml:"-"`
	Ratio float64           `yaml:"ratio"`
}

func TestDecodeStrict(t *testing.T) {
	src := `name: x
pair: [1, 2]
items:
  - {hex: 2717, count: 3, ok: true}
  - hex: 0101
tags: {a: b}
raw: [anything, {goes: here}]
ratio: 1.5
`
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var v strictOuter
	if errs := DecodeStrict(&n, &v); len(errs) > 0 {
		t.Fatal(errs)
	}
	if v.Name != "x" || v.Pair != [2]int{1, 2} || len(v.Items) != 2 || v.Items[0].Hex != 2717 || *v.Items[0].Count != 3 ||
		!v.Items[0].Ok || v.Items[1].Hex != 101 || v.Items[1].Count != nil || v.Tags["a"] != "b" || v.Raw.Kind != yaml.SequenceNode || v.Ratio != 1.5 {
		t.Fatalf("decoded %+v", v)
	}
	if v.Items[0].At != (Pos{4, 5}) || v.Items[1].At != (Pos{5, 5}) {
		t.Errorf("positions %+v %+v", v.Items[0].At, v.Items[1].At)
	}
}

func TestDecodeStrictErrors(t *testing.T) {
	src := `name: [x]
pair: [1]
items:
  - {hex: 27, count: many, ok: yes please, extra: 1}
  - at: 1
tags: {a: [b], a: c}
skip: 1
ratio: fast
`
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	var v strictOuter
	errs := DecodeStrict(&n, &v)
	want := []string{
		`1:7: name: want a single value, got a list`,
		`2:7: pair: want a list of 2 values, got a list`,
		`4:11: items[0].hex: "27" is not a hex`,
		`4:22: items[0].count: want a whole number, got "many"`,
		`4:32: items[0].ok: want true or false, got "yes please"`,
		`4:44: unknown field "extra" in items[0]; known fields: count, hex, ok`,
		`5:5: unknown field "at" in items[1]`,
		`6:11: tags.a: want a single value, got a list`,
		`6:16: tags: "a" is given twice (first at line 6)`,
		`7:1: unknown field "skip" here`,
		`8:8: ratio: want a number, got "fast"`,
	}
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, w := range want {
		if !strings.HasPrefix(errs[i].Error(), w) {
			t.Errorf("error %d = %q, want %q", i, errs[i], w)
		}
	}
	var notPointer strictOuter
	if errs := DecodeStrict(&n, notPointer); len(errs) != 1 || !strings.Contains(errs[0].Msg, "non-nil pointer") {
		t.Errorf("non-pointer: %v", errs)
	}
}
