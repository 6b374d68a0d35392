//go:build unix

package output_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// TestOutputThroughLink writes a sitemap, then a split set, to a path that
// is a link to a file elsewhere (a deployed public/sitemap.xml -> /srv/...):
// the link stays a link, the file it points at is the sitemap or the index,
// and the parts go beside the link, where the index says they are served.
func TestOutputThroughLink(t *testing.T) {
	site, srv := t.TempDir(), t.TempDir()
	real := filepath.Join(srv, "sitemap.xml")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o640))
	link := filepath.Join(site, "sitemap.xml")
	require.NoError(t, os.Symlink(real, link))
	isLink := func() {
		t.Helper()
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	}

	opts := output.Options{Path: link, Format: xml.Format, MaxURLs: 10, BaseURL: base(t, "https://example.com/")}
	_, err := write(t, opts, pages(5, false))
	require.NoError(t, err)
	isLink()
	assert.Len(t, readEntries(t, real), 5)
	fi, err := os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the target keeps its mode")

	_, err = write(t, opts, pages(25, false))
	require.NoError(t, err)
	isLink()
	assert.Len(t, readSet(t, site, link), 25, "the index, read through the link, lists parts beside it")
	assert.Equal(t, []string{"sitemap.xml"}, names(t, srv), "nothing else is written beside the target")

	// A dangling link creates the file it points at.
	require.NoError(t, os.Remove(real))
	_, err = write(t, opts, pages(3, false))
	require.NoError(t, err)
	isLink()
	assert.Len(t, readEntries(t, real), 3)
}

// TestOutputRefusesWhatIsNotAFile refuses, in New, before anything is read
// or written, an output that is a directory, a named pipe (which used to
// block for a reader forever), a device, or a link to one of them.
func TestOutputRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.xml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link.xml")
	require.NoError(t, os.Symlink(fifo, link))
	sub := filepath.Join(dir, "sub.xml")
	require.NoError(t, os.Mkdir(sub, 0o755))
	paths := []string{fifo, link, sub}
	if _, err := os.Stat("/dev/null"); err == nil {
		paths = append(paths, "/dev/null")
	}
	// A text output's index (urls.xml) may not be one either.
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "urls.xml"), 0o644))
	for _, path := range paths {
		_, err := output.New(output.Options{Path: path, Format: xml.Format})
		require.Error(t, err, path)
		assert.Contains(t, err.Error(), "not a regular file", path)
	}
	_, err := output.New(output.Options{Path: filepath.Join(dir, "urls.txt"), Format: textFormat(t)})
	assert.ErrorContains(t, err, "urls.xml is a named pipe (FIFO), not a regular file")
}

func textFormat(t *testing.T) *formats.Format {
	f, err := formats.Lookup("text")
	require.NoError(t, err)
	return f
}

// TestConcurrentSets writes two split sets of different generations to the
// same path at once, many times, through the library (Close takes the
// output's lock): after every pair the index lists complete parts of one
// generation, and no temporary file or lock is left.
func TestConcurrentSets(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	const n = 25
	for i := range 100 {
		var wg sync.WaitGroup
		for _, gen := range []string{"a", "b"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				es := make([]formats.Entry, n)
				for k := range es {
					es[k] = formats.Entry{Loc: fmt.Sprintf("https://example.com/%s/%d", gen, k)}
				}
				_, err := write(t, output.Options{Path: path, Format: xml.Format, MaxURLs: 10, BaseURL: base(t, "https://example.com/")}, es)
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		check(t, dir, path, n)
		for _, name := range names(t, dir) {
			require.False(t, strings.HasPrefix(name, "."), "iteration %d left %s", i, name)
		}
	}
}

// TestLockHeldByAnotherRun fails a Set whose lock another run holds for
// longer than the wait, naming the lock and its holder, and leaves the
// files as they were.
func TestLockHeldByAnotherRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	first, err := output.New(output.Options{Path: path, Format: xml.Format})
	require.NoError(t, err)
	require.NoError(t, first.Lock(0))
	defer first.Abort()

	second, err := output.New(output.Options{Path: path, Format: xml.Format, LockTimeout: 30 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, second.Write(formats.Entry{Loc: "https://example.com/"}))
	err = second.Close()
	require.ErrorIs(t, err, output.ErrLocked)
	assert.Contains(t, err.Error(), "another run is writing "+path)
	assert.Contains(t, err.Error(), fmt.Sprintf("process %d (since ", os.Getpid()))
	assert.Contains(t, err.Error(), first.LockPath())
	second.Abort()
	assert.Equal(t, []string{".sitemap.lock"}, names(t, dir), "nothing written")

	first.Abort()
	assert.Empty(t, names(t, dir), "the lock is released and its file removed")
}
