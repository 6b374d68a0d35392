package atomicfile_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	require.NoError(t, atomicfile.WriteFile(path, []byte("one"), 0o640))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "a new file gets perm")

	require.NoError(t, os.Chmod(path, 0o600))
	require.NoError(t, atomicfile.WriteFile(path, []byte("two"), 0o644))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(got))
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file keeps its mode")

	// A failing write leaves the old content and no temporary file.
	boom := errors.New("boom")
	err = atomicfile.Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	require.ErrorIs(t, err, boom)
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)

	// A link: the file it points at is replaced, the link stays.
	link := filepath.Join(dir, "link.txt")
	require.NoError(t, os.Symlink(path, link))
	require.NoError(t, atomicfile.WriteFile(link, []byte("three"), 0o644))
	fi, err = os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type())
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "three", string(got))

	// Not a regular file, or no such directory.
	assert.Error(t, atomicfile.WriteFile(dir, []byte("x"), 0o644))
	assert.Error(t, atomicfile.WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644))
}
