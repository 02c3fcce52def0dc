package daemon

// bbolt lets one process hold the file for writing and shuts every other
// out, readers included, so while the daemon runs an operator's command
// (attu status, show, export, umpire, new) cannot open the database
// itself. The daemon therefore listens on a Unix socket beside the
// database (mode 0600, its owner's only) and runs those commands inside
// its own process, on its own database and game service (Config.Operator):
// a command that changes a game goes through the service's transactions,
// and its mails are sent at once; a command that only reads sees no game
// change half-way (the daemon's game changes wait for it).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"runtime/debug"
	"time"

	"github.com/attu-pbem/attu/store"
	"github.com/attu-pbem/attu/store/referee"
)

// Limits of one command on the socket.
const (
	ControlTimeout = 2 * time.Minute // bounds one command, from the request to the end of the answer
	maxRequest     = 1 << 20         // caps a request's size: arguments only
)

// Request is what the command line sends the daemon: one JSON object,
// then it half-closes the connection.
type Request struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	// Inputs are the files the command read on the command line (attu
	// check's orders), which the daemon's user may not be able to read.
	Inputs []File `json:"inputs,omitempty"`
}

// File is a file a command wrote inside the daemon, for the command line
// to write where its user asked, with its user's rights.
type File struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
	Perm uint32 `json:"perm"`
}

// Answer is the daemon's answer: what the command printed (as bytes, which
// JSON carries whatever they are), its exit status and the files it wrote.
type Answer struct {
	Stdout []byte `json:"stdout"`
	Stderr []byte `json:"stderr"`
	Code   int    `json:"code"`
	Files  []File `json:"files,omitempty"`
}

// Host is what the daemon lends the commands it runs.
type Host struct {
	DB      *store.DB
	Service *referee.Service
	Address string // the mailbox the daemon plays through
	d       *Daemon
}

// Read runs fn with no game changing meanwhile.
func (h *Host) Read(fn func()) {
	h.d.gate.RLock()
	defer h.d.gate.RUnlock()
	fn()
}

// Write runs fn as the only change to the games meanwhile, then wakes the
// outbox worker for the mails fn queued.
func (h *Host) Write(fn func()) {
	defer h.d.Kick() // after the gate opens again
	h.d.gate.Lock()
	defer h.d.gate.Unlock()
	fn()
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
	// also checks who connects (CheckPeer).
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	return ln, nil
}

// serveControl answers commands on ln, one at a time (they are an
// operator's, and each is bounded by ControlTimeout), until ctx ends; then
// it closes ln, which removes the socket.
func (d *Daemon) serveControl(ctx context.Context, ln *net.UnixListener) {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		conn, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() == nil {
				d.log.Error("control socket", "err", err)
			}
			ln.Close()
			return
		}
		d.serve(conn)
		conn.Close()
	}
}

// serve runs one command from the command line.
func (d *Daemon) serve(conn *net.UnixConn) {
	conn.SetDeadline(time.Now().Add(ControlTimeout))
	if err := CheckPeer(conn); err != nil {
		d.log.Warn("control socket: connection refused", "err", err)
		return
	}
	var req Request
	if err := json.NewDecoder(io.LimitReader(conn, maxRequest)).Decode(&req); err != nil {
		d.log.Warn("control socket: unreadable request", "err", err)
		return
	}
	ans := d.run(req)
	d.log.Info("operator command", "command", req.Command, "exit", ans.Code)
	if err := json.NewEncoder(conn).Encode(ans); err != nil {
		d.log.Warn("control socket: answering", "command", req.Command, "err", err)
	}
}

// run runs one command; a panic in it is logged and answered as an
// internal error instead of stopping the daemon.
func (d *Daemon) run(req Request) (ans Answer) {
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("operator command panicked", "command", req.Command, "panic", p, "stack", string(debug.Stack()))
			ans = Answer{Code: 1, Stderr: fmt.Appendf(nil, "attu %s: internal error in the daemon; see its log\n", req.Command)}
		}
	}()
	if d.cfg.Operator == nil {
		return Answer{Code: 2, Stderr: fmt.Appendf(nil, "attu: the daemon runs no commands\n")}
	}
	return d.cfg.Operator(&Host{DB: d.db, Service: d.svc, Address: d.cfg.Address, d: d}, req)
}
