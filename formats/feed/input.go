package feed

import (
	"bytes"
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The sizes of the blocks a feed is read into: the first is blockMin bytes
// and each next one twice the one before, up to blockMax. Variables for
// tests.
var (
	blockMin = 64 << 10
	blockMax = 1 << 20
)

// input is a feed as read, held in blocks so that it is never in memory
// twice: a buffer grown by copying (io.ReadAll) holds the old copy and the
// new one at once, and the garbage collector, which lets the heap grow to
// a multiple of what is live, would count both. The pieces handed to
// gofeed are copied from the blocks, as are the few ranges read whole that
// straddle two of them.
type input struct {
	blocks [][]byte // in order; none empty
	starts []int    // the offset of each block's first byte
	n      int      // the length of the whole
}

// readInput reads r to its end into an input.
func readInput(r io.Reader) (*input, error) {
	in := &input{}
	size := blockMin
	for {
		b := make([]byte, size)
		n, err := io.ReadFull(r, b)
		if n < len(b)/2 {
			// The last block, mostly empty: not kept whole.
			b = bytes.Clone(b[:n])
		}
		in.push(b[:n])
		switch err {
		case nil:
			size = min(2*size, blockMax)
		case io.EOF, io.ErrUnexpectedEOF:
			return in, nil
		default:
			return nil, err
		}
	}
}

// push adds b at the end, unless it is empty.
func (in *input) push(b []byte) {
	if len(b) > 0 {
		in.blocks = append(in.blocks, b)
		in.starts = append(in.starts, in.n)
		in.n += len(b)
	}
}

// Len returns the length of the input.
func (in *input) Len() int { return in.n }

// block returns the index of the block that holds offset off, which is
// less than in.n.
func (in *input) block(off int) int {
	return sort.Search(len(in.starts), func(i int) bool { return in.starts[i] > off }) - 1
}

// each calls f with the parts of the blocks that hold bytes a to b, in
// order, while it returns true.
func (in *input) each(a, b int, f func([]byte) bool) {
	if a >= b {
		return
	}
	for i := in.block(a); i < len(in.blocks) && in.starts[i] < b; i++ {
		blk := in.blocks[i]
		lo, hi := max(a-in.starts[i], 0), min(b-in.starts[i], len(blk))
		if !f(blk[lo:hi]) {
			return
		}
	}
}

// slice returns bytes a to b: part of a block when one holds them all,
// else a copy.
func (in *input) slice(a, b int) []byte {
	if a >= b {
		return nil
	}
	if i := in.block(a); b-in.starts[i] <= len(in.blocks[i]) {
		return in.blocks[i][a-in.starts[i] : b-in.starts[i]]
	}
	return in.appendTo(make([]byte, 0, b-a), a, b)
}

// appendTo appends bytes a to b to dst.
func (in *input) appendTo(dst []byte, a, b int) []byte {
	in.each(a, b, func(p []byte) bool {
		dst = append(dst, p...)
		return true
	})
	return dst
}

// writeTo writes bytes a to b to w.
func (in *input) writeTo(w *bytes.Buffer, a, b int) {
	in.each(a, b, func(p []byte) bool {
		w.Write(p)
		return true
	})
}

// reader returns a reader of bytes a to b.
func (in *input) reader(a, b int) io.Reader {
	var rs []io.Reader
	in.each(a, b, func(p []byte) bool {
		rs = append(rs, bytes.NewReader(p))
		return true
	})
	if len(rs) == 1 {
		return rs[0]
	}
	return io.MultiReader(rs...)
}

// put writes p over the bytes from offset at on, which must be in the
// input.
func (in *input) put(at int, p []byte) {
	in.each(at, at+len(p), func(q []byte) bool {
		p = p[copy(q, p):]
		return true
	})
}

// trimFront drops the first k bytes.
func (in *input) trimFront(k int) {
	k = min(k, in.n)
	blocks := in.blocks
	in.blocks, in.starts, in.n = nil, nil, 0
	for _, b := range blocks {
		drop := min(k, len(b))
		k -= drop
		in.push(b[drop:])
	}
}

// prepend puts p before the first byte.
func (in *input) prepend(p []byte) {
	blocks := in.blocks
	in.blocks, in.starts, in.n = nil, nil, 0
	in.push(p)
	for _, b := range blocks {
		in.push(b)
	}
}

// skip returns the offset of the first byte from a on that is not in
// cutset, a set of ASCII bytes; in.n when there is none.
func (in *input) skip(a int, cutset string) int {
	off := a
	in.each(a, in.n, func(p []byte) bool {
		i := 0
		for i < len(p) && strings.IndexByte(cutset, p[i]) >= 0 {
			i++
		}
		off += i
		return i == len(p)
	})
	return off
}

// index returns the offset of the first c from a on; -1 when there is
// none.
func (in *input) index(a int, c byte) int {
	found, off := -1, a
	in.each(a, in.n, func(p []byte) bool {
		if i := bytes.IndexByte(p, c); i >= 0 {
			found = off + i
			return false
		}
		off += len(p)
		return true
	})
	return found
}

// spaceOnly reports whether bytes a to b are all white space
// (unicode.IsSpace), as bytes.TrimSpace would leave nothing of them.
func (in *input) spaceOnly(a, b int) bool {
	for a < b {
		var buf [utf8.UTFMax]byte
		p := in.appendTo(buf[:0], a, min(a+utf8.UTFMax, b))
		c, size := utf8.DecodeRune(p)
		if !unicode.IsSpace(c) {
			return false
		}
		a += size
	}
	return true
}

// position returns the 1-based line and byte column of offset off (which
// may be the end); 0, 0 when it is past the end or negative.
func (in *input) position(off int64) (int, int) {
	if off < 0 || off > int64(in.n) {
		return 0, 0
	}
	line, lineStart := 1, 0
	start := 0
	in.each(0, int(off), func(p []byte) bool {
		line += bytes.Count(p, []byte("\n"))
		if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
			lineStart = start + i + 1
		}
		start += len(p)
		return true
	})
	return line, int(off) - lineStart + 1
}
