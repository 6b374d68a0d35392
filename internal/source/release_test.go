package source

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
)

// The tests run with bufpool.Check: a buffer given back is filled with
// poison, so that a reader that goes on reading one shows.
func TestMain(m *testing.M) {
	bufpool.Check()
	os.Exit(m.Run())
}

// Inputs opened one after another, each released after it was read (to
// its end, part-way, or only recognized), give each the next its buffers,
// its gzip layers' too; each reads its own content, whole. A release while
// the goroutine that decompresses ahead may still read the gzip layers
// must not give them back: the next input would share a decompressor
// with it (the race detector, which CI runs here, sees it too).
func TestReleasedBuffersServeTheNextInput(t *testing.T) {
	small := []byte("https://www.example.com/a\nhttps://www.example.com/b\n")
	big := bigText(20000) // ~ 900 KiB: read ahead in many chunks
	damaged := gzipped(t, big)
	damaged = damaged[:len(damaged)/2]
	inputs := []struct {
		name    string
		raw     []byte
		content []byte // what it reads as, read to its end
		err     bool   // it ends with an error
	}{
		{"plain", small, small, false},
		{"gzip", gzipped(t, small), small, false},
		{"big gzip", gzipped(t, big), big, false},
		{"gzip twice", gzipped(t, gzipped(t, big)), big, false},
		{"big plain", big, big, false},
		{"damaged gzip", damaged, nil, true},
	}
	// How much of each input is read before it is released: none (only
	// recognized, as a run does with every input waiting for its turn),
	// a little more than the part read without a goroutine, or all.
	amounts := []int{0, aheadChunk + 1, -1}
	given := bufpool.Given()
	for round := range 3 {
		for _, amount := range amounts {
			for _, in := range inputs {
				r, err := Open(bytes.NewReader(in.raw), Options{})
				require.NoError(t, err, in.name)
				if amount >= 0 {
					_, err := io.ReadFull(r, make([]byte, min(amount, len(in.content))))
					if !in.err {
						require.NoError(t, err, "%s, round %d", in.name, round)
					}
				} else {
					got, err := io.ReadAll(r)
					if in.err {
						require.Error(t, err, in.name)
					} else {
						require.NoError(t, err, in.name)
						require.True(t, bytes.Equal(got, in.content), "%s, round %d: %d bytes read, want %d, the same", in.name, round, len(got), len(in.content))
					}
				}
				r.Release()
			}
		}
	}
	assert.Greater(t, bufpool.Given(), given+100, "buffers given back")
}

// A gzip layer read ahead is given back once its goroutine gave its last
// chunk, not before.
func TestGzipLayersGoBackOnlyWhenDoneWith(t *testing.T) {
	big := bigText(20000)
	r, err := Open(bytes.NewReader(gzipped(t, big)), Options{})
	require.NoError(t, err)
	_, err = io.ReadFull(r, make([]byte, aheadChunk+1))
	require.NoError(t, err)
	assert.True(t, r.ahead.started, "the goroutine started")
	assert.False(t, r.ahead.done(), "done with its gzip layer while reading on")
	_, err = io.Copy(io.Discard, r)
	require.NoError(t, err)
	assert.True(t, r.ahead.done(), "done with its gzip layer at the end")

	r, err = Open(bytes.NewReader(gzipped(t, big)), Options{})
	require.NoError(t, err)
	assert.True(t, r.ahead.done(), "done with its gzip layer when only recognized")
}
