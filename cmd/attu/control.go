package main

// The operator's commands (status, show, export, umpire, new) work whether
// or not the mail daemon runs. bbolt lets one process hold the file for
// writing and shuts every other out, readers included, so while attu
// serve runs a command cannot open the database itself. The daemon
// therefore listens on a Unix socket beside the database (FILE.sock, mode
// 0600, its owner's only) and runs those commands inside its own process,
// through the same code, on its own database and game service: a command
// that changes a game goes through the service's transactions, and its
// mails are sent at once; a command that only reads sees no game change
// half-way (the daemon's game changes wait for it).
//
// A command first opens the file itself, for a short while; when the file
// is held, it hands its arguments to the daemon on the socket and prints
// what the daemon's run of it printed. Files the command writes (attu
// export's JSON, attu show's picture) come back in the answer and are
// written by the command, where its user asked, with its user's rights.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/attu-pbem/attu/mail"
	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// Timing of the handover to the daemon.
const (
	// openWait is how long a command waits for the file before it asks
	// the daemon: long enough for another command to finish, short
	// enough not to be noticed.
	openWait = 300 * time.Millisecond
	// controlTimeout bounds one command run by the daemon, from the
	// request to the end of the answer.
	controlTimeout = 2 * time.Minute
	// maxControlRequest caps a request's size: arguments only.
	maxControlRequest = 1 << 20
)

// otherCommandWait is how long a command waits for the file when no
// daemon answers on its socket: another command may be using it.
var otherCommandWait = 5 * time.Second

// controlSocket is the path of the daemon's socket for database dbPath.
func controlSocket(dbPath string) string { return dbPath + ".sock" }

// session is one run of an operator command: its name and arguments,
// where it prints, and, when it runs inside the daemon, the daemon's
// database and service (host); on the command line host is nil and the
// command opens the file itself.
type session struct {
	name           string
	args           []string
	stdout, stderr io.Writer
	host           *controlHost
	// files are what the command wrote, when it runs inside the daemon:
	// sent back to the command line, which writes them.
	files []controlFile
}

// operators are the commands the daemon runs for the command line.
var operators = map[string]func(s *session) int{}

// registerOperator registers an operator command, for the command line
// and for the daemon's socket.
func registerOperator(name, summary string, f func(s *session) int) {
	operators[name] = f
	register(name, command{summary: summary, run: func(args []string, stdout, stderr io.Writer) int {
		return f(&session{name: name, args: args, stdout: stdout, stderr: stderr})
	}})
}

// errorf prints one line for the operator: "attu NAME: ..." on stderr.
func (s *session) errorf(format string, args ...any) {
	fmt.Fprintf(s.stderr, "attu %s: %s\n", s.name, fmt.Sprintf(format, args...))
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

// withDB runs fn on the database at path: the daemon's, when the command
// runs inside it; the file itself, when no other process holds it; else
// the whole command runs in the daemon that holds it, over its socket.
// It returns the command's exit status.
func (s *session) withDB(path string, a access, fn func(db *store.DB) int) int {
	if h := s.host; h != nil {
		if a == reads {
			h.gate.RLock()
			defer h.gate.RUnlock()
			return fn(h.db)
		}
		code := func() int {
			h.gate.Lock()
			defer h.gate.Unlock()
			return fn(h.db)
		}()
		h.kick()
		return code
	}
	opts := &store.Options{Timeout: openWait, ReadOnly: a == reads}
	db, err := store.Open(path, opts)
	if errors.Is(err, store.ErrLocked) {
		if conn, derr := net.DialTimeout("unix", controlSocket(path), 2*time.Second); derr == nil {
			defer conn.Close()
			return s.remote(conn, path)
		}
		// No daemon answers (none runs, or one was killed and left its
		// socket): another command holds the file for a moment.
		opts.Timeout = otherCommandWait
		db, err = store.Open(path, opts)
	}
	switch {
	case errors.Is(err, store.ErrLocked):
		s.errorf("%s is in use by another process, and no attu serve answers on %s; stop that process or try again",
			path, controlSocket(path))
		return 1
	case errors.Is(err, fs.ErrNotExist):
		s.errorf("%s does not exist; give the game database with -db FILE", path)
		return 1
	case err != nil:
		s.errorf("%v", err)
		return 1
	}
	defer db.Close()
	return fn(db)
}

// service is the game service of db: the daemon's own when the command
// runs inside it (which plays through its configured mailbox only), else
// one made for this command with cfg.
func (s *session) service(db *store.DB, cfg referee.Config) (*referee.Service, error) {
	if h := s.host; h != nil {
		if cfg.Address != "" && !mail.SameAddress(cfg.Address, h.address) {
			return nil, fmt.Errorf("the running daemon plays through %s, not %s: a game on another mailbox needs a database and a daemon of its own", h.address, cfg.Address)
		}
		return h.svc, nil
	}
	return referee.New(db, cfg), nil
}

// writeFile writes a file the operator asked for: at once on the command
// line, or, inside the daemon, into the answer for the command line to
// write.
func (s *session) writeFile(name string, data []byte, perm os.FileMode) error {
	if s.host != nil {
		s.files = append(s.files, controlFile{Name: name, Data: data, Perm: uint32(perm)})
		return nil
	}
	return os.WriteFile(name, data, perm)
}

// controlRequest is what the command line sends the daemon: one JSON
// object, then it half-closes the connection.
type controlRequest struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// controlFile is a file a command wrote inside the daemon.
type controlFile struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
	Perm uint32 `json:"perm"`
}

