package xml

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
)

// The general path's input: the decoder, its position in the document,
// and the bound on a run of text without markup.

// newDecoder returns the general path's XML decoder of r and, in lenient
// mode, the rawText it reads r through.
func newDecoder(r io.Reader, strict bool) (*xml.Decoder, *rawText) {
	br := bufio.NewReaderSize(r, 64<<10)
	var raw *rawText
	var in io.Reader = br
	if !strict {
		raw = &rawText{r: br}
		in = raw
	}
	d := xml.NewDecoder(in)
	d.Strict = strict
	d.CharsetReader = func(_ string, input io.Reader) (io.Reader, error) { return input, nil }
	return d, raw
}

// inputPos returns the decoder's position as a line and column of the
// document, correcting for the synthetic prefix of a decoder that took
// over part-way. The column is corrected only on the decoder's line 2,
// and only while that line starts where the prefix ends (the decoder
// backs a newline out without restoring its line start; the column it
// then reports is kept as the decoder from the start would report it).
func (r *Reader) inputPos() (line, col int) {
	line, col = r.d.InputPos()
	if r.atLine == 0 {
		return line, col
	}
	if r.d.InputOffset()-int64(col)+1 == r.prefixLen {
		col += r.atCol - 1
	}
	return line + r.atLine - 2, col
}

// errLongText is returned for a run of input longer than MaxTextLength
// without markup.
var errLongText = fmt.Errorf("more than %d MiB of text without markup", MaxTextLength>>20)

// boundedText passes input through, failing when more than MaxTextLength
// bytes pass without a '<', so that the XML decoder never buffers one
// huge text node, comment or attribute. It passes exactly the first
// MaxTextLength bytes of such a run, then the error, so that where
// reading stops depends on the input alone, never on how the underlying
// reader splits it into reads.
type boundedText struct {
	r   io.Reader
	run int // bytes since the last '<' (or since the start)
	err error
}

func (b *boundedText) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	q := p[:n]
	for len(q) > 0 {
		i := bytes.IndexByte(q, '<')
		if i < 0 {
			i = len(q)
		}
		if b.run+i > MaxTextLength {
			b.err = errLongText
			return n - len(q) + MaxTextLength - b.run, b.err
		}
		if i == len(q) {
			b.run += i
			break
		}
		b.run = 0
		q = q[i+1:]
	}
	return n, err
}
