package xml_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
)

// writeAll writes entries with a new Writer and returns the document.
func writeAll(t testing.TB, entries []formats.Entry, opts formats.WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, opts)
	for _, e := range entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func mustLastMod(t testing.TB, s string) formats.LastMod {
	t.Helper()
	l, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return l
}

func mustPriority(t testing.TB, v float64) formats.Priority {
	t.Helper()
	p, ok := formats.NewPriority(v)
	require.True(t, ok)
	return p
}

func TestWriterURLSet(t *testing.T) {
	entries := []formats.Entry{
		{Loc: "https://example.com/", LastMod: mustLastMod(t, "2024-05-08"), ChangeFreq: formats.Daily, Priority: mustPriority(t, 1)},
		{Loc: "https://example.com/a?x=1&y=%3C'%22>", LastMod: mustLastMod(t, "2024-05-08T10:11:12.5+02:00"), Priority: mustPriority(t, 0)},
		{Loc: "https://example.com/b", LastMod: mustLastMod(t, "2024-05"), ChangeFreq: formats.Never},
		{Loc: "https://example.com/c", Priority: mustPriority(t, 0.75)},
		{Loc: "https://example.com/d", LastMod: mustLastMod(t, "2024-05-08T10:11+00:00")},
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/</loc><lastmod>2024-05-08</lastmod><changefreq>daily</changefreq><priority>1.0</priority></url>
<url><loc>https://example.com/a?x=1&amp;y=%3C&apos;%22&gt;</loc><lastmod>2024-05-08T10:11:12.5+02:00</lastmod><priority>0.0</priority></url>
<url><loc>https://example.com/b</loc><lastmod>2024-05-01</lastmod><changefreq>never</changefreq></url>
<url><loc>https://example.com/c</loc><priority>0.75</priority></url>
<url><loc>https://example.com/d</loc><lastmod>2024-05-08T10:11:00Z</lastmod></url>
</urlset>
`
	got := writeAll(t, entries, formats.WriteOptions{})
	assert.Equal(t, want, string(got))
	conformance.ValidateXML(t, got)
}

func TestWriterIndex(t *testing.T) {
	entries := []formats.Entry{
		{Kind: formats.KindSitemap, Loc: "https://example.com/s1.xml.gz", LastMod: mustLastMod(t, "2004-10-01T18:23:17+00:00")},
		// Page fields an index cannot hold are left out.
		{Kind: formats.KindSitemap, Loc: "https://example.com/s2.xml?a=1&b=2", ChangeFreq: formats.Daily, Priority: mustPriority(t, 0.5)},
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2004-10-01T18:23:17Z</lastmod></sitemap>
<sitemap><loc>https://example.com/s2.xml?a=1&amp;b=2</loc></sitemap>
</sitemapindex>
`
	got := writeAll(t, entries, formats.WriteOptions{Index: false})
	assert.Equal(t, want, string(got))
	conformance.ValidateXML(t, got)
}

// TestWriterEmpty checks the documents written for no entries. They are
// well-formed but not valid against the sitemaps.org schemas, which want at
// least one <url> or <sitemap>; search engines accept them, and an empty
// output says plainly that there was nothing to list.
func TestWriterEmpty(t *testing.T) {
	got := writeAll(t, nil, formats.WriteOptions{})
	assert.Equal(t, xml.URLSetHeader+xml.URLSetFooter, string(got))
	assert.Equal(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n", string(got))
	res := readString(t, string(got), formats.ReadOptions{Strict: true})
	require.NoError(t, res.err)
	assert.Empty(t, res.entries)

	got = writeAll(t, nil, formats.WriteOptions{Index: true})
	assert.Equal(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</sitemapindex>\n", string(got))
	res = readString(t, string(got), formats.ReadOptions{Strict: true})
	require.NoError(t, res.err)
	assert.Empty(t, res.entries)

	// Entries decide the kind, whatever opts.Index says.
	got = writeAll(t, []formats.Entry{{Loc: "https://example.com/"}}, formats.WriteOptions{Index: true})
	assert.True(t, strings.HasPrefix(string(got), xml.URLSetHeader))
}

func TestWriterMixedKinds(t *testing.T) {
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{})
	require.NoError(t, w.Write(formats.Entry{Loc: "https://example.com/"}))
	err := w.Write(formats.Entry{Kind: formats.KindSitemap, Loc: "https://example.com/s.xml"})
	require.ErrorIs(t, err, xml.ErrMixedKinds)
	assert.Contains(t, err.Error(), "cannot mix pages and child sitemaps in one sitemap")
	// The document stays whole.
	require.NoError(t, w.Write(formats.Entry{Loc: "https://example.com/a"}))
	require.NoError(t, w.Close())
	assert.NotContains(t, buf.String(), "s.xml")
	conformance.ValidateXML(t, buf.Bytes())

	w = xml.NewWriter(&buf, formats.WriteOptions{})
	require.NoError(t, w.Write(formats.Entry{Kind: formats.KindSitemap, Loc: "https://example.com/s.xml"}))
	require.ErrorIs(t, w.Write(formats.Entry{Loc: "https://example.com/"}), xml.ErrMixedKinds)
}

func TestWriterErrors(t *testing.T) {
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{})
	require.Error(t, w.Write(formats.Entry{}), "an entry needs a loc")
	require.NoError(t, w.Close())
	require.Error(t, w.Close(), "second Close")
	require.Error(t, w.Write(formats.Entry{Loc: "https://example.com/"}), "Write after Close")

	errDisk := errors.New("disk full")
	w = xml.NewWriter(failWriter{errDisk}, formats.WriteOptions{})
	big := formats.Entry{Loc: "https://example.com/" + strings.Repeat("a", 1000)}
	var err error
	for i := 0; i < 200 && err == nil; i++ {
		err = w.Write(big)
	}
	require.ErrorIs(t, err, errDisk)
	require.ErrorIs(t, w.Write(big), errDisk, "errors are sticky")
	require.ErrorIs(t, w.Close(), errDisk)
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// closeRecorder records whether Close was called on it.
type closeRecorder struct {
	bytes.Buffer
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func TestWriterLeavesUnderlyingWriterOpen(t *testing.T) {
	var c closeRecorder
	w := xml.NewWriter(&c, formats.WriteOptions{})
	require.NoError(t, w.Close())
	assert.False(t, c.closed)
	assert.NotEmpty(t, c.String())
}

// sizeEntries returns entries with every combination of fields, escapes
// and lastmod precisions.
func sizeEntries(t testing.TB, kind formats.Kind) []formats.Entry {
	lastmods := []string{"", "2024", "2024-05", "2024-05-08", "2024-05-08T10:11+02:00", "2024-05-08T10:11:12Z",
		"2024-05-08T10:11:12.123456789-07:30", "Wed, 08 May 2024 10:11:12 GMT"}
	locs := []string{"https://example.com/", "https://example.com/a?b=1&c=2&d='\"<>",
		"https://xn--bcher-kva.example/%C3%A9t%C3%A9#top", "https://example.com/" + strings.Repeat("&", 300)}
	var entries []formats.Entry
	for i, lm := range lastmods {
		for j, loc := range locs {
			for k, cf := range []formats.ChangeFreq{"", formats.Always, formats.Monthly} {
				for m := -1; m <= 1000; m += 97 {
					e := formats.Entry{Kind: kind, Loc: fmt.Sprintf("%s%d-%d-%d", loc, i, j, k), ChangeFreq: cf}
					if lm != "" {
						e.LastMod = mustLastMod(t, lm)
					}
					if m >= 0 {
						e.Priority = mustPriority(t, float64(m)/1000)
					}
					entries = append(entries, e)
				}
			}
		}
	}
	return entries
}

func TestEncoderIsWhatIsWritten(t *testing.T) {
	for _, kind := range []formats.Kind{formats.KindURL, formats.KindSitemap} {
		entries := sizeEntries(t, kind)
		doc := writeAll(t, entries, formats.WriteOptions{})
		o := formats.WriteOptions{Index: kind == formats.KindSitemap}
		enc := xml.NewEncoder(o)
		rendered := enc.AppendHeader(nil)
		for i := range entries {
			var err error
			rendered, err = enc.AppendEntry(rendered, &entries[i])
			require.NoError(t, err)
		}
		rendered = enc.AppendFooter(rendered)
		require.Equal(t, string(doc), string(rendered), "%s document", kind)

		empty := writeAll(t, nil, o)
		require.Equal(t, string(enc.AppendFooter(enc.AppendHeader(nil))), string(empty))
		for _, e := range entries[:200] {
			one := writeAll(t, []formats.Entry{e}, formats.WriteOptions{})
			b, err := enc.AppendEntry(nil, &e)
			require.NoError(t, err)
			require.Equal(t, len(one)-len(empty), len(b), "%+v", e)
		}
	}
	assert.Equal(t, xml.URLSetHeader, string(xml.NewEncoder(formats.WriteOptions{}).AppendHeader(nil)))
	assert.Equal(t, xml.IndexHeader, string(xml.NewEncoder(formats.WriteOptions{Index: true}).AppendHeader(nil)))
	assert.Equal(t, xml.URLSetFooter, string(xml.NewEncoder(formats.WriteOptions{}).AppendFooter(nil)))
	assert.Equal(t, xml.IndexFooter, string(xml.NewEncoder(formats.WriteOptions{Index: true}).AppendFooter(nil)))
}

func TestEncoderRefuses(t *testing.T) {
	enc := xml.NewEncoder(formats.WriteOptions{})
	b := []byte("kept")
	b, err := enc.AppendEntry(b, &formats.Entry{})
	require.Error(t, err, "an entry needs a loc")
	b, err = enc.AppendEntry(b, &formats.Entry{Kind: formats.KindSitemap, Loc: "https://example.com/s.xml"})
	require.ErrorIs(t, err, xml.ErrMixedKinds)
	assert.Equal(t, "kept", string(b), "nothing appended")
	_, err = xml.NewEncoder(formats.WriteOptions{Index: true}).AppendEntry(nil, &formats.Entry{Loc: "https://example.com/"})
	require.ErrorIs(t, err, xml.ErrMixedKinds)
}

func TestWriterPriorities(t *testing.T) {
	// Every priority the model holds is written as Priority.String does.
	var entries []formats.Entry
	for m := 0; m <= 1000; m++ {
		entries = append(entries, formats.Entry{Loc: fmt.Sprintf("https://example.com/%d", m), Priority: mustPriority(t, float64(m)/1000)})
	}
	doc := string(writeAll(t, entries, formats.WriteOptions{}))
	for _, e := range entries {
		require.Contains(t, doc, "<loc>"+e.Loc+"</loc><priority>"+e.Priority.String()+"</priority></url>\n")
	}
	conformance.ValidateXML(t, []byte(doc))
}

func TestWriterNoAllocations(t *testing.T) {
	e := formats.Entry{Loc: "https://example.com/a?b=1&c=2", LastMod: mustLastMod(t, "2024-05-08T10:11:12Z"),
		ChangeFreq: formats.Daily, Priority: mustPriority(t, 0.8)}
	w := xml.NewWriter(discard{}, formats.WriteOptions{})
	require.NoError(t, w.Write(e))
	allocs := testing.AllocsPerRun(1000, func() { _ = w.Write(e) })
	assert.Zero(t, allocs)
	enc := xml.NewEncoder(formats.WriteOptions{})
	buf, _ := enc.AppendEntry(nil, &e)
	assert.Zero(t, testing.AllocsPerRun(1000, func() { buf, _ = enc.AppendEntry(buf[:0], &e) }))
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestRoundTrip(t *testing.T) {
	for _, kind := range []formats.Kind{formats.KindURL, formats.KindSitemap} {
		entries := sizeEntries(t, kind)
		for i := range entries {
			// The model holds locs as ParseLoc returns them.
			loc, err := formats.ParseLoc(entries[i].Loc, nil)
			require.NoError(t, err)
			entries[i].Loc = loc
		}
		doc := writeAll(t, entries, formats.WriteOptions{})
		res := readString(t, string(doc), formats.ReadOptions{Strict: true})
		require.NoError(t, res.err)
		requireSameEntries(t, entries, res.entries)
		conformance.ValidateXML(t, doc)
	}
}

// requireSameEntries checks that got holds what want does, as far as an
// XML sitemap of want's kind can hold it.
func requireSameEntries(t testing.TB, want, got []formats.Entry) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		w, g := want[i], got[i]
		require.Equal(t, w.Loc, g.Loc, "entry %d", i)
		require.Equal(t, w.Kind, g.Kind, "entry %d", i)
		require.Equal(t, w.LastMod.String(), g.LastMod.String(), "entry %d", i)
		require.True(t, w.LastMod.Time().Equal(g.LastMod.Time()), "entry %d", i)
		if w.Kind == formats.KindSitemap {
			continue
		}
		require.Equal(t, w.ChangeFreq, g.ChangeFreq, "entry %d", i)
		require.Equal(t, w.Priority, g.Priority, "entry %d", i)
	}
}

func TestLastModPrecisionKept(t *testing.T) {
	// A date stays a date and a date-time a date-time through a round trip.
	when := time.Date(2024, 5, 8, 10, 11, 12, 0, time.UTC)
	entries := []formats.Entry{
		{Loc: "https://example.com/a", LastMod: formats.NewLastMod(when, formats.PrecisionDay)},
		{Loc: "https://example.com/b", LastMod: formats.NewLastMod(when, formats.PrecisionSecond)},
	}
	doc := string(writeAll(t, entries, formats.WriteOptions{}))
	assert.Contains(t, doc, "<lastmod>2024-05-08</lastmod>")
	assert.Contains(t, doc, "<lastmod>2024-05-08T10:11:12Z</lastmod>")
}
