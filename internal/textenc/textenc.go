// Package textenc turns an input in whatever encoding it arrived in into
// clean UTF-8: UTF-16 and UTF-32 (with or without a byte order mark) and
// charsets an XML declaration names are transcoded, the declaration is
// rewritten to say UTF-8 so that no later parser decodes twice, and invalid
// UTF-8 and characters XML forbids are replaced and counted.
//
// A charset the transport gave (HTTP's Content-Type) decides over the XML
// declaration, as RFC 7303 says for XML media types, and a byte order mark
// over both (Options.Charset).
//
// An input that declares no encoding (no byte order mark, no encoding in an
// XML declaration, no charset from the transport) and is not valid UTF-8 is
// taken as windows-1252, the encoding browsers and feed readers assume:
// each byte that is not part of a valid UTF-8 sequence is read as its
// windows-1252 character, with one problem reported for them all, so that
// no U+FFFD stands for a Latin-1 or windows-1252 letter.
package textenc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"golang.org/x/text/transform"

	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
)

// Problem is a repair textenc made, at a 1-based line and byte column of
// the decoded text.
type Problem struct {
	Line, Column int
	Err          error
}

// Error returns the problem's message.
func (p *Problem) Error() string { return p.Err.Error() }

// Unwrap returns the underlying error.
func (p *Problem) Unwrap() error { return p.Err }

// ErrInvalidText is wrapped by the problems of invalid UTF-8 and forbidden
// control characters.
var ErrInvalidText = errors.New("formats: invalid UTF-8 or control characters")

// ErrUndeclaredLegacy is wrapped by the problem of an input that declares
// no encoding, is not valid UTF-8, and was read as windows-1252.
var ErrUndeclaredLegacy = errors.New("formats: not UTF-8 and no encoding declared")

// Options configure NewReader.
type Options struct {
	// Strict makes the first repair an error returned from Read instead of
	// a reported problem.
	Strict bool
	// Report receives each problem in lenient mode: an encoding that was
	// not recognized, and, at the end, how many bytes were repaired.
	Report func(*Problem)
	// Each, when set, receives every invalid character as it is found,
	// with its position: for a checker that reports each one.
	Each func(Invalid)
	// Charset is the charset the transport gave for the input (the
	// charset parameter of an HTTP Content-Type), or "". Unless the input
	// begins with a byte order mark or is recognizably UTF-16 or UTF-32,
	// it decides the encoding over the XML declaration's, as RFC 7303
	// (3.2) has it for XML media types and HTTP for text: the input is
	// then declared, and bytes invalid in it are replaced, never read as
	// windows-1252. An unknown charset is reported and ignored.
	Charset string
	// Mark replaces each byte of an invalid or forbidden character with
	// '?' instead of U+FFFD or a space, so that the byte columns of what
	// follows on the line stay those of the input: for a checker that
	// reports positions. Bytes read as windows-1252 are decoded all the
	// same.
	Mark bool
	// Shared, when set, is shared with another Reader of the same input
	// decoded the same way (the same bytes and charset: a conversion and
	// the check of what it reads), so that the text either finds valid is
	// checked once.
	Shared *Shared
}

// Shared is what two Readers of one text tell each other as they read
// it, each on its own goroutine: how long a prefix of the text one of
// them found valid, which the other need not check again. The zero
// Shared is ready to use.
type Shared struct{ valid atomic.Int64 }

// found records that the first n bytes of the text are valid.
func (s *Shared) found(n int64) {
	for {
		v := s.valid.Load()
		if n <= v || s.valid.CompareAndSwap(v, n) {
			return
		}
	}
}

// Invalid is one invalid character of the input, as Options.Each
// receives it.
type Invalid struct {
	// Line and Column are 1-based; Column counts bytes of the input as
	// decoded from its charset, before any repair.
	Line, Column int
	// Rune is the forbidden character (a control character, U+FFFE or
	// U+FFFF), or -1 when the input holds a byte that is not UTF-8.
	Rune rune
	// Byte is the byte that is not UTF-8, when Rune is -1.
	Byte byte
	// Legacy is set when that byte was read as its windows-1252
	// character, the input declaring no encoding.
	Legacy bool
}

