//go:build unix

package output

import (
	"errors"
	"syscall"
)

// processAlive reports whether the process pid runs (or may run: one of
// another user's answers EPERM).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
