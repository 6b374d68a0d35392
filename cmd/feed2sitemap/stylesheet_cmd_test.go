package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

func TestStylesheetCmd(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "stylesheet")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, string(stylesheet.Default()), out)
	assert.Empty(t, errOut)

	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xsl")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	out, errOut, status = runCLI(t, nil, "stylesheet", "-o", path)
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, out)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, stylesheet.Default(), got)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file keeps its mode")

	_, errOut, status = runCLI(t, nil, "stylesheet", "-o", filepath.Join(dir, "missing", "sitemap.xsl"))
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "missing does not exist")
}
