//go:build !linux

package standin_test

import "time"

var start = time.Now()

// threadCPU is wall time where the thread's CPU time cannot be read.
func threadCPU() time.Duration { return time.Since(start) }

func lockThread() {}
