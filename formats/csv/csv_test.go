package csv_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/csv"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/jsonl"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// result is what reading an input gave.
type result struct {
	format   *formats.Format
	entries  []formats.Entry
	warnings []*formats.ParseError
	err      error
}

// open reads b through formats.Open, as the command does.
func open(t testing.TB, name string, b []byte, strict bool) result {
	t.Helper()
	var res result
	opts := formats.ReadOptions{Source: name, Strict: strict,
		Warn: func(pe *formats.ParseError) { res.warnings = append(res.warnings, pe) }}
	r, f, err := formats.Open(bytes.NewReader(b), formats.OpenOptions{ReadOptions: opts})
	if err != nil {
		res.err = err
		return res
	}
	res.format = f
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.err = err
			break
		}
		res.entries = append(res.entries, e)
	}
	return res
}

// render is a result as its golden file holds it: the entries as JSON
// Lines, then the warnings and the error.
func render(res result) []byte {
	var b []byte
	enc := jsonl.NewEncoder(formats.WriteOptions{})
	for _, e := range res.entries {
		b, _ = enc.AppendEntry(b, &e)
	}
	for _, w := range res.warnings {
		b = fmt.Appendf(b, "warning: %v (skipped: %v)\n", w, w.Skipped)
	}
	if res.err != nil {
		b = fmt.Appendf(b, "error: %v\n", res.err)
	}
	return b
}

func fixtures(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "*.*sv"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestGolden reads every fixture, recognized by content, and compares the
// entries and warnings with its golden file.
func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			res := open(t, filepath.Base(path), b, false)
			require.Same(t, csv.Format, res.format, "%v", res.err)
			require.NoError(t, res.err)
			require.NotEmpty(t, res.entries)
			golden.Check(t, filepath.Join("testdata", "golden", filepath.Base(path)+".jsonl"), render(res))
		})
	}
}

// read reads a fixture.
func read(t *testing.T, name string, strict bool) result {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return open(t, name, b, strict)
}

func locs(entries []formats.Entry) []string {
	var l []string
	for _, e := range entries {
		l = append(l, e.Loc)
	}
	return l
}

func TestScreamingFrog(t *testing.T) {
	res := read(t, "screamingfrog_internal_all.csv", false)
	require.NoError(t, res.err)
	// The redirect, the image and the canonicalised page are not indexable
	// pages by the export's own columns: left out.
	assert.Equal(t, []string{"https://www.example.com/", "https://www.example.com/shoes/",
		"https://www.example.com/boots/?colour=red&size=42", "https://www.example.com/caf%C3%A9/men%C3%BC",
		"https://www.example.com/sale/"}, locs(res.entries))
	e := res.entries[0]
	assert.Equal(t, "2024-05-06T10:11:12Z", e.LastMod.String(), "Last Modified, an RFC 1123 date")
	assert.Equal(t, "Example Shop | Home", e.Title, "Title 1")
	assert.Equal(t, "Shoes, all sizes", res.entries[1].Title, "a quoted comma")
	assert.True(t, res.entries[2].LastMod.IsZero())
	assert.Equal(t, "2024-05-01", res.entries[3].LastMod.String())
	assert.Equal(t, "2024-05-05T22:00:00+02:00", res.entries[4].LastMod.String())
	assert.Empty(t, res.warnings, "rows that are not pages are no problem of the export")
	r := csv.NewReader(strings.NewReader("url,status code,indexability,content type\nhttps://a.example/,200,Indexable,text/html\n"+
		"https://a.example/x,404,,\nhttps://a.example/y,200,Non-Indexable,\nhttps://a.example/z.png,200,,image/png\n"), formats.ReadOptions{})
	n := 0
	for _, err := r.Next(); err == nil; _, err = r.Next() {
		n++
	}
	assert.Equal(t, 1, n)
	assert.Equal(t, 3, r.LeftOut())
}

func TestPageColumns(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"status", "url,status code\nhttps://a.example/ok,200\nhttps://a.example/gone,404\nhttps://a.example/moved,301\nhttps://a.example/empty,\n",
			[]string{"https://a.example/ok", "https://a.example/empty"}},
		{"indexability", "Address;Indexability\nhttps://a.example/a;Indexable\nhttps://a.example/b;non indexable\nhttps://a.example/c;Non-Indexable\n",
			[]string{"https://a.example/a"}},
		{"content type", "url\tContent-Type\nhttps://a.example/a\ttext/html\nhttps://a.example/b.pdf\tapplication/pdf\nhttps://a.example/c.css\ttext/css\nhttps://a.example/d\tapplication/xhtml+xml; charset=utf-8\n",
			[]string{"https://a.example/a", "https://a.example/b.pdf", "https://a.example/d"}},
		{"no such columns", "url,clicks\nhttps://a.example/a,3\n", []string{"https://a.example/a"}},
	} {
		res := open(t, c.name, []byte(c.doc), false)
		require.NoError(t, res.err, c.name)
		assert.Equal(t, c.want, locs(res.entries), c.name)
	}
	// Strict reading leaves them out too, without the warning.
	res := open(t, "strict", []byte("url,status code\nhttps://a.example/ok,200\nhttps://a.example/gone,404\n"), true)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://a.example/ok"}, locs(res.entries))
}

func TestSearchConsole(t *testing.T) {
	res := read(t, "search_console_pages.csv", true)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://www.example.com/", "https://www.example.com/shoes/",
		"https://www.example.com/blog/how-to-lace", "https://www.example.com/search?q=boots&page=2"}, locs(res.entries))
}