// Reader reads an input's content as UTF-8.
type Reader struct {
	cleaner
	encoding string
}

// NewReader returns a reader of r's content as UTF-8. The start of r is
// read at once, to recognize its encoding.
func NewReader(r io.Reader, opts Options) *Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	var dec io.Reader = br
	unicodeEnc, name, bom := detectUnicode(br)
	if unicodeEnc != nil {
		dec = transform.NewReader(br, unicodeEnc.NewDecoder())
	}
	if unicodeEnc == nil && !bom && opts.Charset != "" {
		if enc, isUTF8, ok := transportCharset(opts); ok {
			// The transport's charset is authoritative (RFC 7303, 3.2):
			// the declaration is rewritten, not obeyed.
			if !isUTF8 {
				dec = transform.NewReader(br, enc.NewDecoder())
			}
			dec, _, _ = declared(dec, true, opts)
			rd := &Reader{cleaner: cleaner{r: dec, opts: opts, shared: opts.Shared, at: pos{line: 1}}}
			if !isUTF8 {
				rd.encoding = opts.Charset
			}
			return rd
		}
	}
	// A byte order mark decides over the declaration (RFC 7303, 3.3):
	// after a UTF-8 one, the declaration is rewritten, not obeyed.
	dec, label, named := declared(dec, unicodeEnc != nil || bom, opts)
	rd := &Reader{cleaner: cleaner{r: dec, opts: opts, shared: opts.Shared, at: pos{line: 1}, legacy: !bom && unicodeEnc == nil && !named}}
	switch norm := strings.ToLower(strings.TrimSpace(label)); {
	case unicodeEnc != nil:
		rd.encoding = name
	case bom:
	case label != "" && norm != "utf-8" && norm != "utf8":
		rd.encoding = label
	}
	return rd
}

// transportCharset looks up opts.Charset, the charset the transport gave:
// its decoder, whether it is UTF-8, and whether it is known. An unknown
// one is reported and ignored.
func transportCharset(opts Options) (enc encoding.Encoding, isUTF8 bool, ok bool) {
	enc, canonical := charset.Lookup(strings.TrimSpace(opts.Charset))
	if enc == nil {
		if opts.Report != nil {
			opts.Report(&Problem{Line: 1, Err: fmt.Errorf("unknown charset %q in the Content-Type ignored", opts.Charset)})
		}
		return nil, false, false
	}
	return enc, canonical == "utf-8", true
}

// Encoding returns the encoding the input is in when it is not UTF-8: UTF-16
// or UTF-32 (recognized by a byte order mark or by the zero bytes of
// ASCII characters), or the charset its XML declaration names (as written,
// whether or not it is known); "" for UTF-8.
func (r *Reader) Encoding() string { return r.encoding }

// detectUnicode recognizes UTF-8, UTF-16 and UTF-32 by their byte order
// marks, and UTF-16 and UTF-32 without one by the zero bytes of the
// ASCII characters an XML document or URL list begins with. It drops a
// byte order mark and returns the decoder to use, or nil for UTF-8, its
// name, and whether there was a byte order mark.
func detectUnicode(br *bufio.Reader) (encoding.Encoding, string, bool) {
	head, _ := br.Peek(64)
	enc, name, bom := sniffUnicode(head)
	br.Discard(bom)
	return enc, name, bom > 0
}

// sniffUnicode returns the Unicode encoding the start of an input is in
// (nil for UTF-8), its name ("UTF-16" or "UTF-32"; "" for UTF-8) and the
// length of its byte order mark.
func sniffUnicode(head []byte) (encoding.Encoding, string, int) {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return nil, "", 3
	case bytes.HasPrefix(head, []byte{0x00, 0x00, 0xFE, 0xFF}):
		return utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "UTF-32", 4
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0x00, 0x00}):
		return utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), "UTF-32", 4
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16", 2
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16", 2
	}
	if len(head) < 4 {
		return nil, "", 0
	}
	n := min(len(head), 64) &^ 3
	var zeros [4]int
	for i := 0; i < n; i++ {
		if head[i] == 0 {
			zeros[i&3]++
		}
	}
	q := n / 4 // characters in UTF-32, half the characters in UTF-16
	switch {
	case zeros[0] == q && zeros[1] == q && zeros[2] == q && zeros[3] == 0:
		return utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), "UTF-32", 0
	case zeros[0] == 0 && zeros[1] == q && zeros[2] == q && zeros[3] == q:
		return utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), "UTF-32", 0
	case zeros[0]+zeros[2] >= n/2-1 && zeros[1]+zeros[3] == 0:
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16", 0
	case zeros[1]+zeros[3] >= n/2-1 && zeros[0]+zeros[2] == 0:
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16", 0
	}
	return nil, "", 0
}

