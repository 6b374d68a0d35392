package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// MaxLineLength is the longest line the reader accepts, in bytes: room for
// an entry with the most extension data the XML reader keeps (4 MiB of it)
// written as JSON. A longer line is skipped with a warning, read and
// dropped without being held.
const MaxLineLength = 16 << 20

var (
	errLongLine = fmt.Errorf("line longer than %d MiB skipped", MaxLineLength>>20)
)

// Reader reads a JSON Lines document.
type Reader struct {
	br      *bufio.Reader
	opts    formats.ReadOptions
	buf     []byte
	line    int
	head    []string
	started bool // a line that is an entry or the head was read
	entries bool // an entry was returned
	err     error
}

// NewReader returns a reader of the JSON Lines document r. Lines end with
// LF or CRLF; blank lines are skipped.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), opts: opts}
}

// Head returns the document-level elements of the head line, if the
// document has one (see the package documentation): it implements
// formats.ExtraReader.
func (r *Reader) Head() []string { return r.head }

// LeftOut returns 0: every line is read or warned about
// (formats.ExtraReader).
func (r *Reader) LeftOut() int { return 0 }

// Next returns the next entry, or io.EOF after the last line. A line that
// is not a JSON object, or whose loc is missing or bad, is skipped with a
// warning naming its line; a bad field is dropped with a warning and the
// entry kept. A document whose first line is neither an entry nor the head
// is not JSON Lines of entries: the error wraps formats.ErrUnknownFormat.
func (r *Reader) Next() (formats.Entry, error) {
	for r.err == nil {
		raw, long, err := r.readLine()
		if err != nil {
			if err != io.EOF {
				err = &formats.ParseError{Source: r.opts.Source, Line: r.line + 1, Err: err}
			}
			r.err = err
			break
		}
		if long {
			r.err = r.opts.Warning(r.line, 0, true, errLongLine)
			continue
		}
		raw = bytes.TrimSpace(raw)
		if r.line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
		}
		if len(raw) == 0 {
			continue
		}
		e, ok, err := r.parse(raw)
		if err != nil {
			r.err = err
			break
		}
		if ok {
			r.entries = true
			return e, nil
		}
	}
	return formats.Entry{}, r.err
}

// readLine returns the next line without its LF, and long set (and no
// line) when it is over MaxLineLength.
func (r *Reader) readLine() ([]byte, bool, error) {
	r.buf = r.buf[:0]
	long := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if !long && len(r.buf)+len(chunk) > MaxLineLength+1 {
			long, r.buf = true, r.buf[:0]
		} else if !long {
			r.buf = appendDoubling(r.buf, chunk)
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil:
			r.line++
			return r.buf[:max(len(r.buf)-1, 0)], long, nil
		case io.EOF:
			if len(r.buf) == 0 && !long {
				return nil, false, io.EOF
			}
			r.line++
			return r.buf, long, nil
		}
		return nil, false, err
	}
}

// appendDoubling is append, but doubling the capacity of b when it grows,
// up to what a line may need: a long line is copied less often than
// append's growth of large slices would copy it.
func appendDoubling(b, more []byte) []byte {
	if n := len(b) + len(more); n > cap(b) {
		grown := make([]byte, len(b), min(max(2*cap(b), n), MaxLineLength+1))
		copy(grown, b)
		b = grown
	}
	return append(b, more...)
}

// parse reads one line: an entry (ok), the head, or a line skipped with
// a warning.
func (r *Reader) parse(raw []byte) (formats.Entry, bool, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		if err == nil {
			err = errors.New("null")
		}
		col := 0
		if se := (*json.SyntaxError)(nil); errors.As(err, &se) {
			col = int(se.Offset)
		} else if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) {
			err = fmt.Errorf("%s where an object belongs", jsonKind(raw))
		}
		if !r.started {
			return formats.Entry{}, false, r.notEntries(fmt.Sprintf("line %d is not a JSON object: %v", r.line, err))
		}
		return formats.Entry{}, false, r.opts.Warningf(r.line, col, true, "not a JSON object: %v", err)
	}
	loc, hasLoc := obj["loc"]
	head, hasHead := obj["head"]
	if !hasLoc && !hasHead {
		if !r.started {
			return formats.Entry{}, false, r.notEntries(fmt.Sprintf(`line %d has no "loc"`, r.line))
		}
		return formats.Entry{}, false, r.opts.Warning(r.line, 0, true, errors.New(`no "loc": line skipped`))
	}
	r.started = true
	c := checker{r: r}
	if hasHead {
		var elements []string
		if c.decode("head", head, &elements, "an array of strings") {
			c.head(elements, hasLoc)
		}
		if !hasLoc {
			return formats.Entry{}, false, c.err
		}
	}
	e, ok := c.entry(loc, obj)
	return e, ok && c.err == nil, c.err
}

// head keeps the document-level elements of a head line, when it comes
// before the first entry and holds elements only.
func (c *checker) head(head []string, withLoc bool) {
	if c.r.entries || withLoc {
		c.warn(false, `"head" ignored: only a line of its own before the first entry holds the document's head`)
		return
	}
	for _, h := range head {
		if err := checkElement(h); err != nil {
			c.warn(false, "head element ignored: %v", err)
			continue
		}
		c.r.head = append(c.r.head, h)
	}
}

// notEntries is the error of a document whose first line is no entry.
func (r *Reader) notEntries(why string) error {
	return &formats.ParseError{Source: r.opts.Source,
		Err: fmt.Errorf("%w (JSON that is neither a JSON Feed nor JSON Lines of entries: %s)", formats.ErrUnknownFormat, why)}
}
