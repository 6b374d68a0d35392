package filelock_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/filelock"
)

// holdEnv makes the test binary take the lock it names, say so, and sleep:
// the process TestLockDiesWithItsProcess kills.
const holdEnv = "FILELOCK_TEST_HOLD"

func TestMain(m *testing.M) {
	if path := os.Getenv(holdEnv); path != "" {
		if _, err := filelock.Acquire(path, 0); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestLockWaitsThenFails holds a lock: another Acquire waits its time-out
// and fails naming the lock file and the holder; once released, the lock
// is taken, and a waiter gets it when the holder releases part-way.
func TestLockWaitsThenFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".sitemap.lock")
	l, err := filelock.Acquire(path, 0)
	require.NoError(t, err)
	assert.Equal(t, path, l.Path())

	_, err = filelock.Acquire(path, 20*time.Millisecond)
	require.ErrorIs(t, err, filelock.ErrLocked)
	assert.Contains(t, err.Error(), "process "+strconv.Itoa(os.Getpid())+" (since ")
	assert.Contains(t, err.Error(), "holds the lock "+path+"; waited 20ms for it")

	got := make(chan error, 1)
	go func() {
		l2, err := filelock.Acquire(path, time.Minute)
		if err == nil {
			err = l2.Release()
		}
		got <- err
	}()
	time.Sleep(10 * time.Millisecond)
	require.NoError(t, l.Release())
	require.NoError(t, <-got, "the waiter takes the lock once it is released")
	require.NoError(t, l.Release(), "releasing twice does nothing")
}

// TestLockDiesWithItsProcess kills a process holding the lock (SIGKILL:
// nothing of its own runs): the lock is free at once.
func TestLockDiesWithItsProcess(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("the lock is flock(2)")
	}
	path := filepath.Join(t.TempDir(), ".sitemap.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)
	_, err = filelock.Acquire(path, 0)
	require.ErrorIs(t, err, filelock.ErrLocked)
	assert.Contains(t, err.Error(), "process "+strconv.Itoa(cmd.Process.Pid)+" (since ", "the holder is named")
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	l, err := filelock.Acquire(path, time.Minute)
	require.NoError(t, err, "a killed holder leaves no lock")
	require.NoError(t, l.Release())
}

// TestLockExcludes has goroutines take and release the lock many times
// (each Release removes the lock file while others wait on it): never two
// hold it at once, and the lock file is gone at the end.
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".sitemap.lock")
	var holders, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				l, err := filelock.Acquire(path, time.Minute)
				if !assert.NoError(t, err) {
					return
				}
				if holders.Add(1) > 1 {
					overlaps.Add(1)
				}
				runtime.Gosched()
				holders.Add(-1)
				assert.NoError(t, l.Release())
			}
		}()
	}
	wg.Wait()
	assert.Zero(t, overlaps.Load(), "two held the lock at once")
	assert.NoFileExists(t, path)
}
