package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// rootContext is the one context every long-running command stops with:
// it ends at SIGINT or SIGTERM.
func rootContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
