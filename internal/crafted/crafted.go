// Package crafted generates hostile inputs of a given size for the readers'
// linear-time and bounded-memory tests and benchmarks, each beside an
// ordinary input of the same size, and measures a reader on them: its best
// time of a few runs and its peak heap.
package crafted

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Shape is the kind of document generated.
type Shape uint8

const (
	RSS    Shape = iota // an RSS 2.0 feed
	Atom                // an Atom 1.0 feed
	URLSet              // a sitemap
	Index               // a sitemap index
)

// Shapes are all the shapes, for loops.
var Shapes = []Shape{RSS, Atom, URLSet, Index}

func (s Shape) String() string {
	return [...]string{"rss", "atom", "urlset", "index"}[s]
}

// IsFeed reports whether s is a feed.
func (s Shape) IsFeed() bool { return s == RSS || s == Atom }

// Class is a kind of crafted input: Make returns one of about size bytes in
// shape s.
type Class struct {
	Name string
	Make func(s Shape, size int) []byte
}

// doc builds a document of about size bytes: the root start tag with
// rootAttrs, entries made by entry (given the entry's number) until the
// size is reached, and the root end tag.
func doc(s Shape, size int, rootAttrs string, entry func(i int) string) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	switch s {
	case RSS:
		b.WriteString(`<rss version="2.0"` + rootAttrs + `><channel><title>T</title><link>https://example.com/</link><description>D</description>` + "\n")
	case Atom:
		b.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom"` + rootAttrs + `><title>T</title><id>https://example.com/</id><updated>2024-01-02T03:04:05Z</updated><link href="https://example.com/"/>` + "\n")
	case URLSet:
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + rootAttrs + `>` + "\n")
	case Index:
		b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + rootAttrs + `>` + "\n")
	}
	end := [...]string{"</channel></rss>\n", "</feed>\n", "</urlset>\n", "</sitemapindex>\n"}[s]
	for i := 0; b.Len()+len(end) < size; i++ {
		b.WriteString(entry(i))
		b.WriteByte('\n')
	}
	b.WriteString(end)
	return []byte(b.String())
}

// Entry returns the i-th entry of shape s with inner inside it, after its
// loc, and entryAttrs on its start tag.
func Entry(s Shape, i int, entryAttrs, inner string) string {
	switch s {
	case RSS:
		return fmt.Sprintf(`<item%s><title>Post %d</title><link>https://example.com/p/%d</link><pubDate>Mon, 02 Jan 2006 15:04:05 +0000</pubDate>%s</item>`, entryAttrs, i, i, inner)
	case Atom:
		return fmt.Sprintf(`<entry%s><title>Post %d</title><link href="https://example.com/p/%d"/><id>https://example.com/p/%d</id><updated>2024-01-02T03:04:05Z</updated>%s</entry>`, entryAttrs, i, i, i, inner)
	case URLSet:
		return fmt.Sprintf(`<url%s><loc>https://example.com/p/%d</loc><lastmod>2024-01-02</lastmod>%s</url>`, entryAttrs, i, inner)
	}
	return fmt.Sprintf(`<sitemap%s><loc>https://example.com/s/%d.xml</loc><lastmod>2024-01-02</lastmod>%s</sitemap>`, entryAttrs, i, inner)
}

// repeat returns f(0) f(1)… until n bytes are written.
func repeat(n int, f func(i int) string) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(f(i))
	}
	return b.String()
}

// Ordinary is an ordinary document: plain entries.
var Ordinary = Class{"ordinary", func(s Shape, size int) []byte {
	return doc(s, size, "", func(i int) string { return Entry(s, i, "", "") })
}}

