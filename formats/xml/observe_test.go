package xml_test

import (
	encxml "encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// tracer is an Observer that writes down what it is given, with the
// entries and the error the reader returns, in one trace.
type tracer struct {
	trace []string
	depth int
}

func (t *tracer) add(format string, args ...any) {
	t.trace = append(t.trace, fmt.Sprintf(format, args...))
}

func (t *tracer) StartElement(name encxml.Name, attrs []encxml.Attr, line, col int) bool {
	t.depth++
	t.add("%d:%d <%s:%s %v>", line, col, name.Space, name.Local, attrs)
	return true
}

func (t *tracer) EndElement(name encxml.Name, line, col int) bool {
	t.depth--
	t.add("%d:%d </%s:%s>", line, col, name.Space, name.Local)
	return true
}

func (t *tracer) CharData(text []byte, line, col int) {
	// The fast path leaves out the white space outside entries, and
	// encoding/xml gives empty CDATA sections.
	if len(text) == 0 || t.depth <= 1 && strings.Trim(string(text), " \t\r\n") == "" {
		return
	}
	t.add("%d:%d %q", line, col, text)
}

func (t *tracer) ProcInst(target string, offset int64, line, col int) {
	t.add("%d:%d <?%s @%d>", line, col, target, offset)
}

func (t *tracer) Directive(text []byte, line, col int) { t.add("%d:%d <!%q>", line, col, text) }

func (t *tracer) End(err error, line, col int) { t.add("%d:%d end %v", line, col, err) }

// fieldTracer is a tracer that takes fields whole (xml.FieldObserver),
// writing them down as the three tokens they stand for.
type fieldTracer struct{ tracer }

func (t *fieldTracer) Field(name encxml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	t.StartElement(name, nil, line, col)
	t.CharData(text, textLine, textCol)
	return t.EndElement(name, endLine, endCol)
}

// traceObserved reads data with an observed reader and returns the trace.
func traceObserved(data []byte, src io.Reader, opts formats.ReadOptions, size int) []string {
	return traceObservedBy(&tracer{}, data, src, opts, size)
}

// observedTracer is a tracer, or a fieldTracer.
type observedTracer interface {
	xml.Observer
	add(format string, args ...any)
	lines() []string
}

func (t *tracer) lines() []string { return t.trace }

// traceObservedBy reads data with a reader observed by t and returns the
// trace.
func traceObservedBy(t observedTracer, data []byte, src io.Reader, opts formats.ReadOptions, size int) []string {
	r := xml.NewObservedReaderSize(src, opts, size, t)
	for n := 0; n <= len(data)+1; n++ {
		e, err := r.Next()
		if err != nil {
			t.add("Next: %v", err)
			break
		}
		t.add("entry %s", e.Loc)
	}
	return t.lines()
}

// checkObservedSame fails when the observer of a reader on the fast path
// is given anything different from what it is given on the general path,
// in lenient or strict mode, whatever the buffer size and the reads.
func checkObservedSame(t testing.TB, data []byte) {
	t.Helper()
	for _, opts := range []formats.ReadOptions{{Base: diffBase}, {Strict: true}} {
		want := traceObserved(data, strings.NewReader(string(data)), opts, 0)
		for _, v := range fastVariants {
			size := v.size
			if size == 0 {
				size = xml.FastBufSize
			}
			got := traceObserved(data, v.src(data), opts, size)
			if i := firstDifference(want, got); i >= 0 {
				t.Fatalf("%s, strict=%v: the paths differ on %q\nat token %d: general %q, fast %q", v.name, opts.Strict, data,
					i, at(want, i), at(got, i))
			}
			got = traceObservedBy(&fieldTracer{}, data, v.src(data), opts, size)
			if i := firstDifference(want, got); i >= 0 {
				t.Fatalf("%s, strict=%v: a FieldObserver is given otherwise on %q\nat token %d: general %q, fast %q", v.name, opts.Strict,
					data, i, at(want, i), at(got, i))
			}
		}
	}
}

// FuzzObservedPathsMatch checks that an observer is given the same tokens
// at the same positions whichever path reads which part of a document.
func FuzzObservedPathsMatch(f *testing.F) {
	addPathSeeds(f)
	for _, doc := range observedDocs {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkObservedSame(t, data)
	})
}

