package island

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	iw "github.com/attu-pbem/attu/adjudicator/island"
	"github.com/attu-pbem/attu/orders"
)

// TestReadOrdersGolden reads every order file of testdata/orders: a good
// file's orders as JSON, a bad one's mistakes at their lines, each against
// its golden .txt (refreshed with -update).
func TestReadOrdersGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/orders/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no order files: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ReadOrders(raw)
			var got string
			bad := strings.HasPrefix(filepath.Base(path), "bad-")
			switch {
			case bad && err == nil:
				t.Fatalf("%s read without a mistake", path)
			case !bad && err != nil:
				t.Fatalf("%s: %v", path, err)
			case bad:
				var es orders.Errors
				if !errors.As(err, &es) {
					t.Fatalf("error %T, want orders.Errors", err)
				}
				got = err.Error() + "\n"
			default:
				b, err := json.MarshalIndent(f.Orders, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = string(b) + "\n"
			}
			golden(t, strings.TrimSuffix(path, ".yaml")+".txt", got)
		})
	}
}

// TestReadOrdersLocates places the engine's problems at the order they
// name.
func TestReadOrdersLocates(t *testing.T) {
	raw, _ := os.ReadFile("testdata/orders/good-orders.yaml")
	f, err := ReadOrders(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		order, unit string
		line        int
	}{{"moves[1]", "", 8}, {"attacks[0]", "I/124", 10}, {"attacks", "", 9}, {"", "", 1}} {
		if l, _ := f.Locate(problem(c.order, c.unit)); l != c.line {
			t.Errorf("%s %s placed at line %d, want %d", c.order, c.unit, l, c.line)
		}
	}
	raw, _ = os.ReadFile("testdata/orders/good-setup.yaml")
	f, _ = ReadOrders(raw)
	if l, _ := f.Locate(problem("setup", "III/124")); l != 8 {
		t.Errorf("setup of III/124 placed at line %d, want 8", l)
	}
}

func FuzzReadOrders(f *testing.F) {
	files, _ := filepath.Glob("testdata/orders/*.yaml")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		of, err := ReadOrders(data)
		if err != nil {
			var es orders.Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("error %T %v, want orders.Errors", err, err)
			}
			for _, e := range es {
				if e.Line < 1 || e.Col < 1 {
					t.Fatalf("mistake without a place: %v", e)
				}
			}
			return
		}
		if _, err := json.Marshal(of.Orders); err != nil {
			t.Fatalf("orders read do not marshal: %v", err)
		}
	})
}

func problem(order, unit string) iw.Problem { return iw.Problem{Order: order, Unit: unit, Msg: "x"} }

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./orders/island -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test ./orders/island -update and review):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestWriteOrdersReadsBack writes every good file's orders and reads them
// back the same.
func TestWriteOrdersReadsBack(t *testing.T) {
	files, _ := filepath.Glob("testdata/orders/good-*.yaml")
	for _, path := range files {
		raw, _ := os.ReadFile(path)
		f, err := ReadOrders(raw)
		if err != nil {
			t.Fatal(err)
		}
		out, err := WriteOrders("ridge-1", "t0k", f.Orders)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ReadOrders(out)
		if err != nil {
			t.Fatalf("%s written reads back with mistakes: %v\n%s", path, err, out)
		}
		a, _ := json.Marshal(f.Orders)
		b, _ := json.Marshal(g.Orders)
		if string(a) != string(b) {
			t.Errorf("%s: written and read back\n%s\nwant\n%s\nfile:\n%s", path, b, a, out)
		}
	}
	empty := Orders{Side: 2, Turn: 3, Wait: WaitDefence, Defence: &iw.Defence{}}
	out, err := WriteOrders("g", "t", empty)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadOrders(out); err != nil {
		t.Fatalf("an empty defence reads back with mistakes: %v\n%s", err, out)
	}
}
