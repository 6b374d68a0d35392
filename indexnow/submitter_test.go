package indexnow_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

// sent records the batches a Submitter sends, accepting them all.
type sent struct{ batches []indexnow.Batch }

func (s *sent) send(_ context.Context, b indexnow.Batch) indexnow.Result {
	s.batches = append(s.batches, indexnow.Batch{Host: b.Host, URLs: append([]string(nil), b.URLs...)})
	return indexnow.Result{Host: b.Host, URLs: len(b.URLs), Status: 200, Attempts: 1}
}

// sizes returns "host:count" for each batch.
func (s *sent) sizes() []string {
	var out []string
	for _, b := range s.batches {
		out = append(out, fmt.Sprintf("%s:%d", b.Host, len(b.URLs)))
	}
	return out
}

func TestSubmitterBatches(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		size  int
		urls  func(add func(string))
		sizes []string
	}{
		{"10,000 a batch", 0, func(add func(string)) {
			for i := range 25001 {
				add(fmt.Sprintf("https://example.com/p/%d", i))
			}
		}, []string{"example.com:10000", "example.com:10000", "example.com:5001"}},
		{"over the maximum", 20000, func(add func(string)) {
			for i := range 10001 {
				add(fmt.Sprintf("https://example.com/p/%d", i))
			}
		}, []string{"example.com:10000", "example.com:1"}},
		{"a small batch", 3, func(add func(string)) {
			for i := range 7 {
				add(fmt.Sprintf("https://example.com/p/%d", i))
			}
		}, []string{"example.com:3", "example.com:3", "example.com:1"}},
		{"several hosts, one per request", 2, func(add func(string)) {
			for _, u := range []string{"https://a.example/1", "https://b.example/1", "http://a.example/2", "https://c.example:8443/1", "https://b.example/2", "https://a.example/3"} {
				add(u)
			}
		}, []string{"a.example:2", "b.example:2", "a.example:1", "c.example:8443:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s sent
			var done []indexnow.Result
			sub := &indexnow.Submitter{Send: s.send, BatchSize: tc.size, Done: func(_ indexnow.Batch, r indexnow.Result) { done = append(done, r) }}
			tc.urls(func(u string) { require.NoError(t, sub.Add(ctx, u)) })
			results, err := sub.Flush(ctx)
			require.NoError(t, err)
			assert.Equal(t, tc.sizes, s.sizes())
			assert.Equal(t, results, done)
			for _, b := range s.batches {
				for _, u := range b.URLs {
					assert.Contains(t, u, "://"+b.Host+"/", "every URL of a batch is on its host")
				}
			}
		})
	}
}

func TestSubmitterBoundsMemory(t *testing.T) {
	// 30,000 hosts with one URL each: no batch fills, but no more than
	// 20,000 URLs wait at once: the 20,001st sends all that wait.
	var s sent
	sub := &indexnow.Submitter{Send: s.send}
	ctx := context.Background()
	for i := range 30000 {
		require.NoError(t, sub.Add(ctx, fmt.Sprintf("https://h%d.example/", i)))
	}
	assert.Len(t, s.batches, 20001, "the waiting URLs stay within 20,000")
	_, err := sub.Flush(ctx)
	require.NoError(t, err)
	assert.Len(t, s.batches, 30000)
}

func TestSubmitterErrors(t *testing.T) {
	var s sent
	sub := &indexnow.Submitter{Send: s.send}
	for _, bad := range []string{"/relative", "ftp://example.com/", "https:///path", "%zz"} {
		assert.Error(t, sub.Add(context.Background(), bad), bad)
	}
	ctx, cancel := context.WithCancel(context.Background())
	require.NoError(t, sub.Add(ctx, "https://example.com/"))
	cancel()
	assert.ErrorIs(t, sub.Add(ctx, "https://example.com/b"), context.Canceled)
	_, err := sub.Flush(ctx)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, s.batches)
}
