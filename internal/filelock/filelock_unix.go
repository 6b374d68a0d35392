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
//
// Release removes the lock file while it holds the lock, so a run that
// opened the file before may lock it after it was removed: the lock is
// held only if the path still names the file locked, else try again.
func try(path string) (*Lock, error) {
	for {
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
		locked, err1 := f.Stat()
		named, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(locked, named) {
			return &Lock{path: path, f: f}, nil
		}
		f.Close() // a lock file removed by its last holder
	}
}

// Release releases the lock and removes the lock file (while holding it;
// see try). A process that ends drops its lock without removing the file;
// the next run uses it.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path)
	if cerr := l.f.Close(); err == nil { // closing drops the flock
		err = cerr
	}
	l.f = nil
	return err
}
