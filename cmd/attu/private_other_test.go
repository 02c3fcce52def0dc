//go:build !linux

package main

import "syscall"

// nobody runs a process as the user nobody, where that can be asked.
func nobody() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
