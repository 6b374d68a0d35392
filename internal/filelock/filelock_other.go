//go:build !unix

package filelock

import (
	"errors"
	"io/fs"
	"os"
)

// staleHint is added to the error of a lock held too long: here the lock
// file of a run that crashed stays.
const staleHint = "; if no other run is going, a run that crashed left it: remove it"

// try takes the lock without waiting, or returns errBusy: the lock is the
// lock file, created exclusively.
func try(path string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, errBusy
	}
	if err != nil {
		return nil, err
	}
	return &Lock{path: path, f: f}, nil
}

// Release releases the lock: the lock file is removed.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	if rerr := os.Remove(l.path); err == nil {
		err = rerr
	}
	return err
}
