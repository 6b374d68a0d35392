package xml

import (
	"io"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/nsscope"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// NewGeneralReader returns a reader that reads r on the general path
// (encoding/xml) only.
func NewGeneralReader(r io.Reader, opts formats.ReadOptions) *Reader {
	return newReader(r, opts, 0, nil)
}

// NewReaderSize returns a reader whose fast path has a buffer of size
// bytes, so that tests can make it hand over anywhere.
func NewReaderSize(r io.Reader, opts formats.ReadOptions, size int) *Reader {
	return newReader(r, opts, size, nil)
}

// NewObservedReaderSize is NewObservedReader with a fast path buffer of
// size bytes, or on the general path only when size is 0.
func NewObservedReaderSize(r io.Reader, opts formats.ReadOptions, size int, o Observer) *Reader {
	return newReader(r, opts, size, o)
}

// Path tells which path has read the document so far: "fast", "general"
// (from the first byte), or "fast, then general from byte N".
func (r *Reader) Path() string {
	switch {
	case r.handedAt < 0:
		return "fast"
	case r.handedAt == 0:
		return "general"
	}
	return "fast, then general from byte " + strconv.FormatInt(r.handedAt, 10)
}

// Refills returns how many times the fast path scanned an item again
// after reading more input.
func (r *Reader) Refills() int {
	if r.fast == nil {
		return -1
	}
	return r.fast.refills
}

// FastBufSize is the size of the fast path's buffer.
const FastBufSize = fastBufSize

// ParseLastModFast, ParseChangeFreqFast and ParsePriorityFast are the
// reader's non-allocating field parsers.
var (
	ParseLastModFast    = vocab.ParseLastMod
	ParseChangeFreqFast = vocab.ParseChangeFreq
	ParsePriorityFast   = vocab.ParsePriority
)

// NSScope is the reader's namespace scope, for tests.
type NSScope struct{ s nsscope.Scope }

func (n *NSScope) Push(prefix, uri string) { n.s.Push(prefix, uri) }
func (n *NSScope) PopTo(k int)             { n.s.PopTo(k) }
func (n *NSScope) Lookup(prefix string) (string, bool) {
	return n.s.Lookup(prefix)
}
func (n *NSScope) PrefixOf(uri string, attr bool) (string, bool) {
	return n.s.PrefixOf(uri, attr)
}
