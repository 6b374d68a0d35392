// Package filelock serializes the runs that write the same files: a run
// takes an exclusive lock on a lock file beside them before it reads or
// writes anything, and holds it until it is done.
//
// On Unix the lock is flock(2) on the lock file, which the kernel drops
// when the process exits, however it exits (a crash or SIGKILL included):
// a lock is never left behind. The lock file holds the holder's
// description and is removed on Release; one left by a process that died
// is used by the next run. On other systems the lock is the lock file
// itself, created exclusively and removed on Release; a run that crashed
// leaves it, and the next run's error says to remove it.
package filelock

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"time"
)

// ErrLocked is matched (with errors.Is) by the error of Acquire when
// another run held the lock for the whole wait.
var ErrLocked = errors.New("filelock: held by another run")

// Lock is a lock held on a lock file. Release it when done.
type Lock struct {
	path string
	f    *os.File
}

// Path returns the lock file's path.
func (l *Lock) Path() string { return l.path }

// poll is how long Acquire first waits between tries; each wait doubles,
// up to maxPoll.
const (
	poll    = 2 * time.Millisecond
	maxPoll = 100 * time.Millisecond
)

// Acquire takes the lock on the lock file at path, creating the file when
// it does not exist, waiting at most timeout for another run to release it
// (0: it tries once). It then writes who holds it (process id and time)
// into the file, for the error another run gets. When the lock stays held,
// the error matches ErrLocked and names the lock file and its holder.
func Acquire(path string, timeout time.Duration) (*Lock, error) {
	deadline := time.Now().Add(timeout)
	wait := poll
	for {
		l, err := try(path)
		if err == nil {
			l.describe()
			return l, nil
		}
		if !errors.Is(err, errBusy) {
			return nil, fmt.Errorf("lock file %s: %w", path, err)
		}
		if left := time.Until(deadline); left <= 0 {
			return nil, lockedError(path, timeout)
		} else if wait > left {
			wait = left
		}
		time.Sleep(wait)
		wait = min(2*wait, maxPoll)
	}
}

// errBusy is what try returns when another run holds the lock.
var errBusy = errors.New("busy")

// lockedError describes a lock that stayed held for the whole wait.
func lockedError(path string, timeout time.Duration) error {
	holder := "another run"
	if b, err := os.ReadFile(path); err == nil && holderDesc.Match(bytes.TrimSpace(b)) {
		holder = string(bytes.TrimSpace(b))
	}
	return lockedErr(fmt.Sprintf("%s holds the lock %s; waited %v for it%s", holder, path, timeout, staleHint))
}

// holderDesc matches what describe writes: what the lock file holds is
// shown only when it is that.
var holderDesc = regexp.MustCompile(`^process [0-9]+ \(since [0-9TZ:+-]+\)$`)

// lockedErr describes a lock held by another run; it matches ErrLocked.
type lockedErr string

func (e lockedErr) Error() string        { return string(e) }
func (e lockedErr) Is(target error) bool { return target == ErrLocked }

// describe writes who holds the lock into the lock file: best effort, for
// messages only.
func (l *Lock) describe() {
	desc := fmt.Sprintf("process %d (since %s)\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))
	if l.f.Truncate(0) == nil {
		l.f.WriteAt([]byte(desc), 0)
	}
}