func TestEuropeanSemicolons(t *testing.T) {
	// The project reads no dd.mm.yyyy date: the field is dropped, said
	// with its line, and the row kept.
	res := read(t, "european_semicolon.csv", false)
	require.NoError(t, res.err)
	require.Len(t, res.entries, 3)
	assert.Equal(t, "Schuhe, alle Größen", res.entries[0].Title)
	assert.True(t, res.entries[0].LastMod.IsZero())
	assert.Equal(t, "2024-05-07", res.entries[1].LastMod.String())
	require.Len(t, res.warnings, 1)
	assert.Equal(t, 2, res.warnings[0].Line)
	assert.Contains(t, res.warnings[0].Error(), `european_semicolon.csv:2:31: column "Date" ignored`)
	assert.Contains(t, res.warnings[0].Error(), `"06.05.2024"`)
	assert.False(t, res.warnings[0].Skipped)
}

func TestTSV(t *testing.T) {
	res := read(t, "pages.tsv", true)
	require.NoError(t, res.err)
	require.Len(t, res.entries, 3)
	assert.Equal(t, formats.Daily, res.entries[0].ChangeFreq)
	assert.Equal(t, "1.0", res.entries[0].Priority.String())
	assert.Equal(t, formats.Monthly, res.entries[1].ChangeFreq)
	assert.Equal(t, formats.PrecisionMonth, res.entries[1].LastMod.Precision())
	assert.Equal(t, `About "us"`, res.entries[1].Title)
	assert.Equal(t, formats.PrecisionFraction, res.entries[2].LastMod.Precision())
}

func TestBOMAndCRLF(t *testing.T) {
	res := read(t, "bom_crlf.csv", true)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://example.net/a", "https://example.net/b", "https://example.net/c?x=1,2"}, locs(res.entries))
	assert.Equal(t, "2024-01-03T04:05:06Z", res.entries[1].LastMod.String())
}

func TestURLColumnByValue(t *testing.T) {
	res := read(t, "url_column_by_value.csv", true)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://example.com/", "https://example.com/docs/"}, locs(res.entries))
}

func TestBadRows(t *testing.T) {
	res := read(t, "bad_rows.csv", false)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://example.com/good", "https://example.com/bad-date", "https://example.com/bad-priority",
		"https://example.com/zoneless", "https://example.com/zoneless-2", "https://example.com/last"}, locs(res.entries))
	var got []string
	for _, w := range res.warnings {
		got = append(got, fmt.Sprintf("%d %v", w.Line, w.Skipped))
	}
	assert.Equal(t, []string{"3 true", "4 true", "5 false", "6 false", "7 true", "8 false"}, got)
	assert.Contains(t, res.warnings[0].Error(), "bad_rows.csv:3:1: row skipped: column \"url\": relative URL")
	assert.Contains(t, res.warnings[1].Error(), "bad_rows.csv:4:1: row skipped: no URL in column \"url\"")
	assert.Contains(t, res.warnings[4].Error(), "bad_rows.csv:7:")
	assert.Contains(t, res.warnings[4].Error(), `bare " in non-quoted-field`)
	assert.Contains(t, res.warnings[5].Error(), "only its date is kept")
	assert.Equal(t, "2024-05-07", res.entries[4].LastMod.String(), "zoneless dates keep their date, said once")

	// Strict reading stops at the first.
	strict := read(t, "bad_rows.csv", true)
	require.Error(t, strict.err)
	assert.Contains(t, strict.err.Error(), "bad_rows.csv:3:1:")
	assert.Len(t, strict.entries, 1)
}

func TestFrom(t *testing.T) {
	// --from csv reads a header it would not recognize.
	in := "Link;Anything\nhttps://a.example/x;1\n"
	r, f, err := formats.Open(strings.NewReader(in), formats.OpenOptions{From: "csv"})
	require.NoError(t, err)
	assert.Same(t, csv.Format, f)
	e, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/x", e.Loc)
	_, err = r.Next()
	assert.Equal(t, io.EOF, err)
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]string{
		"url,lastmod\nhttps://a.example/,2024-01-01\n":                    "csv",
		"\xef\xbb\xbf\"Address\",\"Status Code\"\n":                       "csv",
		"# export\n\nTop pages\tClicks\n":                                 "csv",
		"URL\nhttps://a.example/\n":                                       "csv",
		"Link,Title\nhttps://a.example/,A\n":                              "csv",
		"https://a.example/,2024-01-01\n":                                 "text",
		"https://a.example/\nhttps://b.example/\n":                        "text",
		"User-agent: *\nDisallow: /a,url\n":                               "robots",
		"Disallow: /url,title\n":                                          "robots",
		"Sitemap: https://a.example/s.xml\n":                              "robots",
		"Hello, world\n":                                                  "",
		"Page\n":                                                          "csv",
		"Dear reader, this page is about urls\n":                          "",
		"name,https://a.example/\n":                                       "",
		"url:https://a.example/,b\n":                                      "",
		`{"loc":"https://a.example/"}` + "\n":                             "jsonl",
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>": "xml",
	} {
		var names []string
		for _, f := range formats.Detect([]byte(in)) {
			names = append(names, f.Name)
		}
		assert.Equal(t, want, strings.Join(names, ","), "%q", in)
	}
}