// Classes are the crafted inputs, each of which costs an unguarded reader
// more than linear time or memory.
var Classes = []Class{
	{"xmlns-on-root", func(s Shape, size int) []byte {
		// Namespace declarations on the root, in scope for every element
		// after them.
		decls := repeat(size/2, func(i int) string { return fmt.Sprintf(` xmlns:p%d="urn:x:%d"`, i, i) })
		return doc(s, size, decls, func(i int) string { return Entry(s, i, "", "") })
	}},
	{"xmlns-in-entry", func(s Shape, size int) []byte {
		// One entry declares many namespaces, then many elements inside it
		// use them.
		decls := repeat(size/3, func(i int) string { return fmt.Sprintf(` xmlns:p%d="urn:x:%d"`, i, i) })
		uses := repeat(size/3, func(i int) string { return fmt.Sprintf(`<p%d:x p%d:a=""/>`, i%1000, (i+1)%1000) })
		return doc(s, size, "", func(i int) string {
			if i == 0 {
				return Entry(s, i, decls, uses)
			}
			return Entry(s, i, "", "")
		})
	}},
	{"xmlns-on-every-element", func(s Shape, size int) []byte {
		// Every element redeclares namespaces.
		d := ` xmlns:a="urn:a" xmlns:b="urn:b" xmlns:c="urn:c"`
		return doc(s, size, "", func(i int) string { return Entry(s, i, d, `<a:x`+d+`/><b:y`+d+`/>`) })
	}},
	{"attributes-on-root", func(s Shape, size int) []byte {
		return doc(s, size, repeat(size/2, func(i int) string { return fmt.Sprintf(` a%d=""`, i) }), func(i int) string { return Entry(s, i, "", "") })
	}},
	{"attributes-on-entries", func(s Shape, size int) []byte {
		attrs := repeat(4000, func(i int) string { return fmt.Sprintf(` a%d=""`, i) })
		return doc(s, size, "", func(i int) string { return Entry(s, i, attrs, "") })
	}},
	{"attributes-on-one-element", func(s Shape, size int) []byte {
		// One element of the first entry holds half the document in
		// attributes.
		attrs := repeat(size/2, func(i int) string { return fmt.Sprintf(` a%d=""`, i) })
		return doc(s, size, "", func(i int) string {
			if i == 0 {
				return Entry(s, i, "", `<x`+attrs+`/>`)
			}
			return Entry(s, i, "", "")
		})
	}},
	{"attributes-on-extensions", func(s Shape, size int) []byte {
		attrs := repeat(4000, func(i int) string { return fmt.Sprintf(` a%d=""`, i) })
		return doc(s, size, ` xmlns:e="urn:e"`, func(i int) string { return Entry(s, i, "", `<e:x`+attrs+`/>`) })
	}},
	{"long-attribute-values", func(s Shape, size int) []byte {
		v := strings.Repeat("v", 60<<10)
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", `<x a="`+v+`"/>`) })
	}},
	{"tiny-elements-in-entries", func(s Shape, size int) []byte {
		kids := strings.Repeat("<x/>", 2000)
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", kids) })
	}},
	{"tiny-elements-in-one-entry", func(s Shape, size int) []byte {
		kids := strings.Repeat("<x/>", size/2/4)
		return doc(s, size, "", func(i int) string {
			if i == 0 {
				return Entry(s, i, "", kids)
			}
			return Entry(s, i, "", "")
		})
	}},
	{"deep-nesting", func(s Shape, size int) []byte {
		// Nested as deep as a feed may be, over and over.
		const depth = 5000
		n := strings.Repeat("<x>", depth) + strings.Repeat("</x>", depth)
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", n) })
	}},
	{"entities", func(s Shape, size int) []byte {
		t := `<x>` + strings.Repeat("&amp;&#38;&lt;", 1000) + `</x>`
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", t) })
	}},
	{"cdata-sections", func(s Shape, size int) []byte {
		t := `<x>` + strings.Repeat("<![CDATA[a]]>", 1000) + `</x>`
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", t) })
	}},
	{"comments-and-pis", func(s Shape, size int) []byte {
		t := strings.Repeat("<!--c--><?p i?>", 1000)
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", t) })
	}},
	{"long-element-names", func(s Shape, size int) []byte {
		n := strings.Repeat("n", 30<<10)
		return doc(s, size, "", func(i int) string { return Entry(s, i, "", "<"+n+"/>") })
	}},
	{"prefixed-elements", func(s Shape, size int) []byte {
		// Extension-like elements, which feed parsers keep in maps.
		kids := repeat(4000, func(i int) string { return fmt.Sprintf(`<e:x%d a="1" b="2">v</e:x%d>`, i%50, i%50) })
		return doc(s, size, ` xmlns:e="urn:e"`, func(i int) string { return Entry(s, i, "", kids) })
	}},
}

// Cost is what one run of a reader cost.
type Cost struct {
	Time time.Duration // the best of the runs
	Peak uint64        // the peak heap over the runs, in bytes, above the heap before
}

func (c Cost) String() string {
	return fmt.Sprintf("%v, peak heap %.1f MiB", c.Time.Round(time.Millisecond), float64(c.Peak)/(1<<20))
}

