package feed

import (
	"bytes"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// DescribeItems parses a feed and returns, for every item, linked or not,
// the title, summary and extensions the reader gives it, with the item's
// loc when it has one. It lets tests check what the media of the corpus
// feeds whose items have no link become.
func DescribeItems(data []byte, opts formats.ReadOptions) ([]formats.Entry, error) {
	r := NewReader(bytes.NewReader(data), opts)
	if err := r.parse(); err != nil {
		return nil, err
	}
	quiet := r.opts
	quiet.Warn, quiet.Strict = nil, false
	entries := make([]formats.Entry, len(r.items))
	for i := range r.items {
		it := &r.items[i]
		locOpts := r.opts
		r.opts = quiet // the loc's warnings are TestCorpus's business
		entries[i].Loc, _ = r.loc(i+1, it)
		r.opts = locOpts
		if err := r.describe(i+1, it, &entries[i]); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

// SetNow makes the writers' clock return t, until the returned function
// restores it.
func SetNow(t time.Time) (restore func()) {
	old := now
	now = func() time.Time { return t }
	return func() { now = old }
}

// SetChunkSize makes large feeds read in pieces of n bytes, until the
// returned function restores the size.
func SetChunkSize(n int) (restore func()) {
	old := chunkSize
	chunkSize = n
	return func() { chunkSize = old }
}

// SetBlockSizes makes feeds read into blocks of min bytes, then each twice
// the one before up to max, until the returned function restores the
// sizes.
func SetBlockSizes(min, max int) (restore func()) {
	oldMin, oldMax := blockMin, blockMax
	blockMin, blockMax = min, max
	return func() { blockMin, blockMax = oldMin, oldMax }
}

// ReadsInPieces reports whether the reader reads the XML feed data in
// pieces at the current chunk size.
func ReadsInPieces(data []byte) bool {
	r := NewReader(bytes.NewReader(data), formats.ReadOptions{})
	r.Next()
	return r.chunks != nil || r.first > 0
}
