package formats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// OpenOptions configure Open.
type OpenOptions struct {
	ReadOptions
	// From names the format to read, skipping detection. Empty means
	// detect it from the content.
	From string
	// MaxBytes caps the input's size, counted after every gzip layer is
	// removed (so a gzip bomb stops at the cap) and before decoding to
	// UTF-8. Reading past it fails with an error wrapping ErrTooLarge
	// that names the source and the cap. 0 means no cap. Strict reading
	// caps at the protocol's MaxBytes at most.
	MaxBytes int64
}

// Open prepares an input for reading and returns a reader of its entries
// with the format it was read as. It removes gzip layers (recognized by
// their magic bytes, whatever the input's name), decodes the content to
// UTF-8 (byte order marks, UTF-16 and UTF-32, declared charsets; an input
// that declares no encoding and is not valid UTF-8 read as windows-1252,
// with a warning; invalid bytes of a declared encoding replaced with a
// warning), and recognizes the format by its first 16 KiB (Detect), never
// by name, unless opts.From names it. Package validate opens
// its inputs the same way (internal/source).
//
// In strict mode these are errors too: an input that is not in UTF-8 (the
// protocol wants UTF-8), the first invalid character, and a size over the
// protocol's MaxBytes, whatever opts.MaxBytes allows.
//
// A *Dir (a directory, html.OpenDir) is read by the format that reads
// directories (Format.ReadDir), or the one opts.From names.
//
// An input that is empty, or not in any registered format, gives an error
// wrapping ErrEmpty or ErrUnknownFormat that names the source and says what
// the content looked like.
func Open(r io.Reader, opts OpenOptions) (Reader, *Format, error) {
	if d, ok := r.(*Dir); ok {
		return openDir(d, opts)
	}
	fail := func(err error) (Reader, *Format, error) {
		pe := &ParseError{Source: opts.Source, Err: err}
		if p := (*textenc.Problem)(nil); errors.As(err, &p) {
			// Invalid text within the sniffed prefix, in strict mode:
			// where it is.
			pe.Line, pe.Column, pe.Err = p.Line, p.Column, p.Err
		}
		return nil, nil, pe
	}
	maxBytes := opts.MaxBytes
	if opts.Strict && (maxBytes == 0 || maxBytes > MaxBytes) {
		// A document over the protocol's limit is an error of strict
		// reading, as of validation.
		maxBytes = MaxBytes
	}
	src, err := source.Open(r, source.Options{
		MaxBytes: maxBytes,
		Strict:   opts.Strict,
		Text: textenc.Options{Report: func(p *textenc.Problem) {
			opts.Warning(p.Line, p.Column, false, p.Err)
		}},
	})
	switch {
	case err != nil:
		return fail(err)
	case src.Binary():
		return fail(fmt.Errorf("%w (binary data)", ErrUnknownFormat))
	}
	layers := src.Layers()
	dec := damagedGzip{src}
	sr := &opened{Reader: sniffBuffers.Get(dec), src: src}
	prefix, err := sr.Peek(sniff.Len)
	if errors.Is(err, ErrTooLarge) {
		return fail(err)
	}
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		if len(prefix) == 0 {
			return fail(err)
		}
	}
	sniffed := sniff.Of(prefix)
	var found []*Format
	if opts.From == "" {
		found = Detect(prefix) // before Discard, which ends the prefix's life
	}
	if sniffed.Junk > 0 {
		sr.Discard(sniffed.Junk)
		if werr := opts.Warningf(1, 1, false, "%d bytes of text before the XML declaration ignored", sniffed.Junk); werr != nil {
			return nil, nil, werr
		}
	}
	var f *Format
	if opts.From != "" {
		f, err = Lookup(opts.From)
		if err != nil {
			return fail(err)
		}
		if !f.CanRead() {
			return fail(fmt.Errorf("format %q can be written but not read", f.Name))
		}
	} else {
		switch {
		case len(found) == 1:
			f = found[0]
		case sniffed.Content == sniff.Empty:
			if layers > 0 {
				return fail(fmt.Errorf("%w (empty gzip)", ErrEmpty))
			}
			return fail(ErrEmpty)
		case len(found) == 0:
			return fail(fmt.Errorf("%w (%s)", ErrUnknownFormat, &sniffed))
		default:
			names := make([]string, len(found))
			for i, g := range found {
				names[i] = g.Name
			}
			return fail(fmt.Errorf("%w (%s)", ErrAmbiguous, strings.Join(names, ", ")))
		}
	}
	return f.NewReader(sr, opts.ReadOptions), f, nil
}

// Releaser is a Reader that can give the buffers it and its opening were
// built with (some hundreds of KiB) back, for the inputs opened after it:
// the readers of the XML and text formats are. Release must be called
// only once the reader is read no more, on the goroutine that read it;
// what it returned before stays valid, and it must not be used after.
type Releaser interface {
	Release()
}

// Release gives back the buffers of r, a reader Open returned, when it is
// a Releaser (see there); r must not be used after.
func Release(r Reader) {
	if rr, ok := r.(Releaser); ok {
		rr.Release()
	}
}

// opened is the content Open gives a format's reader: the decoded
// content, read through the buffer its format was recognized with. A
// format's reader that is a Releaser releases it.
type opened struct {
	*bufio.Reader
	src *source.Reader
}

// sniffBuffers is the pool of the buffers Open recognizes formats with.
var sniffBuffers = bufpool.Readers{Size: sniff.Len}

// Release gives the buffers of the content back (see Releaser).
func (o *opened) Release() {
	sniffBuffers.Put(o.Reader)
	o.src.Release()
	o.Reader, o.src = nil, nil
}

// damagedGzip marks damaged gzip data as ErrDamaged: what was read
// before it can be kept.
type damagedGzip struct{ r io.Reader }

func (d damagedGzip) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	var gz *source.GzipError
	if errors.As(err, &gz) {
		err = source.Damaged(gz)
	}
	return n, err
}