// IsBinary reports whether the start of an input is binary data rather than
// text in some encoding: it holds a NUL byte and is not UTF-16 or UTF-32.
func IsBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) < 0 {
		return false
	}
	enc, _, _ := sniffUnicode(head)
	return enc == nil
}

var encodingAttr = regexp.MustCompile(`(encoding\s*=\s*)(?:"([^"]*)"|'([^']*)')`)

// declared reads an XML declaration at the start of r, if there is one,
// transcodes the rest from the charset it names, and returns a reader
// whose declaration says UTF-8, the encoding the declaration names (as
// written) and whether it names one (any, UTF-8 included).
func declared(r io.Reader, transcoded bool, opts Options) (io.Reader, string, bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(1024)
	start := len(head) - len(bytes.TrimLeft(head, " \t\r\n"))
	if !bytes.HasPrefix(head[start:], []byte("<?xml")) {
		return br, "", false
	}
	end := bytes.Index(head[start:], []byte("?>"))
	if end < 0 {
		return br, "", false
	}
	decl := head[:start+end+2]
	m := encodingAttr.FindSubmatchIndex(decl)
	if m == nil {
		return br, "", false
	}
	var label string
	if m[4] >= 0 {
		label = string(decl[m[4]:m[5]])
	} else {
		label = string(decl[m[6]:m[7]])
	}
	norm := strings.ToLower(strings.TrimSpace(label))
	if norm == "utf-8" || norm == "utf8" {
		return br, label, true
	}
	var enc encoding.Encoding
	if !transcoded && !strings.HasPrefix(norm, "utf-16") && !strings.HasPrefix(norm, "utf-32") {
		enc, _ = charset.Lookup(norm)
		if enc == nil && opts.Report != nil {
			opts.Report(&Problem{Line: 1, Err: fmt.Errorf("unknown encoding %q declared; read as UTF-8", label)})
		}
	}
	rewritten := make([]byte, 0, len(decl)+8)
	rewritten = append(rewritten, decl[:m[0]]...)
	rewritten = append(rewritten, `encoding="UTF-8"`...)
	rewritten = append(rewritten, decl[m[1]:]...)
	br.Discard(len(decl))
	var rest io.Reader = br
	if enc != nil && enc != encoding.Nop {
		rest = transform.NewReader(br, enc.NewDecoder())
	}
	return io.MultiReader(bytes.NewReader(rewritten), rest), label, true
}

// cleaner replaces invalid UTF-8 with U+FFFD (with the byte's
// windows-1252 character when legacy) and the control characters XML 1.0
// forbids (all below U+0020 but tab, newline and carriage return; and
// U+FFFE, U+FFFF) with a space: a character that separates, so that a
// vertical tab or form feed between two URLs never glues them into one.
type cleaner struct {
	r    io.Reader
	opts Options
	// legacy is set when the input declares no encoding: bytes that are
	// not UTF-8 are then windows-1252.
	legacy bool
	// legacyBytes counts the bytes read as windows-1252, and firstLegacy
	// is where the first was.
	legacyBytes int
	firstLegacy *Problem
	carry       []byte // an incomplete UTF-8 sequence left from the last read
	out         []byte // cleaned bytes not yet returned
	buf         []byte
	err         error

	// shared is Options.Shared until a problem is met, and off how many
	// bytes of the text came before the chunk being cleaned.
	shared *Shared
	off    int64

	at            pos // position of the next byte read, for problems
	mark          pos // position of chunk[marked] in the chunk being cleaned
	marked        int
	invalid, ctrl int
	first         *Problem
}

// cleanBufSize is the size of the buffer a cleaner reads its input into.
const cleanBufSize = 32 << 10

