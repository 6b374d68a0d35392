package indexnow_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

func TestState(t *testing.T) {
	s := indexnow.NewState()
	assert.True(t, s.Check("https://example.com/a", "2026-11-20"))
	assert.True(t, s.Check("https://example.com/b", ""))
	assert.True(t, s.Check("https://example.com/c", "2026-11-01"))
	assert.True(t, s.Check("https://example.com/a", "2026-11-20"), "staged is not submitted yet")
	s.Done([]string{"https://example.com/a", "https://example.com/b"}, true)
	s.Done([]string{"https://example.com/c"}, false)
	assert.True(t, s.Changed())
	assert.Equal(t, 2, s.Len())

	assert.False(t, s.Check("https://example.com/a", "2026-11-20"), "unchanged")
	assert.False(t, s.Check("https://example.com/b", ""), "unchanged, no lastmod")
	assert.True(t, s.Check("https://example.com/c", "2026-11-01"), "its batch failed")
	assert.True(t, s.Check("https://example.com/a", "2026-11-21T08:00:00Z"), "lastmod changed")
	assert.True(t, s.Check("https://example.com/b", "2026-11-21"), "lastmod appeared")
	assert.True(t, s.Check("https://example.com/A", "2026-11-20"), "another URL")

	// Round trip through a file.
	dir := t.TempDir()
	path := filepath.Join(dir, "state")
	empty, err := indexnow.LoadState(path)
	require.NoError(t, err, "a missing file is an empty state")
	assert.Equal(t, 0, empty.Len())
	require.NoError(t, s.Save(path))
	back, err := indexnow.LoadState(path)
	require.NoError(t, err)
	assert.Equal(t, 2, back.Len())
	assert.False(t, back.Changed())
	assert.False(t, back.Check("https://example.com/a", "2026-11-20"))
	assert.True(t, back.Check("https://example.com/c", "2026-11-01"))

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Len(t, b, len("feed2sitemap indexnow state 1 2\n")+2*16, "16 bytes a URL")
	var again bytes.Buffer
	_, err = back.WriteTo(&again)
	require.NoError(t, err)
	assert.Equal(t, b, again.Bytes(), "the same state, the same bytes")
}

func TestStateMemory(t *testing.T) {
	s := indexnow.NewState()
	for i := range 100000 {
		loc := fmt.Sprintf("https://example.com/page/%d", i)
		s.Check(loc, "2026-11-20")
		s.Done([]string{loc}, true)
	}
	var buf bytes.Buffer
	n, err := s.WriteTo(&buf)
	require.NoError(t, err)
	assert.Equal(t, int64(buf.Len()), n)
	assert.Less(t, n, int64(17*100000), "at most 16 bytes a URL, and a header")
}

func TestReadStateErrors(t *testing.T) {
	good := "feed2sitemap indexnow state 1 2\n" + strings.Repeat("\x00", 7) + "\x01" + "12345678" + strings.Repeat("\x00", 7) + "\x02" + "12345678"
	_, err := indexnow.ReadState(strings.NewReader(good), "good")
	require.NoError(t, err)
	for name, bad := range map[string]string{
		"empty":        "",
		"other file":   "User-agent: *\n",
		"no newline":   "feed2sitemap indexnow state 1 2",
		"bad count":    "feed2sitemap indexnow state 1 x\n",
		"leading zero": "feed2sitemap indexnow state 1 00\n",
		"huge count":   "feed2sitemap indexnow state 1 99999999999999\n",
		"cut short":    good[:len(good)-1],
		"extra data":   good + "x",
		"out of order": "feed2sitemap indexnow state 1 2\n" + strings.Repeat("\x00", 7) + "\x02" + "12345678" + strings.Repeat("\x00", 7) + "\x01" + "12345678",
		"version 2":    strings.Replace(good, "state 1", "state 2", 1),
	} {
		_, err := indexnow.ReadState(strings.NewReader(bad), "state.bin")
		assert.ErrorIs(t, err, indexnow.ErrBadState, name)
		assert.ErrorContains(t, err, "state.bin: ", name)
	}
	dir := t.TempDir()
	_, err = indexnow.LoadState(dir)
	assert.Error(t, err, "a directory")
}
