//go:build unix

package atomicfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// TestWriteThroughLinks writes through a relative link, a chain of links
// and a dangling link: the links stay links, the files they lead to get
// the content, and no temporary file is left anywhere.
func TestWriteThroughLinks(t *testing.T) {
	site, srv := t.TempDir(), t.TempDir()
	real := filepath.Join(srv, "sitemap.xml")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o600))
	abs := filepath.Join(site, "abs.xml")
	require.NoError(t, os.Symlink(real, abs))
	chain := filepath.Join(site, "chain.xml")
	require.NoError(t, os.Symlink("abs.xml", chain))
	for _, link := range []string{abs, chain} {
		require.NoError(t, atomicfile.WriteFile(link, []byte("new "+link), 0o644))
		fi, err := os.Lstat(link)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "%s stays a link", link)
		got, err := os.ReadFile(real)
		require.NoError(t, err)
		assert.Equal(t, "new "+link, string(got))
		fi, err = os.Stat(real)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the target keeps its mode")
	}

	// A dangling link creates the file it points at.
	dangling := filepath.Join(site, "dangling.xml")
	require.NoError(t, os.Symlink(filepath.Join(srv, "new.xml"), dangling))
	require.NoError(t, atomicfile.WriteFile(dangling, []byte("created"), 0o644))
	got, err := os.ReadFile(filepath.Join(srv, "new.xml"))
	require.NoError(t, err)
	assert.Equal(t, "created", string(got))
	fi, err := os.Lstat(dangling)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())

	// One into a directory that does not exist is refused, naming both.
	nowhere := filepath.Join(site, "nowhere.xml")
	require.NoError(t, os.Symlink(filepath.Join(srv, "missing", "x.xml"), nowhere))
	err = atomicfile.WriteFile(nowhere, []byte("x"), 0o644)
	require.Error(t, err)
	assert.Contains(t, err.Error(), nowhere+" (a link to "+filepath.Join(srv, "missing", "x.xml")+"): the directory")

	// A loop of links is refused.
	loop := filepath.Join(site, "loop.xml")
	require.NoError(t, os.Symlink("loop.xml", loop))
	assert.Error(t, atomicfile.WriteFile(loop, []byte("x"), 0o644))

	for _, dir := range []string{site, srv} {
		des, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, d := range des {
			assert.NotContains(t, d.Name(), ".tmp-", "a temporary file left in %s", dir)
		}
	}
}

// TestRefuseWhatIsNotAFile refuses a directory, a named pipe, a character
// device and a link to one of them, at once (a FIFO used to block for a
// reader forever), and writes nothing.
func TestRefuseWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	linkToFIFO := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(fifo, linkToFIFO))
	cases := map[string]string{dir: "a directory", fifo: "a named pipe (FIFO)", linkToFIFO: "a named pipe (FIFO)"}
	if _, err := os.Stat("/dev/null"); err == nil {
		cases["/dev/null"] = "a character device"
	}
	for path, what := range cases {
		done := make(chan error, 1)
		go func() { done <- atomicfile.WriteFile(path, []byte("x"), 0o644) }()
		select {
		case err := <-done:
			require.ErrorIs(t, err, atomicfile.ErrNotRegular, path)
			assert.Contains(t, err.Error(), path)
			assert.Contains(t, err.Error(), "is "+what+", not a regular file")
		case <-time.After(10 * time.Second):
			t.Fatalf("writing to %s blocks", path)
		}
		_, err := atomicfile.Target(path)
		assert.ErrorIs(t, err, atomicfile.ErrNotRegular)
	}
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, des, 2, "nothing written")
}

// TestPlaceThroughLink puts a finished temporary file at a link's target,
// in another directory, and keeps the target's mode.
func TestPlaceThroughLink(t *testing.T) {
	site, srv := t.TempDir(), t.TempDir()
	real := filepath.Join(srv, "sitemap.xml")
	require.NoError(t, os.WriteFile(real, []byte("old"), 0o640))
	link := filepath.Join(site, "sitemap.xml")
	require.NoError(t, os.Symlink(real, link))
	tmp, err := atomicfile.CreateTemp(site, "sitemap.xml")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(filepath.Base(tmp.Name()), atomicfile.TempPrefix("sitemap.xml")))
	tmp.WriteString("new")
	require.NoError(t, tmp.Close())
	target, err := atomicfile.Place(tmp.Name(), link, 0o644)
	require.NoError(t, err)
	assert.Equal(t, real, target)
	got, err := os.ReadFile(link)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	fi, err = os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	assert.NoFileExists(t, tmp.Name())
}

// TestSame tells the paths that lead to one file: through a link, a
// relative path, a linked directory, a hard link; and those that do not.
func TestSame(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.xml")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	link := filepath.Join(dir, "link.xml")
	require.NoError(t, os.Symlink("a.xml", link))
	hard := filepath.Join(dir, "hard.xml")
	require.NoError(t, os.Link(file, hard))
	dirLink := filepath.Join(t.TempDir(), "d")
	require.NoError(t, os.Symlink(dir, dirLink))
	wd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(wd, file)
	require.NoError(t, err)
	for _, p := range []string{file, link, hard, filepath.Join(dirLink, "a.xml"), rel, filepath.Join(dir, "x", "..", "a.xml")} {
		assert.True(t, atomicfile.Same(p, file), p)
		assert.True(t, atomicfile.Same(file, p), p)
	}
	// A file that does not exist yet, named two ways.
	assert.True(t, atomicfile.Same(filepath.Join(dirLink, "new.xml"), filepath.Join(dir, "new.xml")))
	assert.False(t, atomicfile.Same(filepath.Join(dir, "b.xml"), file))
}

// TestPlaceAcrossFileSystems puts a file at a link to another file system
// (/dev/shm, when it is one), where rename cannot go: it is copied.
func TestPlaceAcrossFileSystems(t *testing.T) {
	site := t.TempDir()
	other, err := os.MkdirTemp("/dev/shm", "atomicfile-")
	if err != nil {
		t.Skip("no /dev/shm")
	}
	defer os.RemoveAll(other)
	var a, b syscall.Stat_t
	require.NoError(t, syscall.Stat(site, &a))
	require.NoError(t, syscall.Stat(other, &b))
	if a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same file system as the temporary directory")
	}
	real := filepath.Join(other, "sitemap.xml")
	link := filepath.Join(site, "sitemap.xml")
	require.NoError(t, os.Symlink(real, link))
	tmp, err := atomicfile.CreateTemp(site, "sitemap.xml")
	require.NoError(t, err)
	tmp.WriteString("across")
	require.NoError(t, tmp.Close())
	_, err = atomicfile.Place(tmp.Name(), link, 0o644)
	require.NoError(t, err)
	got, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Equal(t, "across", string(got))
	assert.NoFileExists(t, tmp.Name())
	des, err := os.ReadDir(other)
	require.NoError(t, err)
	assert.Len(t, des, 1, "no temporary file left beside the target")
}
