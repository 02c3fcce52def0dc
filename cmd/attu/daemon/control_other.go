//go:build !linux

package daemon

import "net"

// CheckPeer accepts the other end of a control socket connection: where
// the peer's credentials cannot be read the Linux way, the socket's mode
// (0600) is trusted.
func CheckPeer(conn *net.UnixConn) error { return nil }
