package standin_test

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD: the calling thread's usage.
const rusageThread = 1

// threadCPU returns the CPU time the calling thread has used. The
// goroutine must be locked to its thread (lockThread) for the difference
// of two readings to be its own work: the machine's load and the other
// goroutines do not count, which wall time would.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func lockThread() { runtime.LockOSThread() }
