// Package source opens an input for reading, the one way every reader and
// the validator do: it removes gzip layers (recognized by their magic
// bytes, whatever the input's name), caps the size (counted after every
// layer is removed, so that a gzip bomb stops at the cap), tells binary
// data from text, and decodes the text to UTF-8 (package textenc), each
// invalid character reported at its position.
package source

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// MaxGzipLayers is how many gzip layers Open removes (real servers gzip
// sitemaps twice); a deeper nesting is an error.
const MaxGzipLayers = 3

// ErrTooLarge is wrapped by the error of reading past Options.MaxBytes.
// Package formats exports it as formats.ErrTooLarge.
var ErrTooLarge = errors.New("formats: input too large")

// BinaryLen is how many bytes at the start of an input Open looks at to
// tell binary data from text (Reader.Binary).
const BinaryLen = 512

// ErrNotUTF8 is wrapped by the problem strict opening reports for an input
// that is not in UTF-8: UTF-16, UTF-32 or a declared charset. The protocol
// wants UTF-8; lenient opening decodes the others.
var ErrNotUTF8 = errors.New("formats: not encoded in UTF-8")

// ErrGzipDepth is returned by Open for gzip nested more than MaxGzipLayers
// deep.
var ErrGzipDepth = fmt.Errorf("formats: gzip nested more than %d deep", MaxGzipLayers)

// GzipError is gzip data that cannot be read: a corrupt header (returned by
// Open) or damage further on (returned by Read, after what came before).
type GzipError struct {
	// Header is set for a header that cannot be read, so that nothing of
	// the layer was.
	Header bool
	// Offset is how many bytes the layers gave before the damage.
	Offset int64
	// Err is the decompressor's error.
	Err error
}

// Error says that the gzip data is corrupt, and how.
func (e *GzipError) Error() string { return "corrupt gzip data: " + e.Err.Error() }

// Unwrap returns the decompressor's error.
func (e *GzipError) Unwrap() error { return e.Err }

// CharsetReader is an input that knows the charset its transport gave for
// it: the body of an HTTP answer (fetch.Body), whose Content-Type's charset
// Open decodes it with (textenc.Options.Charset), unless Options.Text
// names one.
type CharsetReader interface {
	io.Reader
	ContentCharset() string
}

// SharedReader is an input read by two openings at once, on two
// goroutines, which share what they find valid of its text
// (textenc.Shared): convert --strict's inputs, read by the conversion and
// checked by validate. Open decodes it with the Shared it gives, unless
// Options.Text names one.
type SharedReader interface {
	io.Reader
	TextShared() *textenc.Shared
}

// Options configure Open.
type Options struct {
	// MaxBytes caps the input's size, counted after every gzip layer is
	// removed and before decoding to UTF-8: reading past it fails with an
	// error wrapping ErrTooLarge. 0 means no cap.
	MaxBytes int64
	// Strict makes an input that is not in UTF-8 an error of Open (a
	// *textenc.Problem wrapping ErrNotUTF8), and the first invalid
	// character an error of Read.
	Strict bool
	// Text configures the decoding to UTF-8: where problems are reported,
	// and how invalid characters are replaced. Its Strict is set from
	// Strict.
	Text textenc.Options
}

// Reader is an opened input: its text as UTF-8.
type Reader struct {
	text   *textenc.Reader // nil when binary
	count  *counter
	layers int
	binary bool
	// The buffers Release gives back: the buffer the content is read
	// through, and the gzip layers', outermost first.
	raw   *bufio.Reader
	gz    []gzipLayer
	ahead *ahead // what decompresses ahead, when gzipped
}

// gzipLayer is what a gzip layer is read with: the buffer its compressed
// bytes are read through, and the decompressor.
type gzipLayer struct {
	br *bufio.Reader
	zr *gzip.Reader
}

// The pools of what Open builds a Reader with.
var (
	rawBuffers  = bufpool.Readers{Size: 64 << 10}
	gzipBuffers = bufpool.Readers{Size: gzipBufSize}
	gzipReaders sync.Pool // of *gzip.Reader
)

// newGzip returns a decompressor of br, one given back if there is one.
func newGzip(br *bufio.Reader) (*gzip.Reader, error) {
	if zr, ok := gzipReaders.Get().(*gzip.Reader); ok {
		if err := zr.Reset(br); err != nil {
			gzipReaders.Put(zr)
			return nil, err
		}
		return zr, nil
	}
	return gzip.NewReader(br)
}

