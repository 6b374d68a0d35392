//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// staleHint is added to the error of a lock held too long: on Unix a lock
// never outlives its process, so there is nothing to remove.
const staleHint = ""

// try takes the lock without waiting, or returns errBusy.
func try(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errBusy
		}
		return nil, err
	}
	return &Lock{path: path, f: f}, nil
}

// Release releases the lock. The lock file stays: removing it would let a
// run that opened it already lock a file no other run sees.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	l.f.Truncate(0)
	err := l.f.Close() // closing drops the flock
	l.f = nil
	return err
}
