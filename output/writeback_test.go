package output

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWritebackWritesAllAndHandsOverEveryMiB(t *testing.T) {
	// The file gets every byte, in order; past each writebackEvery bytes
	// written, what was written is handed to the system's writeback.
	f, err := os.Create(filepath.Join(t.TempDir(), "part"))
	require.NoError(t, err)
	defer f.Close()
	w := &writeback{f: f}
	var want bytes.Buffer
	piece := make([]byte, 100<<10)
	for i := range 36 {
		for j := range piece {
			piece[j] = byte(i + j)
		}
		n, err := w.Write(piece)
		require.NoError(t, err)
		require.Equal(t, len(piece), n)
		want.Write(piece)
		assert.Less(t, w.off-w.from, int64(writebackEvery), "handed over past every MiB")
		assert.Zero(t, w.from%(100<<10))
	}
	assert.Equal(t, int64(36*100<<10), w.off)
	assert.Equal(t, int64(33*100<<10), w.from, "the last hand-over at 3.3 MB, the first write past 3 MiB")
	got, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want.Bytes(), got))
}
