package daemon

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerAllowed lets in only the daemon's own user and root: the socket's
// mode says the same, but only once it is set (listenControl).
func peerAllowed(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var credErr error
	err = raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	})
	if err == nil {
		err = credErr
	}
	if err != nil {
		return fmt.Errorf("reading the peer's credentials: %w", err)
	}
	if cred.Uid != uint32(os.Getuid()) && cred.Uid != 0 {
		return fmt.Errorf("user %d is not the daemon's user", cred.Uid)
	}
	return nil
}
