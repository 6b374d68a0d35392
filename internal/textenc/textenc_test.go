package textenc_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"

	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

func decode(t *testing.T, in []byte, strict bool) (string, []*textenc.Problem, error) {
	t.Helper()
	var problems []*textenc.Problem
	r := textenc.NewReader(iotest.HalfReader(bytes.NewReader(in)), textenc.Options{
		Strict: strict,
		Report: func(p *textenc.Problem) { problems = append(problems, p) },
	})
	out, err := io.ReadAll(r)
	return string(out), problems, err
}

const doc = `<?xml version="1.0" encoding="%s"?><rss><title>Ünïcødé ✓</title></rss>`

func TestUnicodeEncodings(t *testing.T) {
	want := strings.Replace(doc, "%s", "UTF-8", 1)
	cases := map[string][]byte{}
	add := func(name string, bom []byte, e interface{ Bytes([]byte) ([]byte, error) }, label string) {
		b, err := e.Bytes([]byte(strings.Replace(doc, "%s", label, 1)))
		require.NoError(t, err)
		cases[name] = append(append([]byte{}, bom...), b...)
	}
	add("utf-8 bom", []byte{0xEF, 0xBB, 0xBF}, nopEncoder{}, "UTF-8")
	add("utf-16le bom", []byte{0xFF, 0xFE}, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder(), "UTF-16")
	add("utf-16be bom", []byte{0xFE, 0xFF}, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder(), "UTF-16")
	add("utf-16le no bom", nil, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder(), "UTF-16")
	add("utf-16be no bom", nil, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder(), "utf-16")
	add("utf-32le bom", []byte{0xFF, 0xFE, 0, 0}, utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM).NewEncoder(), "UTF-32")
	add("utf-32be no bom", nil, utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM).NewEncoder(), "UTF-32")
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got, problems, err := decode(t, in, true)
			require.NoError(t, err)
			assert.Empty(t, problems)
			assert.Equal(t, want, got)
		})
	}
}

// nopEncoder leaves UTF-8 as it is.
type nopEncoder struct{}

func (nopEncoder) Bytes(b []byte) ([]byte, error) { return b, nil }

func TestDeclaredCharsets(t *testing.T) {
	for _, tt := range []struct {
		label string
		enc   *charmap.Charmap
		text  string
	}{
		{"ISO-8859-1", charmap.Windows1252, "café “quoted”"}, // ISO-8859-1 is read as windows-1252, as browsers do
		{"koi8-r", charmap.KOI8R, "Привет"},
		{"windows-1251", charmap.Windows1251, "Привет"},
	} {
		t.Run(tt.label, func(t *testing.T) {
			body, err := tt.enc.NewEncoder().Bytes([]byte(tt.text))
			require.NoError(t, err)
			in := append([]byte(`<?xml version="1.0" encoding="`+tt.label+`"?>`+"\n<rss>"), body...)
			in = append(in, "</rss>"...)
			got, problems, err := decode(t, in, true)
			require.NoError(t, err)
			assert.Empty(t, problems)
			assert.Equal(t, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<rss>"+tt.text+"</rss>", got)
		})
	}
}

func TestUnknownEncoding(t *testing.T) {
	got, problems, err := decode(t, []byte(`<?xml version='1.0' encoding='bogus'?><rss/>`), false)
	require.NoError(t, err)
	assert.Equal(t, `<?xml version='1.0' encoding="UTF-8"?><rss/>`, got)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Error(), `unknown encoding "bogus"`)
}

func TestInvalidBytesLenient(t *testing.T) {
	// A byte order mark declares UTF-8: invalid bytes are replaced.
	in := []byte("\xEF\xBB\xBFline one\nab\xffc\x01d\x00e\n\xe2\x82") // invalid byte, two controls, a cut-off sequence at the end
	got, problems, err := decode(t, in, false)
	require.NoError(t, err)
	assert.Equal(t, "line one\nab\uFFFDc d e\n\uFFFD\uFFFD", got) // each byte of the cut-off sequence
	require.Len(t, problems, 1)
	assert.ErrorIs(t, problems[0], textenc.ErrInvalidText)
	assert.Equal(t, 2, problems[0].Line)
	assert.Equal(t, 3, problems[0].Column)
	assert.Contains(t, problems[0].Error(), "3 invalid UTF-8 sequences replaced, 2 control characters replaced by spaces")
}

