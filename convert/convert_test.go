package convert_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
)

// sliceReader is a formats.Reader over entries.
type sliceReader struct{ entries []formats.Entry }

func (s *sliceReader) Next() (formats.Entry, error) {
	if len(s.entries) == 0 {
		return formats.Entry{}, io.EOF
	}
	e := s.entries[0]
	s.entries = s.entries[1:]
	return e, nil
}

func lm(s string) formats.LastMod {
	if s == "" {
		return formats.LastMod{}
	}
	l, err := formats.ParseLastMod(s)
	if err != nil {
		panic(err)
	}
	return l
}

func TestDedupe(t *testing.T) {
	weekly, daily := formats.Weekly, formats.Daily
	p8, _ := formats.NewPriority(0.8)
	news := &formats.News{PublicationName: "A", PublicationLanguage: "en", Title: "T"}
	tests := []struct {
		name   string
		in     []formats.Entry
		want   []formats.Entry
		merged int
	}{
		{"distinct kept in order",
			[]formats.Entry{{Loc: "https://a.example/2"}, {Loc: "https://a.example/1"}},
			[]formats.Entry{{Loc: "https://a.example/2"}, {Loc: "https://a.example/1"}}, 0},
		{"newest lastmod wins, at the first position",
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-01-01"), ChangeFreq: weekly}, {Loc: "https://a.example/2"}, {Loc: "https://a.example/1", LastMod: lm("2024-02-01"), ChangeFreq: daily}},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-02-01"), ChangeFreq: daily}, {Loc: "https://a.example/2"}}, 1},
		{"older later entry loses",
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-02-01")}, {Loc: "https://a.example/1", LastMod: lm("2024-01-01"), ChangeFreq: daily}},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-02-01")}}, 1},
		{"known beats unknown",
			[]formats.Entry{{Loc: "https://a.example/1", ChangeFreq: weekly}, {Loc: "https://a.example/1", LastMod: lm("2020-01-01")}},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2020-01-01")}}, 1},
		{"tie keeps the earlier",
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-01-01"), ChangeFreq: weekly}, {Loc: "https://a.example/1", LastMod: lm("2024-01-01T00:00:00Z"), ChangeFreq: daily}},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-01-01"), ChangeFreq: weekly}}, 1},
		{"same page by identity: default port and fragment",
			[]formats.Entry{{Loc: "https://a.example/1#top"}, {Loc: "https://a.example:443/1"}, {Loc: "https://a.example/1"}},
			[]formats.Entry{{Loc: "https://a.example/1#top"}}, 2},
		{"same page by identity: dot segments, escapes, empty path",
			[]formats.Entry{{Loc: "https://a.example"}, {Loc: "https://a.example/"}, {Loc: "https://a.example/x/../%7Euser"}, {Loc: "https://a.example/~user"}},
			[]formats.Entry{{Loc: "https://a.example"}, {Loc: "https://a.example/x/../%7Euser"}}, 2},
		{"http and https are different pages",
			[]formats.Entry{{Loc: "http://a.example/1"}, {Loc: "https://a.example/1"}},
			[]formats.Entry{{Loc: "http://a.example/1"}, {Loc: "https://a.example/1"}}, 0},
		{"the newest of three wins; its loc is written",
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-01-01")}, {Loc: "https://a.example:443/1", LastMod: lm("2024-03-01"), Priority: p8}, {Loc: "https://a.example/1#x", LastMod: lm("2024-02-01")}},
			[]formats.Entry{{Loc: "https://a.example:443/1", LastMod: lm("2024-03-01"), Priority: p8}}, 2},
		{"extension data is the union, the winner's first",
			[]formats.Entry{
				{Loc: "https://a.example/1", LastMod: lm("2024-01-01"), Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://a.example/a.jpg"}, {Loc: "https://a.example/b.jpg"}}, News: news}},
				{Loc: "https://a.example/1", LastMod: lm("2024-02-01"), Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://a.example/b.jpg"}, {Loc: "https://a.example/c.jpg"}}, Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://a.example/de/1"}}}},
			},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-02-01"), Ext: &formats.Extensions{
				Images:     []formats.Image{{Loc: "https://a.example/b.jpg"}, {Loc: "https://a.example/c.jpg"}, {Loc: "https://a.example/a.jpg"}},
				News:       news,
				Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://a.example/de/1"}}}}}, 1},
		{"extension data of a losing entry is kept",
			[]formats.Entry{
				{Loc: "https://a.example/1", LastMod: lm("2024-02-01")},
				{Loc: "https://a.example/1", Ext: &formats.Extensions{Videos: []formats.Video{{ContentLoc: "https://a.example/v.mp4", Title: "v"}}}},
			},
			[]formats.Entry{{Loc: "https://a.example/1", LastMod: lm("2024-02-01"), Ext: &formats.Extensions{Videos: []formats.Video{{ContentLoc: "https://a.example/v.mp4", Title: "v"}}}}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged := 0
			r := convert.Dedupe(&sliceReader{tt.in}, convert.DedupeOptions{}, convert.Observe{Drop: func(convert.Drop) { merged++ }})
			defer r.Close()
			var got []formats.Entry
			for e, err := range formats.All(r) {
				require.NoError(t, err)
				got = append(got, e)
			}
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.merged, merged)
		})
	}
}

func input(name string, content []byte) convert.Input {
	return convert.Input{Name: name, Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(content)), nil }}
}

// run converts inputs to a text sitemap and returns it with the stats and
// the warnings.
func run(t *testing.T, inputs []convert.Input, opts convert.Options) (string, *convert.Stats, []string, error) {
	t.Helper()
	var out bytes.Buffer
	var warnings []string
	opts.Observer = convert.Observe{Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}
	stats, err := convert.Run(inputs, func(formats.WriteOptions) (formats.Writer, error) {
		return text.NewWriter(&out), nil
	}, opts)
	if err != nil {
		assert.Zero(t, out.Len(), "nothing is written when the run fails")
	}
	return out.String(), stats, warnings, err
}

func TestRunMergesInputsInOrder(t *testing.T) {
	out, stats, warnings, err := run(t, []convert.Input{
		input("a.txt", []byte("https://a.example/1\nhttps://a.example/2\nnot a url\n")),
		input("b.txt", []byte("https://a.example/2\nhttps://a.example/3\n")),
	}, convert.Options{})
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/1\nhttps://a.example/2\nhttps://a.example/3\n", out)
	assert.Equal(t, []convert.InputStats{
		{Name: "a.txt", Format: "text", Read: 2, Skipped: 1, Warnings: 1},
		{Name: "b.txt", Format: "text", Read: 2, Duplicates: 1},
	}, stats.Inputs)
	assert.Equal(t, 1, stats.Duplicates)
	assert.Equal(t, 3, stats.Written)
	assert.Equal(t, 4, stats.Read())
	assert.Len(t, warnings, 1)

	out, stats, _, err = run(t, []convert.Input{
		input("a.txt", []byte("https://a.example/1\nhttps://a.example/1\n")),
	}, convert.Options{KeepDuplicates: true})
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/1\nhttps://a.example/1\n", out)
	assert.Zero(t, stats.Duplicates)
}

func TestRunUnusableInputFailsFirst(t *testing.T) {
	for name, content := range map[string]string{
		"page.html": "<!doctype html><html></html>",
		"empty.txt": "",
		"note.xml":  "<note/>",
	} {
		t.Run(name, func(t *testing.T) {
			_, _, _, err := run(t, []convert.Input{
				input("good.txt", []byte("https://a.example/1\n")),
				input(name, []byte(content)),
			}, convert.Options{})
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), name+": "), "the error names the input: %v", err)
		})
	}
	_, _, _, err := run(t, []convert.Input{{Name: "missing.txt", Open: func() (io.ReadCloser, error) { return nil, fmt.Errorf("open missing.txt: no such file") }}}, convert.Options{})
	assert.EqualError(t, err, "open missing.txt: no such file")
}

func TestRunDamagedInput(t *testing.T) {
	var list strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&list, "https://a.example/page/%d\n", i)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(list.String()))
	zw.Close()
	cut := buf.Bytes()[:buf.Len()*2/3]

	out, stats, warnings, err := run(t, []convert.Input{input("cut.txt.gz", cut), input("b.txt", []byte("https://b.example/\n"))}, convert.Options{})
	require.NoError(t, err, "lenient: entries before the damage are kept")
	kept := stats.Inputs[0].Read
	assert.Positive(t, kept)
	assert.Less(t, kept, 3000)
	assert.Equal(t, kept+1, strings.Count(out, "\n"))
	require.Len(t, warnings, 1)
	assert.Regexp(t, `^cut\.txt\.gz:\d+: corrupt gzip data: unexpected EOF; kept the \d+ entries read before it$`, warnings[0])

	_, _, _, err = run(t, []convert.Input{input("cut.txt.gz", cut)}, convert.Options{Read: convert.ReadOptions{Strict: true}})
	assert.ErrorContains(t, err, "corrupt gzip data: unexpected EOF", "strict: damage is an error")

	_, _, _, err = run(t, []convert.Input{input("cut.txt.gz", buf.Bytes()[:30])}, convert.Options{})
	assert.Error(t, err, "damage before any entry is an error")
}

