package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

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
// formats.HeadReader.
func (r *Reader) Head() []string { return r.head }

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
	var o object
	err := decode(raw, &o, true)
	var unknown string
	if err != nil && strings.HasPrefix(err.Error(), "json: unknown field ") {
		// Read it again for the known keys alone, to find a type error
		// the unknown key may hide.
		unknown = strings.TrimPrefix(err.Error(), "json: unknown field ")
		o = object{}
		err = decode(raw, &o, false)
	}
	var typeErr *json.UnmarshalTypeError
	if err != nil && !(errors.As(err, &typeErr) && typeErr.Field != "") {
		if !r.started {
			return formats.Entry{}, false, r.notEntries(fmt.Sprintf("line %d is not a JSON object: %v", r.line, err))
		}
		return formats.Entry{}, false, r.opts.Warningf(r.line, 0, true, "not a JSON object: %v", err)
	}
	if o.Loc == "" && o.Head == nil {
		if !r.started {
			return formats.Entry{}, false, r.notEntries(fmt.Sprintf(`line %d has no "loc"`, r.line))
		}
		return formats.Entry{}, false, r.opts.Warning(r.line, 0, true, errors.New(`no "loc": line skipped`))
	}
	r.started = true
	if unknown != "" {
		if err := r.opts.Warningf(r.line, 0, false, "unknown key %s ignored", unknown); err != nil {
			return formats.Entry{}, false, err
		}
	}
	if typeErr != nil {
		if err := r.opts.Warningf(r.line, 0, false, "%q ignored: a JSON %s where %s belongs", typeErr.Field, typeErr.Value, jsonType(typeErr)); err != nil {
			return formats.Entry{}, false, err
		}
	}
	if o.Head != nil {
		if err := r.readHead(o.Head, o.Loc != ""); err != nil {
			return formats.Entry{}, false, err
		}
		if o.Loc == "" {
			return formats.Entry{}, false, nil
		}
	}
	c := checker{r: r}
	e, ok := c.entry(&o)
	return e, ok, c.err
}

// readHead keeps the document-level elements of a head line, when it comes
// before the first entry and holds elements only.
func (r *Reader) readHead(head []string, withLoc bool) error {
	if r.entries || withLoc {
		return r.opts.Warning(r.line, 0, false, errors.New(`"head" ignored: only a line of its own before the first entry holds the document's head`))
	}
	for _, h := range head {
		if err := checkElement(h); err != nil {
			if werr := r.opts.Warningf(r.line, 0, false, "head element ignored: %v", err); werr != nil {
				return werr
			}
			continue
		}
		r.head = append(r.head, h)
	}
	return nil
}

// notEntries is the error of a document whose first line is no entry.
func (r *Reader) notEntries(why string) error {
	return &formats.ParseError{Source: r.opts.Source,
		Err: fmt.Errorf("%w (JSON that is neither a JSON Feed nor JSON Lines of entries: %s)", formats.ErrUnknownFormat, why)}
}

// decode reads the one JSON value of raw into o, refusing unknown keys when
// strict is set. Text after the value is a syntax error.
func decode(raw []byte, o *object, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(o); err != nil {
		return err
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(raw[off:])) > 0 {
		return fmt.Errorf("text after the object at column %d", off+1)
	}
	return nil
}

// jsonType names the JSON type a Go type of the model is read from.
func jsonType(e *json.UnmarshalTypeError) string {
	switch e.Type.Kind().String() {
	case "string":
		return "a string"
	case "int", "int64":
		return "a whole number"
	case "bool":
		return "true or false"
	case "slice":
		return "an array"
	case "struct", "ptr":
		return "an object"
	}
	return "a " + e.Type.String()
}
