package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"go.yaml.in/yaml/v3"

	"github.com/attu-pbem/attu/adjudicator"
	"github.com/attu-pbem/attu/adjudicator/wind"
	"github.com/attu-pbem/attu/orders"
	windorders "github.com/attu-pbem/attu/orders/wind"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
	"github.com/attu-pbem/attu/templates"
)

func init() {
	registerOperator("check", "check an orders file: its form, and with --case or -db its legality in a position", runCheck)
}

const checkUsage = `Usage: attu check [--case CASE.yaml | -db FILE] ORDERS.yaml

Checks an orders file the way the server does when it arrives, without
applying it, and prints each mistake as ORDERS:LINE:COL: message.

Without --case only the form is checked (envelope, fields, hexes, each on
the island's map): the file must carry game, side, turn and token like a
mailed file. With --case the
orders are also judged against the position the rules case sets up (its
units, weather and procedures; the case's own orders are not run), and game,
token and turn may be left out. With -db the orders are judged against the
game they name in that database, in the position in force, exactly as the
server judges them when they arrive by mail (the answer the player would
get), without applying them; the token is not checked. While attu serve
holds the database, the daemon judges them.

Exit status: 0 when the orders are good, 1 when they have mistakes, 2 when a
file cannot be read, the case is malformed, or the orders cannot be judged.

Example:
  attu check examples/orders/move.yaml
  attu check my-orders.yaml --case adjudicator/wind/rulecase/testdata/example-zoc-cliff.yaml
  attu check my-orders.yaml -db attu.db

Flags:
`

func runCheck(s *session) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	caseFile := fs.String("case", "", "judge the orders in the position of this rules case")
	dbPath := fs.String("db", "", "judge the orders against the game they name in this database")
	scenarios := scenarioFlag(fs)
	files, err := s.parse(fs, checkUsage)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageErr("give one orders file, like: attu check orders.yaml --case case.yaml (attu check -h for help)")
	}
	name := files[0]
	data, err := s.readFile(name)
	if err != nil {
		return usageErr("cannot read the orders: %v", err)
	}
	switch {
	case *dbPath != "" && *caseFile != "":
		return usageErr("give --case or -db, not both")
	case *dbPath != "":
		if _, err := os.Stat(*dbPath); err != nil && s.host == nil {
			return usageErr("%v; give the game database with -db FILE", err)
		}
		h, err := s.hosted(*scenarios)
		if err != nil {
			return err
		}
		return s.withDB(*dbPath, reads, func(db *store.DB) error { return checkStored(s.stdout, name, data, db, *dbPath, h) })
	case *caseFile == "":
		f, err := windorders.Parse(data, windorders.Options{})
		if err == nil {
			err = offMap(data, wind.BuiltinMap()).Err()
		}
		if err != nil {
			printErrors(s.stdout, name, err)
			return errFailed
		}
		fmt.Fprintf(s.stdout, "%s: well formed: %s orders for turn %d, %s. Legality not checked: give --case CASE.yaml.\n",
			name, f.Side, f.Turn, templates.Plural(len(f.Actions), "activation"))
		return nil
	}
	c, err := readCase(*caseFile, s.stderr)
	if err != nil {
		return err
	}
	f, err := windorders.Parse(data, windorders.Options{Case: true})
	if err != nil {
		printErrors(s.stdout, name, err)
		return errFailed
	}
	if f.Side != adjudicator.US && f.Side != adjudicator.JP {
		line, col := f.Field("side")
		fmt.Fprintf(s.stdout, "%s:%d:%d: side: actions come from us or jp\n", name, line, col)
		return errFailed
	}
	errs, err := c.Check(f)
	if err != nil {
		return usageErr("cannot judge the orders: %v", err)
	}
	if len(errs) > 0 {
		printErrors(s.stdout, name, errs)
		return errFailed
	}
	fmt.Fprintf(s.stdout, "%s: legal in the position of %s: %s orders, %s.\n", name, *caseFile, f.Side, templates.Plural(len(f.Actions), "activation"))
	return nil
}

// hexFields are the fields of an orders file that hold hexes: as their
// value, as a list, or as the keys of a mapping (orders' Hex fields).
var hexFields = map[string]bool{"hex": true, "target": true, "to": true, "path": true, "melee_order": true,
	"retreat_at": true, "advance_at": true, "unknown_table_at": true}

// offMap lists the hexes of a well-formed orders file that lie off map m:
// windorders.Parse knows a hex's form, not the island, and a file naming 9999
// would otherwise pass the form check only to be refused once mailed.
func offMap(data []byte, m *wind.Map) orders.Errors {
	root, errs := orders.ParseDocument(data, orders.MaxSize)
	if len(errs) > 0 {
		return errs
	}
	var found orders.Errors
	check := func(n *yaml.Node) {
		if n.Kind != yaml.ScalarNode {
			return
		}
		if h, err := adjudicator.ParseHex(n.Value); err == nil && !m.OnMap(h) {
			found = append(found, &orders.Error{Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(
				"hex %s is not on the map: its columns run %02d to %02d and its rows %02d to %02d",
				n.Value, m.MinCol, m.MaxCol, m.MinRow, m.MaxRow)})
		}
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i].Value, n.Content[i+1]
				if hexFields[k] {
					check(v)
					for j, c := range v.Content {
						if v.Kind == yaml.SequenceNode || j%2 == 0 {
							check(c)
						}
					}
				}
				walk(v)
			}
		}
	}
	walk(root)
	return found
}

// checkStored judges orders against the stored game they name, in db
// (read only: judging changes nothing), the daemon's when it runs.
func checkStored(out io.Writer, name string, data []byte, db *store.DB, dbPath string, h hosted) error {
	game, problems, err := referee.New(db, h.hosting(referee.Config{})).Check(data)
	if errors.Is(err, store.ErrNoGame) {
		ids, _ := db.Games()
		return usageErr("the orders name game %q, which is not in %s (games: %v)", game, dbPath, ids)
	}
	if err != nil {
		return usageErr("cannot judge the orders: %v", err)
	}
	for _, p := range problems {
		if p.Line == 0 {
			fmt.Fprintf(out, "%s: %s\n", name, p.Msg)
		} else {
			fmt.Fprintf(out, "%s:%d:%d: %s\n", name, p.Line, p.Col, p.Msg)
		}
	}
	if len(problems) > 0 {
		return errFailed
	}
	fmt.Fprintf(out, "%s: legal in game %s as it stands: the server would apply these orders.\n", name, game)
	return nil
}
