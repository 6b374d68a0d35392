package textlines_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/textlines"
)

// line is what Reader.Next returned for one line.
type line struct {
	n    int
	text string
	long bool
}

func readLines(t *testing.T, r io.Reader) ([]line, error) {
	t.Helper()
	lr := textlines.NewReader(r)
	var got []line
	for {
		l, long, err := lr.Next()
		if err != nil {
			return got, err
		}
		got = append(got, line{lr.Line(), string(l), long})
		require.Less(t, len(got), 1000)
	}
}

// TestLineReaderEndings reads the same lines with every line ending, whole
// and a byte at a time (so that a CRLF is split between two reads).
func TestLineReaderEndings(t *testing.T) {
	want := []line{{1, "a", false}, {2, "", false}, {3, "b c", false}, {4, "d", false}}
	for name, in := range map[string]string{
		"LF":                "\ufeffa\n\nb c\nd\n",
		"CRLF":              "\ufeffa\r\n\r\nb c\r\nd\r\n",
		"CR":                "\ufeffa\r\rb c\rd\r",
		"mixed":             "\ufeffa\r\n\rb c\nd\r\n",
		"no final ending":   "\ufeffa\n\nb c\r\nd",
		"CR, no final":      "\ufeffa\r\rb c\rd",
		"CRLF, no final":    "\ufeffa\r\n\r\nb c\r\nd",
		"LF CR is two ends": "\ufeffa\n\rb c\nd",
	} {
		t.Run(name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in)), iotest.DataErrReader(strings.NewReader(in))} {
				got, err := readLines(t, r)
				assert.Equal(t, io.EOF, err)
				assert.Equal(t, want, got)
			}
		})
	}
}

// TestLineReaderLongLine drops what is over MaxLength of a line, and
// counts the lines after it right with every ending.
func TestLineReaderLongLine(t *testing.T) {
	long := strings.Repeat("x", 3*textlines.MaxLength)
	exact := strings.Repeat("y", textlines.MaxLength)
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		in := "a" + eol + long + eol + exact + eol + "b" + eol + long
		want := []line{{1, "a", false}, {2, long[:textlines.MaxLength], true}, {3, exact, false}, {4, "b", false}, {5, long[:textlines.MaxLength], true}}
		for _, r := range []io.Reader{strings.NewReader(in), iotest.HalfReader(strings.NewReader(in))} {
			got, err := readLines(t, r)
			assert.Equal(t, io.EOF, err)
			assert.Equal(t, want, got, "ending %q", eol)
		}
	}
}

// TestLineReaderError returns the input's error, not the line it cut.
func TestLineReaderError(t *testing.T) {
	boom := errors.New("boom")
	got, err := readLines(t, io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(boom)))
	assert.Equal(t, boom, err)
	assert.Equal(t, []line{{1, "a", false}}, got)
}

// FuzzLineReader compares Reader, reading a few bytes at a time, with
// a plain split of the whole input at CR, LF and CRLF.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"a\nb", "a\r\nb\r\n", "a\rb\r", "\ufeffa\r\r\n\n", strings.Repeat("x", textlines.MaxLength+1) + "\r\ny"} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, step uint8) {
		var want []line
		rest := in
		for n := 1; len(rest) > 0; n++ {
			text := rest
			if i := strings.IndexAny(string(rest), "\r\n"); i >= 0 {
				text, rest = rest[:i], rest[i+1:]
				if text := in[len(in)-len(rest)-1]; text == '\r' && len(rest) > 0 && rest[0] == '\n' {
					rest = rest[1:]
				}
			} else {
				rest = nil
			}
			if n == 1 {
				text = []byte(strings.TrimPrefix(string(text), "\ufeff"))
			}
			long := len(text) > textlines.MaxLength
			if long {
				text = text[:textlines.MaxLength]
			}
			want = append(want, line{n, string(text), long})
		}
		r := iotest.HalfReader(&stepReader{in: in, step: int(step%16) + 1})
		got, err := readLines(t, r)
		if err != io.EOF {
			t.Fatal(err)
		}
		if len(want) == 0 {
			want = nil
		}
		assert.Equal(t, want, got)
	})
}

// stepReader returns at most step bytes a read.
type stepReader struct {
	in   []byte
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.in) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.step)], s.in)
	s.in = s.in[n:]
	return n, nil
}