func TestRunStrictWarning(t *testing.T) {
	_, _, _, err := run(t, []convert.Input{input("a.txt", []byte("https://a.example/1\nbad\n"))}, convert.Options{Read: convert.ReadOptions{Strict: true}})
	assert.EqualError(t, err, `a.txt:2:1: relative URL with no http(s) base to resolve it against: "bad"`)
}

func TestRunNoEntries(t *testing.T) {
	created := false
	newWriter := func(o formats.WriteOptions) (formats.Writer, error) {
		created = true
		return text.NewWriter(io.Discard), nil
	}
	stats, err := convert.Run([]convert.Input{input("robots.txt", []byte("User-agent: *\nDisallow:\n")), input("a.txt", []byte("# nothing yet\nhttps://\n"))}, newWriter, convert.Options{})
	assert.ErrorIs(t, err, convert.ErrNoEntries)
	assert.False(t, created, "no writer, so no output, when there is nothing to write")
	assert.Equal(t, 1, stats.Skipped())
}

func TestRunIndexEntries(t *testing.T) {
	var got []formats.WriteOptions
	newWriter := func(o formats.WriteOptions) (formats.Writer, error) {
		got = append(got, o)
		return text.NewWriter(io.Discard), nil
	}
	_, err := convert.Run([]convert.Input{input("robots.txt", []byte("Sitemap: https://a.example/s.xml\n"))}, newWriter, convert.Options{})
	require.NoError(t, err)
	assert.Equal(t, []formats.WriteOptions{{Index: true}}, got)
}
