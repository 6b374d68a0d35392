// Package textlines reads text sitemaps and robots.txt files line by line,
// with a cap on the length of a line.
package textlines

import (
	"bytes"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
)

// MaxLength is the longest line a Reader returns whole, in bytes.
// Text sitemaps and robots.txt files are read line by line through it; a
// URL is at most 2,048 characters, so a longer line is never a usable one.
const MaxLength = 16 << 10

// Reader reads the lines of text (a text sitemap, a robots.txt) one at
// a time, in memory bounded by MaxLength whatever the input. A line
// ends with LF, CRLF or a lone CR (RFC 9309 allows all three in robots.txt,
// and old Mac exports end lines with CR), so line numbers are right with
// every ending. A UTF-8 byte order mark at the start of the first line is
// dropped.
type Reader struct {
	r          io.Reader
	buf        []byte // holds buf[start:end] of the input, read but not returned
	start, end int
	head       []byte // the start of the over-long line being dropped
	afterCR    bool   // the last line ended with CR: an LF right after belongs to it
	noLF       int    // buf[start:noLF] holds no LF
	line       int
	err        error // the input's error, returned once buf is drained
}

// NewReader returns a reader of the lines of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: buffers.Get()[:MaxLength+1]}
}

// buffers is the pool of the readers' buffers (Release).
var buffers = bufpool.Bytes{Size: MaxLength + 1}

// Release gives the reader's buffer back, for the readers made after it,
// and releases r when it can be (it has a Release method); the reader
// must not be used after, nor the last line it returned.
func (l *Reader) Release() {
	buffers.Put(l.buf)
	if r, ok := l.r.(interface{ Release() }); ok {
		r.Release()
	}
	l.buf, l.r, l.start, l.end = nil, nil, 0, 0
	l.err = bufpool.ErrReleased
}

// Next returns the next line without its ending, or io.EOF after the last
// (a last line without an ending is a line). A line longer than
// MaxLength comes back cut to its first MaxLength bytes with long
// set; the rest of it is read and dropped, never held. Any other error of
// the input is returned as it is, and the line it cut short is not
// returned. The line is valid until the next call.
func (l *Reader) Next() (line []byte, long bool, err error) {
	empty := 0
	for {
		if l.afterCR && l.start < l.end {
			if l.buf[l.start] == '\n' {
				l.start++
			}
			l.afterCR = false
		}
		data := l.buf[l.start:l.end]
		if i := l.lineEnd(); i >= 0 {
			l.start += i + 1
			l.afterCR = data[i] == '\r'
			return l.found(data[:i], long)
		}
		if !long && len(data) > MaxLength {
			long = true
			l.head = append(l.head[:0], data[:MaxLength]...)
		}
		if long {
			l.start = l.end // the rest of the line is dropped
		}
		if l.err != nil {
			if l.err != io.EOF {
				return nil, false, l.err
			}
			if len(data) == 0 && !long {
				return nil, false, io.EOF
			}
			l.start = l.end
			return l.found(data, long)
		}
		if l.start > 0 {
			n := copy(l.buf, l.buf[l.start:l.end])
			l.noLF = max(l.noLF-l.start, 0)
			l.start, l.end = 0, n
		}
		m, err := l.r.Read(l.buf[l.end:])
		l.end += m
		l.err = err
		if m == 0 && err == nil {
			if empty++; empty == 100 {
				l.err = io.ErrNoProgress
			}
		}
	}
}

// lineEnd returns the index in buf[start:end] of its first CR or LF, or
// -1: vectorized scans for the LF, then for a CR before it, where
// bytes.IndexAny looks at one byte at a time. What holds no LF is not
// scanned for one again (noLF), so that lines ended by CR alone cost no
// more.
func (l *Reader) lineEnd() int {
	data := l.buf[l.start:l.end]
	from := max(l.noLF, l.start)
	i := bytes.IndexByte(l.buf[from:l.end], '\n')
	if i < 0 {
		l.noLF = l.end
		return bytes.IndexByte(data, '\r')
	}
	i += from - l.start
	if j := bytes.IndexByte(data[:i], '\r'); j >= 0 {
		return j
	}
	return i
}

// found counts the line and returns it: the start of it held when it is
// long.
func (l *Reader) found(line []byte, long bool) ([]byte, bool, error) {
	l.line++
	if long {
		line = l.head
	}
	if l.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return line, long, nil
}

// Line returns the number of the line Next returned last, counting from 1;
// before the first line, 0.
func (l *Reader) Line() int { return l.line }
