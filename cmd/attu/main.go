// Command attu is a play-by-email adjudicator for War in the Wind: The Battle
// for Attu Island, May 1943.
//
// Each sub-command lives in its own file and registers itself; main only
// dispatches. A command reports a failure by its error, which session.exit
// prints and turns into the exit status. Run "attu help" for the list.
// This package is flags, configuration and wiring: attu serve's mail loop
// is package cmd/attu/daemon (serve.go wires it), and the operator's
// commands reach a running daemon through the client in control.go.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"syscall"
)

// command is one sub-command: a one-line summary and a function that
// runs with a session and reports how it failed by its error (session.exit).
type command struct {
	summary string
	run     func(s *session) error
}

var commands = map[string]command{}

// registerFunc registers a command under name.
func registerFunc(name, summary string, f func(s *session) error) {
	commands[name] = command{summary, f}
}

// exitError ends a command with exit status code, printing msg, when
// there is one, as "attu NAME: msg". Any other error ends it with status
// 1, printed the same way.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// errFailed ends a command that printed why it failed: exit status 1.
var errFailed = &exitError{code: 1}

// usageErr is the error of a command run with the wrong arguments, or of
// a file it cannot read or judge: exit status 2.
func usageErr(format string, a ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, a...)}
}

// exit prints err for the operator and returns the command's exit status.
func (s *session) exit(err error) int {
	if err == nil {
		return 0
	}
	code := 1
	var e *exitError
	if errors.As(err, &e) {
		code = e.code
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintf(s.stderr, "attu %s: %s\n", s.name, msg)
	}
	return code
}

// rootContext is the one context every long-running command stops with:
// it ends at SIGINT or SIGTERM.
func rootContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

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
	s := &session{name: args[0], args: args[1:], stdout: stdout, stderr: stderr}
	return s.exit(c.run(s))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "attu adjudicates War in the Wind games played by email.")
	fmt.Fprintln(w, "\nUsage: attu COMMAND [flags] [args]   (attu COMMAND -h for help and an example)")
	fmt.Fprintln(w, "\nCommands:")
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// parse parses a session's flags, which may stand before or after its
// arguments, and returns the arguments. For -h it prints the usage and the
// flags to stdout, for a bad flag one line to stderr; both end the command
// by an error that carries the exit status, with nothing left to print.
func (s *session) parse(fs *flag.FlagSet, usage string) ([]string, error) {
	fs.SetOutput(io.Discard)
	argv, err := interleavedArgs(fs, s.args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(s.stdout, usage)
		fs.SetOutput(s.stdout)
		fs.PrintDefaults()
		return nil, &exitError{code: 0}
	}
	if err != nil {
		fmt.Fprintf(s.stderr, "attu %s: %v; run \"attu %s -h\" for help\n", fs.Name(), err, fs.Name())
		return nil, &exitError{code: 2}
	}
	return argv, nil
}

// interleavedArgs parses flags that may come before or after the
// positional arguments ("attu check orders.yaml --case c.yaml") and returns
// the positional ones.
func interleavedArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
