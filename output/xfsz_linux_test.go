package output_test

import (
	"os/signal"
	"syscall"
)

// signalIgnoreXFSZ ignores SIGXFSZ, which the kernel sends to a process
// that writes past its file size limit.
func signalIgnoreXFSZ() { signal.Ignore(syscall.SIGXFSZ) }