// Open opens the input r. It fails with ErrGzipDepth, a *GzipError for a
// header that cannot be read, a *textenc.Problem for an input not
// in UTF-8 (with Options.Strict), or r's own error before the first gzip
// layer; later errors come from Read. An r that is a CharsetReader is
// decoded with the charset it gives.
func Open(r io.Reader, opts Options) (*Reader, error) {
	// Each layer's first bytes are read ahead to look for the magic bytes
	// of another (no buffer between layers: one fewer copy of the content,
	// and less memory per open input); the compressed bytes of a layer
	// are read through a buffer, which the decompressor reads byte by byte.
	var in io.Reader = r
	layers := 0
	var gz []gzipLayer
	for {
		head, err := peek(in)
		if err != nil && err != io.EOF && layers == 0 {
			return nil, err
		}
		in = head
		if err != nil && err != io.EOF {
			break // damage right at the start of a layer: Read returns it
		}
		if !IsGzip(head.magic()) {
			break
		}
		if layers == MaxGzipLayers {
			return nil, reason.Of(ErrGzipDepth)
		}
		br := gzipBuffers.Get(head)
		zr, err := newGzip(br)
		if err != nil {
			gzipBuffers.Put(br)
			return nil, &GzipError{Header: true, Err: err}
		}
		gz = append(gz, gzipLayer{br, zr})
		layers++
		in = zr
	}
	var ah *ahead
	if layers > 0 {
		ah = newAhead(in)
		in = ah
	}
	c := &counter{r: in, max: opts.MaxBytes, gzip: layers > 0}
	raw := rawBuffers.Get(c)
	rd := &Reader{count: c, layers: layers, raw: raw, gz: gz, ahead: ah}
	// A read error here comes again from Read, after what came before it.
	if head, _ := raw.Peek(BinaryLen); textenc.IsBinary(head) {
		rd.binary = true
		return rd, nil
	}
	topts := opts.Text
	topts.Strict = opts.Strict
	if c, ok := r.(CharsetReader); ok && topts.Charset == "" {
		topts.Charset = c.ContentCharset()
	}
	if sr, ok := r.(SharedReader); ok && topts.Shared == nil {
		topts.Shared = sr.TextShared()
	}
	rd.text = textenc.NewReader(raw, topts)
	if enc := rd.text.Encoding(); opts.Strict && enc != "" {
		rd.Release()
		return nil, &textenc.Problem{Line: 1, Column: 1, Err: fmt.Errorf("%w: the input is encoded in %s", reason.Of(ErrNotUTF8), enc)}
	}
	return rd, nil
}

// Release gives the buffers of the reader back, for the inputs opened
// after it (package bufpool); it must not be used after, and must be
// called once what read it is done with it (on its goroutine, or after
// it). The buffers of its gzip layers go back only when the goroutine
// that decompresses ahead is done with them: it was never started (at
// most the first 64 KiB of content was read), or gave its last chunk.
func (r *Reader) Release() {
	if r.text != nil {
		r.text.Release()
	}
	rawBuffers.Put(r.raw)
	if r.ahead == nil || r.ahead.done() {
		for _, l := range r.gz {
			gzipBuffers.Put(l.br)
			gzipReaders.Put(l.zr)
		}
	}
	r.text, r.raw, r.gz, r.ahead = nil, nil, nil, nil
}

// Binary reports whether the input is binary data rather than text in
// some encoding: a NUL byte in its first BinaryLen bytes, which are not
// UTF-16 or UTF-32. Such an input has no text: Read returns io.EOF at
// once.
func (r *Reader) Binary() bool { return r.binary }

// Read reads the text as UTF-8. Besides r's own errors, it fails with a
// *GzipError for damaged gzip data, an error wrapping ErrTooLarge past the
// cap, and, in strict mode, a *textenc.Problem at the first invalid
// character.
func (r *Reader) Read(p []byte) (int, error) {
	if r.binary {
		return 0, io.EOF
	}
	return r.text.Read(p)
}

// Layers returns how many gzip layers were removed.
func (r *Reader) Layers() int { return r.layers }

// Encoding returns the encoding the input is in when it is not UTF-8
// (textenc.Reader.Encoding), or "".
func (r *Reader) Encoding() string {
	if r.binary {
		return ""
	}
	return r.text.Encoding()
}

// Bytes returns how many bytes of the input have been read, counted after
// the gzip layers are removed and before decoding: its size once it has
// been read to the end (up to the cap and one byte more).
func (r *Reader) Bytes() int64 { return r.count.n }

// Drain reads what is left of the input without decoding it, so that
// Bytes gives its size, and returns the error that ended it, if any but
// io.EOF: damaged gzip data, the cap, or r's own.
func (r *Reader) Drain() error {
	_, err := io.Copy(io.Discard, r.count)
	return err
}

// IsGzip reports whether head, the first bytes of a content, starts with
// the gzip magic: what makes Open remove a gzip layer.
func IsGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// gzipBufSize is the size of the buffer a gzip layer's compressed bytes
// are read through.
const gzipBufSize = 32 << 10

// prefixed is a reader whose first bytes (up to two: enough for the gzip
// magic) were read ahead, with the error that came with them.
type prefixed struct {
	head [2]byte
	n, i int
	err  error // returned once the head is read
	r    io.Reader
}

// peek reads the first two bytes of r (fewer at its end) and returns r
// with them put back, and the error that came with them.
func peek(r io.Reader) (*prefixed, error) {
	p := &prefixed{r: r}
	p.n, p.err = fill(r, p.head[:])
	return p, p.err
}

// magic returns the bytes read ahead.
func (p *prefixed) magic() []byte { return p.head[:p.n] }

func (p *prefixed) Read(b []byte) (int, error) {
	if p.i < p.n {
		n := copy(b, p.head[p.i:p.n])
		p.i += n
		return n, nil
	}
	if p.err != nil {
		return 0, p.err
	}
	return p.r.Read(b)
}

// counter counts the bytes the gzip layers give and fails past the cap:
// the byte after the cap is read to tell an input of exactly max bytes
// from a longer one, and never returned. It says which of its reader's
// errors are gzip damage.
type counter struct {
	r      io.Reader
	n, max int64
	gzip   bool
	err    error // the error that ended the input, returned again
}

func (c *counter) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.max > 0 {
		if rest := c.max + 1 - c.n; int64(len(p)) > rest {
			p = p[:rest]
		}
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.max > 0 && c.n > c.max {
		c.err = fmt.Errorf("%w: more than the cap of %d bytes (counted decompressed); "+
			"stopped rather than read part of it", ErrTooLarge, c.max)
		return n - int(c.n-c.max), c.err
	}
	if err != nil && err != io.EOF {
		if c.gzip {
			err = &GzipError{Offset: c.n, Err: err}
		}
		c.err = err
	}
	return n, err
}
