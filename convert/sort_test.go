package convert

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// A sort bigger than one run goes through the spool and merges the runs,
// stably.
func TestSortRuns(t *testing.T) {
	const n = 400000 // three runs of sortRunBytes
	in := make(entries, n)
	for i := range in {
		in[i] = formats.Entry{Loc: fmt.Sprintf("https://e.example/%d", (i*7919)%(n/2))}
		if i < n/2 {
			in[i].ChangeFreq = formats.Daily // marks the first of two equal locs
		}
	}
	s := Sort(&in, SortLoc, t.TempDir())
	defer s.Close()
	var prev formats.Entry
	count := 0
	for e, err := range formats.All(s) {
		require.NoError(t, err)
		if count > 0 {
			require.LessOrEqual(t, prev.Loc, e.Loc)
			if prev.Loc == e.Loc {
				require.Equal(t, formats.Daily, prev.ChangeFreq, "stable: the earlier of equal entries first")
				require.Empty(t, e.ChangeFreq)
			}
		}
		prev = e
		count++
	}
	assert.Equal(t, n, count)
	require.NotNil(t, s.runs, "went through the spool")
	assert.Greater(t, len(s.runs.heap.scanners), 1)
}
