package formats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// MaxGzipLayers is how many gzip layers Open removes (real servers gzip
// sitemaps twice); a deeper nesting is an error.
const MaxGzipLayers = 3

// OpenOptions configure Open.
type OpenOptions struct {
	ReadOptions
	// From names the format to read, skipping detection. Empty means
	// detect it from the content.
	From string
}

// Open prepares an input for reading and returns a reader of its entries
// with the format it was read as. It removes gzip layers (recognized by
// their magic bytes, whatever the input's name), decodes the content to
// UTF-8 (byte order marks, UTF-16 and UTF-32, declared charsets; invalid
// bytes replaced with a warning), and recognizes the format by sniffing the
// first SniffLen bytes, never by name, unless opts.From names it.
//
// An input that is empty, or not in any registered format, gives an error
// wrapping ErrEmpty or ErrUnknownFormat that names the source and says what
// the content looked like.
func Open(r io.Reader, opts OpenOptions) (Reader, *Format, error) {
	fail := func(err error) (Reader, *Format, error) {
		return nil, nil, &ParseError{Source: opts.Source, Err: err}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	layers := 0
	for {
		magic, err := br.Peek(2)
		if err != nil && err != io.EOF {
			return fail(err)
		}
		if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
			break
		}
		if layers == MaxGzipLayers {
			return fail(fmt.Errorf("gzip nested more than %d deep", MaxGzipLayers))
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fail(fmt.Errorf("corrupt gzip data: %w", err))
		}
		layers++
		br = bufio.NewReaderSize(gzipErrors{zr}, 64<<10)
	}
	if head, _ := br.Peek(512); textenc.IsBinary(head) {
		return fail(fmt.Errorf("%w (binary data)", ErrUnknownFormat))
	}
	dec := textenc.NewReader(br, textenc.Options{
		Strict: opts.Strict,
		Report: func(p *textenc.Problem) {
			opts.Warning(p.Line, p.Column, false, p.Err)
		},
	})
	sr := bufio.NewReaderSize(dec, SniffLen)
	prefix, err := sr.Peek(SniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		if len(prefix) == 0 {
			return fail(err)
		}
	}
	sniffed := Sniff(prefix)
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
		found := Detect(&sniffed)
		switch {
		case len(found) == 1:
			f = found[0]
		case sniffed.Content == ContentEmpty:
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
			return fail(fmt.Errorf("content matches several formats (%s); choose one with --from", strings.Join(names, ", ")))
		}
	}
	return f.NewReader(sr, opts.ReadOptions), f, nil
}

// gzipErrors says that errors of the decompressor are about gzip data.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = Damaged(fmt.Errorf("corrupt gzip data: %w", err))
	}
	return n, err
}
