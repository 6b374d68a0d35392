package feed

import (
	"bytes"
	"errors"
	"io"
)

// chunkSize is the size of the pieces a large feed is handed to gofeed in.
// gofeed builds the whole feed in memory, several times its size, and the
// items it gives take a few times their own size again; read in pieces, as
// Next needs them, a feed of MaxSize bytes takes its own bytes and a
// bounded amount besides. A variable for tests.
var chunkSize = 1 << 20

// chunker hands the items of a large feed to gofeed a piece at a time:
// each piece is the document with only some of its items, the text before
// the first item and after the last one kept whole around them. Since only
// white space lies between the items, the items of the pieces, in order,
// and the feed's own data (read from the document without its items) are
// what gofeed gives for the whole document.
type chunker struct {
	in         *input
	s          *scan
	parse      func(io.Reader) ([]item, meta, error)
	head, tail []byte
	next       int // index in s.spans of the first item of the next piece
	buf        bytes.Buffer
}

// piece returns the document holding bytes a to b of the input as its
// items.
func (c *chunker) piece(a, b int) io.Reader {
	c.buf.Reset()
	c.buf.Grow(len(c.head) + b - a + len(c.tail))
	c.buf.Write(c.head)
	c.in.writeTo(&c.buf, a, b)
	c.buf.Write(c.tail)
	return bytes.NewReader(c.buf.Bytes())
}

// items parses the next piece and returns its items, or nil at the end.
func (c *chunker) items() ([]item, error) {
	spans := c.s.spans
	i := c.next
	if i == len(spans) {
		return nil, nil
	}
	j := i + 1 // the piece holds spans i to j-1
	for j < len(spans) && spans[j][1]-spans[i][0] <= chunkSize {
		j++
	}
	got, _, err := c.parse(c.piece(spans[i][0], spans[j-1][1]))
	if err == nil && len(got) != j-i {
		err = errPieceItems
	}
	c.next = j
	return got, err
}

// errPieceItems is the error of a piece whose items gofeed did not all
// give.
var errPieceItems = errors.New("the items of a piece of the feed are not what its scan found")

// parseChunked parses a feed with parse, whole, or, when it is larger than
// chunkSize and chunkable, its first piece only, keeping the rest for
// nextPiece in r.chunks. A feed whose first piece or data without items
// does not parse is parsed whole.
func (r *Reader) parseChunked(in *input, s *scan, parse func(io.Reader) ([]item, meta, error)) ([]item, meta, error) {
	whole := func() ([]item, meta, error) { return parse(in.reader(0, in.Len())) }
	if !chunkable(in, s) {
		return whole()
	}
	c := &chunker{in: in, s: s, parse: parse,
		head: in.slice(0, s.spans[0][0]), tail: in.slice(s.spans[len(s.spans)-1][1], in.Len())}
	_, m, err := parse(c.piece(0, 0))
	if err != nil {
		return whole()
	}
	items, err := c.items()
	if err != nil {
		return whole()
	}
	r.chunks = c
	return items, m, nil
}

// nextPiece replaces r.items, all mapped, by the items of the feed's next
// piece; at the end it leaves r.items empty and r.chunks nil. A piece
// gofeed cannot parse ends the feed with an error.
func (r *Reader) nextPiece() error {
	c := r.chunks
	r.first += len(r.items)
	r.items, r.next = nil, 0
	items, err := c.items()
	if err != nil {
		r.chunks = nil
		line := c.s.itemLines[r.first]
		return r.opts.Errorf(line, 0, "not a valid feed: %v", err)
	}
	if items == nil {
		r.chunks = nil
		return nil
	}
	fixItems(items, r.first, c.s)
	r.items = items
	return nil
}

// fixItems gives items, the items of the feed from its first-th on, what
// the scan s found of them: their lines, their xml:lang, and which texts
// of an Atom entry are HTML.
func fixItems(items []item, first int, s *scan) {
	for i := range items {
		k := first + i
		items[i].line = s.itemLines[k]
		if items[i].lang == "" {
			items[i].lang, items[i].langSet = s.itemLangs[k].value, s.itemLangs[k].set
		}
		if s.root == "feed" {
			items[i].setAtomTypes(s.itemHTML[k])
		}
	}
}

// chunkable reports whether the feed input, which s scanned, is parsed in
// pieces: it is larger than chunkSize, whole and without damage, its items
// are not nested in one another and only white space lies between them,
// and what surrounds them is small.
func chunkable(in *input, s *scan) bool {
	if in.Len() <= chunkSize || s.err != nil || s.trailing > 0 || len(s.spans) < 2 || len(s.spans) != len(s.itemLines) {
		return false
	}
	for i, sp := range s.spans {
		if sp[1] < 0 {
			return false
		}
		if i > 0 && !in.spaceOnly(s.spans[i-1][1], sp[0]) {
			return false
		}
	}
	return s.spans[0][0]+in.Len()-s.spans[len(s.spans)-1][1] <= chunkSize
}
