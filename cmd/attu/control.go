package main

// The operator's commands work whether or not the mail daemon runs: while
// attu serve holds the database, a command runs inside the daemon (package
// daemon, control.go) and prints what it printed. Files it writes (attu
// export's JSON, attu show's picture) come back in the answer and are
// written here, with its user's rights: only those it named before asking,
// with the modes it chose.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"time"

	"github.com/attu-pbem/attu/cmd/attu/daemon"
	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// openWait is how long a command waits for the file before it asks the
// daemon: long enough for another command to finish, too short to notice.
const openWait = 300 * time.Millisecond

// otherCommandWait is how long a command waits for the file when no
// daemon answers on its socket: another command may be using it.
var otherCommandWait = 5 * time.Second

func controlSocket(dbPath string) string { return dbPath + ".sock" }

// session is one run of a command: its name and arguments, where it
// prints, and, when an operator command runs inside the daemon, the
// daemon's database and service (host); on the command line host is nil.
type session struct {
	name           string
	args           []string
	stdout, stderr io.Writer
	host           *daemon.Host
	files          []daemon.File // what the command wrote inside the daemon, for the command line to write
	// outputs are the files the command may write and their modes, named
	// on the command line before it asks the daemon (expect): the only
	// ones the command line writes from the daemon's answer.
	outputs map[string]os.FileMode
	// inputs are the files the command read (readFile): on the command
	// line, sent along to the daemon; inside it, what was sent.
	inputs []daemon.File
}

// readFile reads a file the command was given: from disk on the command
// line, from what the command line sent inside the daemon.
func (s *session) readFile(name string) ([]byte, error) {
	if s.host != nil {
		for _, f := range s.inputs {
			if f.Name == name {
				return f.Data, nil
			}
		}
		return nil, fmt.Errorf("%s was not sent to the daemon", name)
	}
	data, err := os.ReadFile(name)
	if err == nil {
		s.inputs = append(s.inputs, daemon.File{Name: name, Data: data})
	}
	return data, err
}

// expect declares a file the command will write, with its mode.
func (s *session) expect(name string, perm os.FileMode) {
	if s.outputs == nil {
		s.outputs = map[string]os.FileMode{}
	}
	s.outputs[name] = perm
}

// operators are the commands the daemon runs for the command line.
var operators = map[string]func(s *session) error{}

// registerOperator registers an operator command, for the command line
// and for the daemon's socket.
func registerOperator(name, summary string, f func(s *session) error) {
	operators[name] = f
	registerFunc(name, summary, f)
}

// access is what a command does with the database.
type access int

const (
	// reads: the file is opened read-only (never created or migrated),
	// or read in the daemon with no game change under way.
	reads access = iota
	// writes: the file is opened for writing (created when missing, for
	// attu new), or the command runs in the daemon through its game
	// service, and the mails it queued are sent at once.
	writes
)

// withDB runs fn on the database at path and returns the command's error:
// the daemon's, when the command runs inside it; the file itself, when no
// other process holds it; else the whole command runs in the daemon that
// holds it, over its socket.
func (s *session) withDB(path string, a access, fn func(db *store.DB) error) error {
	if h := s.host; h != nil {
		var err error
		run := h.Read
		if a == writes {
			run = h.Write
		}
		run(func() { err = fn(h.DB) })
		return err
	}
	opts := &store.Options{Timeout: openWait, ReadOnly: a == reads}
	db, err := store.Open(path, opts)
	if errors.Is(err, store.ErrLocked) {
		if conn, derr := net.DialTimeout("unix", controlSocket(path), 2*time.Second); derr == nil {
			defer conn.Close()
			// Only a daemon of this user (or root's) runs the command:
			// anybody else could have taken the socket's path.
			if perr := daemon.CheckPeer(conn.(*net.UnixConn)); perr != nil {
				return fmt.Errorf("%s: %v; not asking it", controlSocket(path), perr)
			}
			return s.remote(conn, path)
		}
		// No daemon answers (none runs, or one was killed and left its
		// socket): another command holds the file for a moment.
		opts.Timeout = otherCommandWait
		db, err = store.Open(path, opts)
	}
	switch {
	case errors.Is(err, store.ErrLocked):
		return fmt.Errorf("%s is in use by another process, and no attu serve answers on %s; stop that process or try again",
			path, controlSocket(path))
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist; give the game database with -db FILE", path)
	case err != nil:
		return err
	}
	defer db.Close()
	return fn(db)
}

// service is the game service of db: the daemon's own when the command
// runs inside it (which plays through its configured mailbox only), else
// one made for this command with cfg.
func (s *session) service(db *store.DB, cfg referee.Config) (*referee.Service, error) {
	if h := s.host; h != nil {
		if cfg.Address != "" && !mail.SameAddress(cfg.Address, h.Address) {
			return nil, fmt.Errorf("the running daemon plays through %s, not %s: a game on another mailbox needs a database and a daemon of its own", h.Address, cfg.Address)
		}
		return h.Service, nil
	}
	return referee.New(db, cfg), nil
}

// writeFile writes a file the operator asked for, created or replaced
// with mode perm (replaceFile): at once on the command line, or, inside
// the daemon, into the answer for the command line to write.
func (s *session) writeFile(name string, data []byte, perm os.FileMode) error {
	if s.host != nil {
		s.files = append(s.files, daemon.File{Name: name, Data: data, Perm: uint32(perm)})
		return nil
	}
	return replaceFile(name, data, perm)
}

// remote runs the session's command in the daemon that holds the
// database at path, on conn, and prints and writes what it answers.
func (s *session) remote(conn net.Conn, path string) error {
	sock := controlSocket(path)
	conn.SetDeadline(time.Now().Add(daemon.ControlTimeout))
	if err := json.NewEncoder(conn).Encode(daemon.Request{Command: strings.Fields(s.name)[0], Args: s.args, Inputs: s.inputs}); err != nil {
		return fmt.Errorf("asking the daemon on %s: %v", sock, err)
	}
	var ans daemon.Answer
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&ans); err != nil {
		return fmt.Errorf("the daemon on %s did not answer: %v", sock, err)
	}
	for _, f := range ans.Files {
		// The names and modes are the command line's own, never the
		// answer's: the daemon writes nothing where the operator did not
		// ask.
		perm, ok := s.outputs[f.Name]
		if !ok {
			return fmt.Errorf("the daemon on %s answered with a file %q this command did not ask for; nothing written", sock, f.Name)
		}
		if err := replaceFile(f.Name, f.Data, perm); err != nil {
			return err
		}
	}
	s.stdout.Write(ans.Stdout)
	s.stderr.Write(ans.Stderr)
	return &exitError{code: ans.Code}
}

// runOperator is the daemon's Config.Operator: it runs an operator
// command inside the daemon, on the database and service h lends it.
func runOperator(h *daemon.Host, req daemon.Request) daemon.Answer {
	f, ok := operators[req.Command]
	if !ok {
		return daemon.Answer{Code: 2, Stderr: fmt.Appendf(nil, "attu: the daemon does not run %q\n", req.Command)}
	}
	var out, errs bytes.Buffer
	s := &session{name: req.Command, args: req.Args, stdout: &out, stderr: &errs, host: h, inputs: req.Inputs}
	code := s.exit(f(s))
	return daemon.Answer{Stdout: out.Bytes(), Stderr: errs.Bytes(), Code: code, Files: s.files}
}

// newDaemon is the daemon of svc with cfg, running the operator commands
// on its socket.
func newDaemon(svc *referee.Service, cfg daemon.Config) (*daemon.Daemon, error) {
	cfg.Operator = runOperator
	return daemon.New(svc, cfg)
}
