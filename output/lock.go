package output

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/filelock"
)

// Lock takes the lock of the output: the lock file ".STEM.lock" beside it
// (.sitemap.lock for sitemap.xml, sitemap.txt and their parts), waiting at
// most timeout for another run that holds it (0: not at all). The lock is
// held until Close succeeds or Abort, and the kernel drops it when the
// process ends, however it ends. The error of a lock that stayed held
// matches ErrLocked and names the lock file and its holder.
//
// Close takes the lock itself when it is not held, so that two runs never
// put files in place at once; a run that reads the previous set
// (Locations) and writes it again calls Lock before reading it.
func (s *Set) Lock(timeout time.Duration) error {
	if s.lock != nil {
		return nil
	}
	l, err := filelock.Acquire(s.LockPath(), timeout)
	if errors.Is(err, ErrLocked) {
		return fmt.Errorf("output: another run is writing %s: %w", s.path, err)
	}
	if err != nil {
		return fmt.Errorf("output: %w", err)
	}
	s.lock = l
	return nil
}

// LockPath returns the path of the output's lock file.
func (s *Set) LockPath() string { return filepath.Join(s.dir, "."+s.stem+".lock") }

// unlock releases the lock, if held.
func (s *Set) unlock() {
	s.lock.Release()
	s.lock = nil
}
