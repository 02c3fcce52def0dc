package main

import "syscall"

// nobody runs a process as the user nobody (65534).
func nobody() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
}
