package partition

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// Records go to the part of the low bits of their hash, a split of a part
// spreads them on the next bits, and each part keeps them in order.
func TestSplitByHashBits(t *testing.T) {
	dir := t.TempDir()
	set, err := New(dir)
	require.NoError(t, err)
	defer set.Close()
	for i := range 4096 {
		h := uint64(i)*0x10 + 3 // all in part 3 at level 0
		require.NoError(t, set.Append(&spool.Record{Hash: h, Link: int64(i), Entry: formats.Entry{Loc: fmt.Sprint(i)}}, 0))
	}
	for i, p := range set {
		if i != 3 {
			assert.Zero(t, p.Len())
		}
	}
	p := set[3]
	assert.Equal(t, 4096, p.Len())
	assert.True(t, p.Mixed())
	sub, err := p.Split(dir, 1)
	require.NoError(t, err)
	defer sub.Close()
	for i, q := range sub {
		assert.Equal(t, 256, q.Len())
		last := int64(-1)
		require.NoError(t, q.Each(func(r *spool.Record) error {
			assert.Equal(t, i, Of(r.Hash, 1))
			assert.Equal(t, 3, Of(r.Hash, 0))
			assert.Greater(t, r.Link, last, "in order")
			last = r.Link
			return nil
		}))
	}

	var one Part
	one.File, err = spool.New(dir)
	require.NoError(t, err)
	defer one.Close()
	for range 3 {
		require.NoError(t, one.Append(&spool.Record{Hash: 7}))
	}
	assert.False(t, one.Mixed(), "one hash")
}
