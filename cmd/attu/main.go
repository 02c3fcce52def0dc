// Command attu is a play-by-email adjudicator for War in the Wind: The Battle
// for Attu Island, May 1943.
//
// Each sub-command lives in its own file and registers itself; main only
// dispatches. Run "attu help" for the list.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one sub-command: a one-line summary and a run function that
// receives the arguments after the sub-command's name and returns the exit
// status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name string, c command) { commands[name] = c }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "attu: unknown command %q; run \"attu help\" for the list\n", args[0])
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "attu adjudicates War in the Wind games played by email.")
	fmt.Fprintln(w, "\nUsage: attu COMMAND [flags] [args]   (attu COMMAND -h for help and an example)")
	fmt.Fprintln(w, "\nCommands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}
