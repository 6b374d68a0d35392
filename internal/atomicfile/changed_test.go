package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

func TestPlaceChanged(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.xml")
	link := filepath.Join(dir, "link.xml")
	require.NoError(t, os.WriteFile(real, []byte("same"), 0o600))
	require.NoError(t, os.Symlink("real.xml", link))
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(real, old, old))

	temp := func(content string) string {
		f, err := atomicfile.CreateTemp(dir, "real.xml")
		require.NoError(t, err)
		_, err = f.WriteString(content)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		return f.Name()
	}

	// The same bytes: the file is kept, modification time and all.
	tmp := temp("same")
	target, replaced, err := atomicfile.PlaceChanged(tmp, link, 0o644)
	require.NoError(t, err)
	assert.False(t, replaced)
	assert.Equal(t, real, target)
	assert.NoFileExists(t, tmp)
	fi, err := os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, old, fi.ModTime())

	// Other bytes: replaced through the link, which stays a link, keeping
	// the permission bits.
	tmp = temp("other")
	target, replaced, err = atomicfile.PlaceChanged(tmp, link, 0o644)
	require.NoError(t, err)
	assert.True(t, replaced)
	assert.Equal(t, real, target)
	got, err := os.ReadFile(real)
	require.NoError(t, err)
	assert.Equal(t, "other", string(got))
	li, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, li.Mode()&os.ModeSymlink)
	fi, err = os.Stat(real)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	// No file yet: placed.
	tmp = temp("new")
	_, replaced, err = atomicfile.PlaceChanged(tmp, filepath.Join(dir, "new.xml"), 0o644)
	require.NoError(t, err)
	assert.True(t, replaced)

	// A directory there is refused, and the temporary file removed.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d.xml"), 0o755))
	tmp = temp("x")
	_, _, err = atomicfile.PlaceChanged(tmp, filepath.Join(dir, "d.xml"), 0o644)
	require.ErrorIs(t, err, atomicfile.ErrNotRegular)
	assert.NoFileExists(t, tmp)
}