// controlAnswer is the daemon's answer: what the command printed (as
// bytes, which JSON carries whatever they are), its exit status and the
// files it wrote.
type controlAnswer struct {
	Stdout []byte        `json:"stdout"`
	Stderr []byte        `json:"stderr"`
	Code   int           `json:"code"`
	Files  []controlFile `json:"files,omitempty"`
}

// remote runs the session's command in the daemon that holds the
// database at path, on conn, and prints and writes what it answers.
func (s *session) remote(conn net.Conn, path string) int {
	sock := controlSocket(path)
	conn.SetDeadline(time.Now().Add(controlTimeout))
	if err := json.NewEncoder(conn).Encode(controlRequest{Command: s.name, Args: s.args}); err != nil {
		s.errorf("asking the daemon on %s: %v", sock, err)
		return 1
	}
	var ans controlAnswer
	if err := json.NewDecoder(bufio.NewReader(conn)).Decode(&ans); err != nil {
		s.errorf("the daemon on %s did not answer: %v", sock, err)
		return 1
	}
	for _, f := range ans.Files {
		if err := os.WriteFile(f.Name, f.Data, os.FileMode(f.Perm)&0o666); err != nil {
			s.errorf("%v", err)
			return 1
		}
	}
	s.stdout.Write(ans.Stdout)
	s.stderr.Write(ans.Stderr)
	return ans.Code
}

// controlHost is what the daemon lends the commands it runs.
type controlHost struct {
	db      *store.DB
	svc     *referee.Service
	address string
	// gate is held for reading by commands that read, and for writing
	// by the daemon while it changes games and by commands that write.
	gate *sync.RWMutex
	// kick wakes the outbox worker, for the mails a command queued.
	kick func()
	log  *slog.Logger
}

// listenControl opens the daemon's socket at path, mode 0600. The caller
// holds the database's lock, so no other daemon serves it: a socket left
// at path by one that was killed is removed. Anything else at path is
// left alone and refused.
func listenControl(path string) (*net.UnixListener, error) {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("control socket %s: a file that is not a socket is in the way", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("control socket %s: removing the one a stopped daemon left: %w", path, err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	// Until this chmod the socket has the umask's mode; serveControl
	// also checks who connects (peerAllowed).
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	return ln, nil
}

// serveControl answers commands on ln until ctx ends, then closes ln (which
// removes the socket) and waits for the commands under way.
func serveControl(ctx context.Context, ln *net.UnixListener, h *controlHost) {
	var wg sync.WaitGroup
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() == nil {
				h.log.Error("control socket", "err", err)
			}
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			h.serve(conn)
		}()
	}
	wg.Wait()
}

// serve runs one command from the command line.
func (h *controlHost) serve(conn *net.UnixConn) {
	conn.SetDeadline(time.Now().Add(controlTimeout))
	if err := peerAllowed(conn); err != nil {
		h.log.Warn("control socket: connection refused", "err", err)
		return
	}
	var req controlRequest
	if err := json.NewDecoder(io.LimitReader(conn, maxControlRequest)).Decode(&req); err != nil {
		h.log.Warn("control socket: unreadable request", "err", err)
		return
	}
	var out, errs bytes.Buffer
	ans := controlAnswer{Code: 2}
	f, ok := operators[req.Command]
	if !ok {
		fmt.Fprintf(&errs, "attu: the daemon does not run %q\n", req.Command)
	} else {
		s := &session{name: req.Command, args: req.Args, stdout: &out, stderr: &errs, host: h}
		ans.Code = h.run(s, f)
		ans.Files = s.files
	}
	h.log.Info("operator command", "command", req.Command, "exit", ans.Code)
	ans.Stdout, ans.Stderr = out.Bytes(), errs.Bytes()
	if err := json.NewEncoder(conn).Encode(ans); err != nil {
		h.log.Warn("control socket: answering", "command", req.Command, "err", err)
	}
}

// run runs one command; a panic in it is logged and answered as an
// internal error instead of stopping the daemon.
func (h *controlHost) run(s *session, f func(*session) int) (code int) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("operator command panicked", "command", s.name, "panic", p, "stack", string(debug.Stack()))
			s.errorf("internal error in the daemon; see its log")
			code = 1
		}
	}()
	return f(s)
}
