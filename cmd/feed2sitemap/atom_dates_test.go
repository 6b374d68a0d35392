package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAtomUndatedEntriesWarn: Atom output of entries without a date fills
// the required <updated> with the feed's, and the run says so (unless -q).
func TestAtomUndatedEntriesWarn(t *testing.T) {
	in := strings.NewReader("https://a.example/1\nhttps://a.example/2\n")
	out, errOut, status := runCLI(t, in, "-", "--to", "atom")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, "<entry>")
	assert.Contains(t, errOut, "feed2sitemap: warning: 2 Atom entries with no date (the first https://a.example/1): Atom requires <updated>")

	_, errOut, status = runCLI(t, strings.NewReader("https://a.example/1\n"), "-", "--to", "atom", "-q")
	require.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, errOut, "Atom entr")
}
