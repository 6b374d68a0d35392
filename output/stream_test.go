package output_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

func TestStreamHoldsUntilCommit(t *testing.T) {
	for _, gz := range []bool{false, true} {
		var out bytes.Buffer
		s, err := output.NewStream(&out, output.StreamOptions{Format: xml.Format, Gzip: gz, Hold: true})
		require.NoError(t, err)
		defer s.Abort()
		for _, e := range pages(3, false) {
			require.NoError(t, s.Write(e))
		}
		require.NoError(t, s.Close())
		assert.Zero(t, out.Len(), "nothing before Commit")
		require.NoError(t, s.Commit())
		doc := out.Bytes()
		if gz {
			zr, err := gzip.NewReader(&out)
			require.NoError(t, err)
			doc, err = io.ReadAll(zr)
			require.NoError(t, err)
		}
		var want bytes.Buffer
		w := xml.NewWriter(&want, formats.WriteOptions{})
		for _, e := range pages(3, false) {
			require.NoError(t, w.Write(e))
		}
		require.NoError(t, w.Close())
		assert.Equal(t, want.String(), string(doc), "gzip=%v", gz)
		assert.Equal(t, int64(want.Len()), s.Bytes(), "uncompressed size")
		require.Error(t, s.Commit(), "twice")
	}
}

func TestStreamAbortWritesNothing(t *testing.T) {
	var out bytes.Buffer
	s, err := output.NewStream(&out, output.StreamOptions{Format: text.Format, Hold: true})
	require.NoError(t, err)
	require.NoError(t, s.Write(formats.Entry{Loc: "https://example.com/"}))
	require.NoError(t, s.Close())
	s.Abort()
	assert.Zero(t, out.Len())
	require.Error(t, s.Commit())
}

func TestStreamThrough(t *testing.T) {
	// Without Hold, the document goes through as written.
	var out bytes.Buffer
	s, err := output.NewStream(&out, output.StreamOptions{Format: text.Format})
	require.NoError(t, err)
	require.NoError(t, s.SetWriteOptions(formats.WriteOptions{}))
	require.NoError(t, s.Write(formats.Entry{Loc: "https://example.com/"}))
	require.NoError(t, s.Close())
	assert.Equal(t, "https://example.com/\n", out.String())
	require.NoError(t, s.Commit())
	require.Error(t, s.Write(formats.Entry{Loc: "https://example.com/a"}), "after Close")
	require.Error(t, s.SetWriteOptions(formats.WriteOptions{}), "after Write")
}

func TestStreamNeverWritten(t *testing.T) {
	var out bytes.Buffer
	s, err := output.NewStream(&out, output.StreamOptions{Format: xml.Format, Hold: true})
	require.NoError(t, err)
	require.NoError(t, s.Commit(), "nothing to hand over")
	assert.Zero(t, out.Len())
}

// TestStreamGzipAbortLeavesNoWholeFile aborts a gzipped stream that is not
// held, after some of it went through: what reached the writer is no whole
// gzip file (no trailer), so that whoever reads it finds it cut short, for a
// document of less than one chunk and of several.
func TestStreamGzipAbortLeavesNoWholeFile(t *testing.T) {
	for _, n := range []int{3, 40_000} {
		var out bytes.Buffer
		s, err := output.NewStream(&out, output.StreamOptions{Format: xml.Format, Gzip: true})
		require.NoError(t, err)
		for _, e := range pages(n, false) {
			require.NoError(t, s.Write(e))
		}
		s.Abort()
		if n > 3 {
			assert.NotZero(t, out.Len(), "part of a large document went through")
		}
		if zr, err := gzip.NewReader(&out); err == nil {
			_, err = io.ReadAll(zr)
			assert.Error(t, err, "%d entries: a whole gzip file after Abort", n)
		}
	}
}

// TestStreamKeepsNothingAsItsFormatsWriter checks that a Stream says it
// keeps nothing of its entries when its format is written by its Encoder
// (the caller may then use their memory again), and not for a feed, whose
// writer holds its items.
func TestStreamKeepsNothingAsItsFormatsWriter(t *testing.T) {
	for _, c := range []struct {
		format *formats.Format
		want   bool
	}{{xml.Format, true}, {text.Format, true}, {feed.RSSFormat, false}, {feed.AtomFormat, false}} {
		s, err := output.NewStream(io.Discard, output.StreamOptions{Format: c.format, Gzip: true})
		require.NoError(t, err)
		assert.Equal(t, c.want, s.KeepsNothing(), c.format.Name)
		s.Abort()
	}
}
