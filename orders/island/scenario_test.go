package island

import (
	"os"
	"testing"
)

const example = "../../examples/island-war/ridge-42-invented.yaml"

func TestScenarioExampleTmp(t *testing.T) {
	data, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	sc, ps := ParseScenario(data)
	for _, p := range ps {
		t.Error(p)
	}
	t.Logf("%+v", sc)
}
