//go:build !linux

package daemon

import "net"

// peerAllowed trusts the socket's mode (0600) where the peer's
// credentials cannot be read the Linux way.
func peerAllowed(conn *net.UnixConn) error { return nil }