// observedDocs are documents whose tokens matter to an observer: what the
// reader itself skips or stops on.
var observedDocs = []string{
	urlset + `<url><loc>https://example.com/</loc></url>` + "\n<?xml version=\"1.0\"?></urlset>\n",
	" <?xml version=\"1.0\"?>" + urlset + `<url><loc>https://example.com/</loc></url></urlset>`,
	"<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n  xsi:schemaLocation=\"a\r\n b\">\n<url>\n <loc>https://example.com/</loc>\n</url>\n</urlset>\n",
	urlset + `<url><loc>https://example.com/</loc></url><url>bare text<loc>https://example.com/b</loc></url></urlset>`,
	urlset + `<url><loc>https://example.com/</loc></url></urlset>trailing<other/>`,
	urlset + `<url><loc>https://example.com/</loc></urlset>`,
	urlset + `<url><loc>https://example.com/</loc></url>`,
	urlset + strings.Repeat("<a>", 80) + strings.Repeat("</a>", 80) + `</urlset>`,
	`<html><body><urlset/></body></html>`,
	urlset + `<url><loc>https://example.com/</loc><lastmod>2024-13-01</lastmod></url><url><loc>https://example.com/b</loc></url></urlset>`,
	// A field repeated, which a strict reader stops at.
	urlset + `<url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod><lastmod>2024-01-02</lastmod></url></urlset>`,
	urlset + `<url><loc>https://example.com/</loc><loc>https://example.com/b</loc><priority>0.5</priority></url></urlset>`,
	urlset + "<url><loc>https://example.com/a&amp;b</loc><changefreq>daily</changefreq><lastmod>2024-01-01</lastmod></url></urlset>",
	urlset + "<url><loc>https://example.com/a&b</loc><priority>2</priority></url></urlset>",
}

// TestObservedReaderStops checks that an observer that stops is given
// nothing more, and that the reader reads on alone.
func TestObservedReaderStops(t *testing.T) {
	doc := urlset + `<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`
	for _, size := range []int{0, xml.FastBufSize, -xml.FastBufSize} {
		o := &stopper{after: 3}
		var obs xml.Observer = o
		if size < 0 {
			size, obs = -size, &fieldStopper{o}
		}
		r := xml.NewObservedReaderSize(strings.NewReader(doc), formats.ReadOptions{}, size, obs)
		n := 0
		for {
			_, err := r.Next()
			if err != nil {
				if err != io.EOF {
					t.Fatal(err)
				}
				break
			}
			n++
		}
		if n != 2 || o.seen != 3 || o.ended {
			t.Errorf("size %d: %d entries, the observer saw %d tags, ended %v; want 2, 3, false", size, n, o.seen, o.ended)
		}
	}
}

// stopper stops observing after a number of tags.
type stopper struct {
	after, seen int
	ended       bool
}

func (s *stopper) StartElement(encxml.Name, []encxml.Attr, int, int) bool {
	s.seen++
	return s.seen < s.after
}
func (s *stopper) EndElement(encxml.Name, int, int) bool {
	s.seen++
	return s.seen < s.after
}

// fieldStopper is a stopper that takes fields whole.
type fieldStopper struct{ *stopper }

func (s fieldStopper) Field(name encxml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	return s.StartElement(name, nil, line, col) && s.EndElement(name, endLine, endCol)
}

func (s *stopper) CharData([]byte, int, int)        {}
func (s *stopper) ProcInst(string, int64, int, int) {}
func (s *stopper) Directive([]byte, int, int)       {}
func (s *stopper) End(error, int, int)              { s.ended = true }

// firstDifference returns the index of the first string where a and b
// differ, or -1 when they are equal.
func firstDifference(a, b []string) int {
	for i := range max(len(a), len(b)) {
		if at(a, i) != at(b, i) {
			return i
		}
	}
	return -1
}

// at returns s[i], or "(none)" past its end.
func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}
