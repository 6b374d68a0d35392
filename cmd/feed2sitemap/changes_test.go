package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reportedChanges runs a conversion of input to out with --report and
// returns the report's "changes".
func reportedChanges(t *testing.T, input, out string, args ...string) *reportChanges {
	t.Helper()
	rep := filepath.Join(t.TempDir(), "report.json")
	_, errOut, status := runCLI(t, nil, append([]string{input, "-o", out, "--report", rep}, args...)...)
	require.Equal(t, exitOK, status, errOut)
	b, err := os.ReadFile(rep)
	require.NoError(t, err)
	var r struct{ Changes *reportChanges }
	require.NoError(t, json.Unmarshal(b, &r))
	return r.Changes
}

func TestReportChangesAgainstThePreviousSet(t *testing.T) {
	oldSet, newSet := diffSets(t)
	for _, split := range []bool{false, true} {
		dir := t.TempDir()
		out := filepath.Join(dir, "sitemap.xml")
		var args []string
		if split {
			// An index and parts of two URLs each: the previous set is
			// read through its index.
			args = []string{"--base-url", "https://example.com/", "--max-urls", "2"}
		}
		assert.Nil(t, reportedChanges(t, oldSet, out, args...), "no previous set: no changes")
		ch := reportedChanges(t, newSet, out, args...)
		require.NotNil(t, ch)
		assert.Equal(t, 1, ch.Added)
		assert.Equal(t, 1, ch.Removed)
		assert.Equal(t, 3, ch.Changed)
		assert.Equal(t, 1, ch.Same)
		require.Len(t, ch.Pages, 5)
		assert.Equal(t, reportChange{Change: "removed", Loc: "https://example.com/gone"}, ch.Pages[2])
		assert.Equal(t, []fieldJSON{{Name: "images", Old: "1", New: "2"}}, ch.Pages[4].Fields)

		same := reportedChanges(t, newSet, out, args...)
		assert.Equal(t, &reportChanges{Same: 5, Pages: []reportChange{}}, same, "split %v", split)
	}
}

func TestReportChangesListIsBounded(t *testing.T) {
	defer func(n int) { maxReportedChanges = n }(maxReportedChanges)
	maxReportedChanges = 2
	oldSet, newSet := diffSets(t)
	out := filepath.Join(t.TempDir(), "sitemap.xml")
	reportedChanges(t, oldSet, out)
	ch := reportedChanges(t, newSet, out)
	assert.Len(t, ch.Pages, 2)
	assert.Equal(t, 3, ch.Omitted, "the counts are whole; omitted says how many pages are not listed")
	assert.Equal(t, 5, ch.Added+ch.Removed+ch.Changed)
}