// cleanBuffers is the pool of cleaners' buffers (Reader.Release).
var cleanBuffers = bufpool.Bytes{Size: cleanBufSize}

// Release gives the buffer the reader cleans its input in back, for the
// readers made after it (package bufpool). It must not be used after.
func (r *Reader) Release() {
	cleanBuffers.Put(r.buf)
	r.buf, r.out, r.r = nil, nil, nil
	r.err = bufpool.ErrReleased
}

// allowed marks the bytes that pass through unchanged.
var allowed = asciiset.Of(func(c byte) bool { return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' })

func (c *cleaner) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.buf == nil {
			c.buf = cleanBuffers.Get()[:cleanBufSize]
		}
		n := copy(c.buf, c.carry)
		m, err := c.r.Read(c.buf[n:])
		chunk := c.buf[:n+m]
		c.carry = c.carry[:0]
		if err != nil {
			c.err = err
		}
		c.out = c.clean(chunk, err != nil)
		if c.opts.Strict && (c.first != nil || c.firstLegacy != nil) {
			first := c.first
			if first == nil {
				first = c.firstLegacy
			}
			c.out, c.err = nil, first
			return 0, c.err
		}
		if c.err == io.EOF && c.opts.Report != nil && c.legacyBytes > 0 {
			c.opts.Report(&Problem{Line: c.firstLegacy.Line, Column: c.firstLegacy.Column, Err: fmt.Errorf(
				"%w: read as windows-1252, as browsers and feed readers do (%d bytes that are not UTF-8; the first here)",
				reason.Of(ErrUndeclaredLegacy), c.legacyBytes)})
		}
		if c.err == io.EOF && c.opts.Report != nil && c.invalid+c.ctrl > 0 {
			c.opts.Report(&Problem{Line: c.first.Line, Column: c.first.Column, Err: fmt.Errorf(
				"%w: %d invalid UTF-8 sequences replaced, %d control characters replaced by spaces (the first here)",
				reason.Of(ErrInvalidText), c.invalid, c.ctrl)})
		}
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// clean returns chunk cleaned, in place when it needs no change (valid
// UTF-8 without forbidden characters, the common case, costs one scan). At
// the end of the input (final) an incomplete sequence is invalid; otherwise
// it is carried to the next read. The position moves past the chunk once
// it is cleaned; a problem's own position is worked out from the last
// problem's, so that reporting each (Options.Each) stays linear.
func (c *cleaner) clean(chunk []byte, final bool) []byte {
	i := c.validPrefix(chunk)
	if i == len(chunk) {
		c.at = c.at.advance(chunk)
		c.valid(i)
		return chunk
	}
	if !final && !utf8.FullRune(chunk[i:]) {
		// Valid up to an incomplete sequence that the next read completes.
		c.carry = append(c.carry, chunk[i:]...)
		c.at = c.at.advance(chunk[:i])
		c.valid(i)
		return chunk[:i]
	}
	c.shared = nil // nothing after a problem is valid from the start
	out := make([]byte, 0, len(chunk)+16)
	out = append(out, chunk[:i]...)
	c.mark, c.marked = c.at, 0
	for i < len(chunk) {
		b := chunk[i]
		if allowed.Has(b) {
			out = append(out, b)
			i++
			continue
		}
		if b < utf8.RuneSelf {
			c.problem(&c.ctrl, chunk, i, Invalid{Rune: rune(b)}, fmt.Sprintf("control character U+%04X", b))
			out = c.replace(out, 1, " ")
			i++
			continue
		}
		if !final && !utf8.FullRune(chunk[i:]) {
			c.carry = append(c.carry, chunk[i:]...)
			break
		}
		r, size := utf8.DecodeRune(chunk[i:])
		switch {
		case r == utf8.RuneError && size == 1 && c.legacy:
			c.legacyBytes++
			at := c.locate(chunk, i)
			if c.firstLegacy == nil {
				c.firstLegacy = &Problem{Line: at.line, Column: at.col + 1, Err: fmt.Errorf(
					"%w: byte 0x%02X read as windows-1252", reason.Of(ErrUndeclaredLegacy), b)}
			}
			if c.opts.Each != nil {
				c.opts.Each(Invalid{Line: at.line, Column: at.bcol + 1, Rune: -1, Byte: b, Legacy: true})
			}
			out = utf8.AppendRune(out, Windows1252(b))
		case r == utf8.RuneError && size == 1:
			c.problem(&c.invalid, chunk, i, Invalid{Rune: -1, Byte: b}, fmt.Sprintf("invalid UTF-8 byte 0x%02X", b))
			out = c.replace(out, 1, "\uFFFD")
		case r == 0xFFFE || r == 0xFFFF:
			c.problem(&c.ctrl, chunk, i, Invalid{Rune: r}, fmt.Sprintf("noncharacter U+%04X", r))
			out = c.replace(out, size, " ")
		default:
			out = append(out, chunk[i:i+size]...)
		}
		i += size
	}
	c.at = c.at.advance(chunk[:i])
	return out
}

// replace appends what stands for an invalid character of size bytes:
// with, or a '?' for each byte with Options.Mark.
func (c *cleaner) replace(out []byte, size int, with string) []byte {
	if !c.opts.Mark {
		return append(out, with...)
	}
	for range size {
		out = append(out, '?')
	}
	return out
}

// validPrefix returns validPrefix(chunk), without checking again what the
// other Reader of the text (Options.Shared) found valid of it: a valid
// prefix ends where a character does, so the scan may start there.
func (c *cleaner) validPrefix(chunk []byte) int {
	skip := 0
	if c.shared != nil {
		skip = int(min(max(c.shared.valid.Load()-c.off, 0), int64(len(chunk))))
	}
	return skip + validPrefix(chunk[skip:])
}

// valid records that the n bytes at the start of the chunk being cleaned
// are valid, as are all before them, and moves past them.
func (c *cleaner) valid(n int) {
	if c.shared != nil {
		c.off += int64(n)
		c.shared.found(c.off)
	}
}

// validPrefix returns the length of the longest prefix of b that is valid
// UTF-8 with no forbidden character.
func validPrefix(b []byte) int {
	i := 0
	for {
		// The allowed ASCII bytes, many at a time.
		if i += allowed.SpanBytes(b[i:]); i == len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			return i
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
			return i
		}
		i += size
	}
	return i
}

// pos is a position in the text: a 1-based line, and the characters and
// bytes before it on the line.
type pos struct{ line, col, bcol int }

// advance returns the position after b, from p before it: lines are
// counted by newlines.
func (p pos) advance(b []byte) pos {
	if nl := bytes.Count(b, []byte{'\n'}); nl > 0 {
		tail := b[bytes.LastIndexByte(b, '\n')+1:]
		return pos{p.line + nl, utf8.RuneCount(tail), len(tail)}
	}
	return pos{p.line, p.col + utf8.RuneCount(b), p.bcol + len(b)}
}

// locate returns the position of chunk[i], moving on from the last
// problem's in the chunk.
func (c *cleaner) locate(chunk []byte, i int) pos {
	c.mark = c.mark.advance(chunk[c.marked:i])
	c.marked = i
	return c.mark
}

// problem counts a problem, what, at chunk[i], passes it to Options.Each,
// and remembers where the first one was and what it was.
func (c *cleaner) problem(count *int, chunk []byte, i int, inv Invalid, what string) {
	*count++
	if c.first != nil && c.opts.Each == nil {
		return
	}
	at := c.locate(chunk, i)
	if c.first == nil {
		c.first = &Problem{Line: at.line, Column: at.col + 1, Err: fmt.Errorf("%w: %s", reason.Of(ErrInvalidText), what)}
	}
	if c.opts.Each != nil {
		inv.Line, inv.Column = at.line, at.bcol+1
		c.opts.Each(inv)
	}
}

// Windows1252 returns the character byte b stands for in windows-1252 as
// the WHATWG Encoding Standard maps it (the five bytes the code page leaves
// undefined are the C1 controls of the same number), as undeclared input
// is read.
func Windows1252(b byte) rune {
	if b >= 0xA0 || b < 0x80 {
		return rune(b)
	}
	return cp1252High[b-0x80]
}

// cp1252High maps 0x80 to 0x9F.
var cp1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}
