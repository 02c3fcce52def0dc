package daemon

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// CheckPeer accepts the other end of a control socket connection only
// when it runs as this process's user or as root (SO_PEERCRED): the
// daemon lets in no other user, though the socket's mode says the same
// once it is set (listenControl); the command line trusts no other
// process that took the socket's path.
func CheckPeer(conn *net.UnixConn) error {
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
		return fmt.Errorf("the other end runs as user %d, neither this user nor root", cred.Uid)
	}
	return nil
}