func TestInvalidBytesStrict(t *testing.T) {
	_, _, err := decode(t, []byte("ok\nok\n  \x01"), true)
	var p *textenc.Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, 3, p.Line)
	assert.Equal(t, 3, p.Column)
}

func TestMultibyteAcrossReads(t *testing.T) {
	in := []byte(strings.Repeat("ü✓𝄞", 5000))
	r := textenc.NewReader(iotest.OneByteReader(bytes.NewReader(in)), textenc.Options{Strict: true})
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, in, out)
}

// The position of the first problem counts characters, not bytes, and
// lines across reads.
func TestProblemPositionAfterText(t *testing.T) {
	in := []byte(strings.Repeat("ü✓ line\n", 3000) + "café \x01")
	_, _, err := decode(t, in, true)
	var p *textenc.Problem
	require.ErrorAs(t, err, &p)
	assert.Equal(t, 3001, p.Line)
	assert.Equal(t, 6, p.Column)
}

// Valid text with non-ASCII characters passes at the speed of one scan:
// it is returned in place, with one count of newlines per read.
func BenchmarkValidText(b *testing.B) {
	for name, line := range map[string]string{
		"unicode": "https://www.example.com/notes/caf%C3%A9/ü/✓/a-long-path-segment-here\n",
		"ascii":   "https://www.example.com/articles/2024/05/a-long-path-segment-here?id=12345\n",
	} {
		b.Run(name, func(b *testing.B) {
			in := []byte(strings.Repeat(line, 20000))
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				r := textenc.NewReader(bytes.NewReader(in), textenc.Options{})
				if _, err := io.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestUndeclaredLegacyBytesAreWindows1252: a document that declares no
// encoding and is not valid UTF-8 is read as windows-1252, byte by byte
// where it is not UTF-8, with one problem; one that declares UTF-8 (by a
// byte order mark or its XML declaration) keeps U+FFFD.
func TestUndeclaredLegacyBytesAreWindows1252(t *testing.T) {
	latin, err := charmap.Windows1252.NewEncoder().String("café “quoted” – naïve € ™")
	require.NoError(t, err)
	for _, tt := range []struct {
		name, in, want string
		legacy         bool
	}{
		{"no declaration", "<rss>\n" + latin + "</rss>", "<rss>\ncafé “quoted” – naïve € ™</rss>", true},
		{"declaration without encoding", `<?xml version="1.0"?><rss>` + latin + "</rss>", `<?xml version="1.0"?><rss>café “quoted” – naïve € ™</rss>`, true},
		{"text list", "https://a.example/caf\xe9\n", "https://a.example/café\n", true},
		{"UTF-8 kept, stray byte", "ü✓ \x93x\x94", "ü✓ “x”", true},
		{"undefined bytes are C1 controls", "a\x81\x8d\x8f\x90\x9d", "a\u0081\u008d\u008f\u0090\u009d", true},
		{"declared UTF-8", `<?xml version="1.0" encoding="UTF-8"?><rss>caf` + "\xe9</rss>", `<?xml version="1.0" encoding="UTF-8"?><rss>caf` + "\uFFFD</rss>", false},
		{"byte order mark", "\xEF\xBB\xBFcaf\xe9", "caf\uFFFD", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, problems, err := decode(t, []byte(tt.in), false)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			require.Len(t, problems, 1)
			if tt.legacy {
				assert.ErrorIs(t, problems[0], textenc.ErrUndeclaredLegacy)
				assert.Contains(t, problems[0].Error(), "read as windows-1252")
			} else {
				assert.ErrorIs(t, problems[0], textenc.ErrInvalidText)
			}
			_, _, err = decode(t, []byte(tt.in), true)
			assert.Error(t, err, "strict")
		})
	}
	// Every byte maps as the WHATWG index does: x/text's table where it
	// defines the byte, the C1 control of the same number where it does not.
	for b := 0x80; b < 0x100; b++ {
		got, _, _ := decode(t, []byte{'a', byte(b), 'a'}, false)
		r, _ := utf8.DecodeRuneInString(got[1:])
		want := charmap.Windows1252.DecodeByte(byte(b))
		if want == utf8.RuneError {
			want = rune(b)
		}
		assert.Equal(t, want, r, "byte 0x%02X", b)
	}
}