// Measure runs f runs times and returns its best time and its peak heap
// above the heap live before, sampled every 500 µs while it runs.
func Measure(runs int, f func()) Cost {
	var c Cost
	for range runs {
		runtime.GC()
		base := heapLive()
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			t := time.NewTicker(500 * time.Microsecond)
			defer t.Stop()
			for {
				if h := heapLive(); h > peak.Load() {
					peak.Store(h)
				}
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		}()
		start := time.Now()
		f()
		d := time.Since(start)
		if h := heapLive(); h > peak.Load() {
			peak.Store(h)
		}
		close(stop)
		<-done
		if c.Time == 0 || d < c.Time {
			c.Time = d
		}
		if p := peak.Load(); p > base && p-base > c.Peak {
			c.Peak = p - base
		}
	}
	return c
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// heapLive returns the bytes of the heap held by objects, live or not yet
// swept.
func heapLive() uint64 {
	s := make([]metrics.Sample, 1)
	s[0].Name = heapSample[0].Name
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Bounds is what Check holds a reader to on a crafted input, against an
// ordinary input of the same size and shape.
type Bounds struct {
	Time float64 // the most times the ordinary input's time
	Peak float64 // the most times the ordinary input's peak heap
	// Floor is a peak heap always accepted, in bytes, and Slack a time,
	// so that tiny figures do not make the ratios noise.
	Floor uint64
	Slack time.Duration
}

// Check reads the ordinary input and every crafted one of size bytes in
// each shape with read, and fails t when a crafted one costs more than b
// allows (see Compare). read returns an error only when reading could not
// be done at all (a refusal of the input is a result, not such an error).
func Check(t testing.TB, shapes []Shape, size int, b Bounds, read func(Shape, []byte) error) {
	t.Helper()
	for _, s := range shapes {
		inputs := make([]Input, len(Classes))
		for i, c := range Classes {
			inputs[i] = Input{s.String() + " " + c.Name, c.Make(s, size)}
		}
		Compare(t, Ordinary.Make(s, size), inputs, b, func(data []byte) error { return read(s, data) })
	}
}

// Input is a named crafted input.
type Input struct {
	Name string
	Data []byte
}

// Compare reads ordinary and every input with read, and fails t when an
// input costs more than b allows against ordinary, which should be of the
// same size. An input over the time bound is measured again, up to four
// times, each time just after the ordinary one, and passes when one of
// these pairs is within the bound, so that a loaded machine does not fail
// it: a reader that is not linear is over it every time.
func Compare(t testing.TB, ordinary []byte, inputs []Input, b Bounds, read func([]byte) error) {
	t.Helper()
	run := func(name string, data []byte, runs int) Cost {
		var err error
		c := Measure(runs, func() { err = read(data) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return c
	}
	ord := run("ordinary", ordinary, 3)
	for _, in := range inputs {
		got := run(in.Name, in.Data, 1)
		limit := time.Duration(b.Time*float64(ord.Time)) + b.Slack
		for try := 0; try < 4 && got.Time > limit; try++ {
			again := run("ordinary", ordinary, 1)
			got = run(in.Name, in.Data, 1)
			limit = time.Duration(b.Time*float64(again.Time)) + b.Slack
		}
		peak := max(uint64(b.Peak*float64(ord.Peak)), b.Floor)
		t.Logf("%s (%d bytes): %v; ordinary (%d bytes): %v", in.Name, len(in.Data), got, len(ordinary), ord)
		if got.Time > limit {
			t.Errorf("%s: %v, more than %v (%.0f times an ordinary input of the same size, measured just before)", in.Name, got.Time, limit, b.Time)
		}
		if got.Peak > peak {
			t.Errorf("%s: peak heap %.1f MiB, more than %.1f MiB (%.0f times the ordinary input's %.1f MiB)",
				in.Name, float64(got.Peak)/(1<<20), float64(peak)/(1<<20), b.Peak, float64(ord.Peak)/(1<<20))
		}
	}
}

// Bench runs read on the ordinary input and every crafted one of size
// bytes in each shape, as sub-benchmarks named shape/class.
func Bench(b *testing.B, shapes []Shape, size int, read func([]byte)) {
	for _, s := range shapes {
		for _, c := range append([]Class{Ordinary}, Classes...) {
			data := c.Make(s, size)
			b.Run(s.String()+"/"+c.Name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					read(data)
				}
			})
		}
	}
}
