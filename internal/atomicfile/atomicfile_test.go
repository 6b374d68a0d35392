package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o640))
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("new")
	require.NoError(t, err)
	got, _ := os.ReadFile(path)
	assert.Equal(t, "old", string(got), "untouched until Commit")
	require.NoError(t, f.Commit())
	got, _ = os.ReadFile(path)
	assert.Equal(t, "new", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the replaced file's mode is kept")
	f.Abort() // a no-op after Commit
	assertOnly(t, dir, "sitemap.xml")
	assert.Error(t, f.Commit(), "a second Commit is refused")
}

func TestAbortLeavesTargetAndNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	f.WriteString("half")
	f.Abort()
	got, _ := os.ReadFile(path)
	assert.Equal(t, "old", string(got))
	assertOnly(t, dir, "sitemap.xml")
}

func TestNewFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.txt")
	f, err := atomicfile.Create(path)
	require.NoError(t, err)
	require.NoError(t, f.Commit())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
}

func TestCreateFails(t *testing.T) {
	dir := t.TempDir()
	_, err := atomicfile.Create(dir)
	assert.ErrorContains(t, err, "not a regular file", "a directory is never replaced")
	_, err = atomicfile.Create(filepath.Join(dir, "missing", "sitemap.xml"))
	assert.Error(t, err)
	if os.Geteuid() != 0 { // root writes anywhere
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		_, err = atomicfile.Create(filepath.Join(ro, "sitemap.xml"))
		assert.Error(t, err)
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	assert.Equal(t, names, got, "no temporary file is left behind")
}
