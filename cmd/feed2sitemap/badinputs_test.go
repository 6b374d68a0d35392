package main

// One test per row of the catalogue of bad inputs (BAD-INPUTS.md in the
// project's shared specification): each runs the command line on a minimal
// input built here, and checks the documented behaviour end to end: what is
// kept, what is said (file, line), the exit status, that nothing panics or
// hangs, and, for the big inputs, that memory stays bounded.
// TestEveryBadInputRowHasATest keeps the catalogue and the tests in step.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

const sitemapNS = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`

// urlset returns a sitemap of the given <url> bodies.
func urlset(urls ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<urlset " + sitemapNS + ">\n")
	for _, u := range urls {
		b.WriteString("<url>" + u + "</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// locs returns <loc> elements of the URLs.
func locs(urls ...string) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = "<loc>" + u + "</loc>"
	}
	return out
}

// badRun is the outcome of one command line run on a bad input.
type badRun struct {
	out, err string
	status   int
}

// lines returns the lines of standard output.
func (r badRun) lines() []string { return strings.Fields(r.out) }

// runBad runs the command line with input as the file named name (or
// standard input when name is "-") and the extra arguments, and fails the
// test when the run takes more than a few seconds: a hang, not a timing.
func runBad(t *testing.T, name string, input []byte, args ...string) badRun {
	t.Helper()
	var stdin io.Reader
	if name == "-" {
		stdin = bytes.NewReader(input)
		args = append([]string{"-"}, args...)
	} else {
		path := filepath.Join(t.TempDir(), name)
		require.NoError(t, os.WriteFile(path, input, 0o644))
		args = append([]string{path}, args...)
	}
	var r badRun
	within(t, 5*time.Second, func() { r.out, r.err, r.status = runCLI(t, stdin, args...) })
	return r
}

// within runs f and fails the test when it has not returned after d.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %s: the input made the reader hang", d)
	}
}

// peakHeap runs f and returns the most heap in use, sampled every
// millisecond, above what was in use before.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var (
		peak uint64
		mu   sync.Mutex
		stop = make(chan struct{})
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			mu.Lock()
			if m.HeapAlloc > base && m.HeapAlloc-base > peak {
				peak = m.HeapAlloc - base
			}
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak
}

func TestBadInputJunkBeforeDeclaration(t *testing.T) {
	doc := urlset(locs("https://a.example/1")...)
	for name, prefix := range map[string]string{
		"BOM":         "\uFEFF",
		"whitespace":  " \t\r\n\n\n",
		"comment":     "\n<!-- generated -->\n",
		"PHP warning": "<br />\n<b>Warning</b>: Undefined variable $x in /var/www/sitemap.php on line 3<br />\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", []byte(prefix+doc), "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/1"}, r.lines())
		})
	}
}

func TestBadInputUTF16AndUTF32WithBOM(t *testing.T) {
	doc := strings.Replace(urlset(locs("https://a.example/caf%C3%A9", "https://a.example/été")...), "UTF-8", "UTF-16", 1)
	u16 := utf16.Encode([]rune(doc))
	encodings := map[string][]byte{}
	for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
		b16 := order.AppendUint16(nil, 0xFEFF)
		for _, c := range u16 {
			b16 = order.AppendUint16(b16, c)
		}
		b32 := order.AppendUint32(nil, 0xFEFF)
		for _, c := range doc {
			b32 = order.AppendUint32(b32, uint32(c))
		}
		encodings["UTF-16 "+fmt.Sprint(order)] = b16
		encodings["UTF-32 "+fmt.Sprint(order)] = b32
	}
	for name, b := range encodings {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", b, "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/caf%C3%A9", "https://a.example/%C3%A9t%C3%A9"}, r.lines())
		})
	}
	// Feeds too: gofeed alone fails on UTF-16.
	for _, file := range []string{"feedparser__utf-16le-bom.xml", "feedparser__utf-32le-bom.xml", "simplepie__feed-utf16le.xml", "simplepie__feed-utf16be.xml"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("../../testdata/corpus", file))
			require.NoError(t, err)
			r := runBad(t, file, b, "--to", "text")
			assert.NotContains(t, r.err, "panic")
			if r.status != exitOK {
				// A feed with no item link has nothing to write; the
				// document itself must have been read.
				assert.Contains(t, r.err, "no entries", r.err)
			}
		})
	}
}

func TestBadInputDeclaredLegacyCharset(t *testing.T) {
	for name, c := range map[string]struct {
		enc  encoding.Encoding
		word string
	}{
		"ISO-8859-1":   {charmap.ISO8859_1, "café"},
		"windows-1251": {charmap.Windows1251, "новости"},
		"KOI8-R":       {charmap.KOI8R, "новости"},
		"Shift_JIS":    {japanese.ShiftJIS, "ニュース"},
	} {
		t.Run(name, func(t *testing.T) {
			doc := strings.Replace(urlset(locs("https://a.example/"+c.word)...), "UTF-8", name, 1)
			b, err := c.enc.NewEncoder().Bytes([]byte(doc))
			require.NoError(t, err)
			r := runBad(t, "sitemap.xml", b, "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			want, _ := runBad(t, "utf8.xml", []byte(urlset(locs("https://a.example/"+c.word)...)), "--to", "text"), 0
			assert.Equal(t, want.lines(), r.lines())
			assert.NotContains(t, r.err, "warning")
		})
	}
}

func TestBadInputInvalidBytes(t *testing.T) {
	for name, doc := range map[string]string{
		"undeclared Latin-1": urlset(locs("https://a.example/caf\xe9", "https://a.example/2")...),
		"invalid UTF-8":      urlset(locs("https://a.example/\xff\xfe", "https://a.example/2")...),
		"control character":  urlset(locs("https://a.example/a\x01b", "https://a.example/2")...),
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", []byte(doc), "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Contains(t, r.lines(), "https://a.example/2", "the good entry is kept")
			assert.Regexp(t, `warning: \S+sitemap.xml:3:\d+: `, r.err, "a warning with the position")

			r = runBad(t, "sitemap.xml", []byte(doc), "--to", "text", "--strict")
			assert.Equal(t, exitFail, r.status)
			assert.Regexp(t, `error: \S+sitemap.xml:3:\d+: `, r.err, "an error with the position")
			assert.Empty(t, r.out)
		})
	}
	t.Run("text sitemap", func(t *testing.T) {
		r := runBad(t, "urls.txt", []byte("https://a.example/caf\xe9\nhttps://a.example/2\n"), "--to", "text")
		require.Equal(t, exitOK, r.status, r.err)
		assert.Contains(t, r.lines(), "https://a.example/2")
		assert.Contains(t, r.err, "urls.txt:1:")
	})
}

func TestBadInputGzipFraming(t *testing.T) {
	doc := []byte(urlset(locs("https://a.example/1", "https://a.example/2")...))
	for name, c := range map[string]struct {
		file string
		b    []byte
	}{
		"gzip named .xml":       {"sitemap.xml", gzipped(doc)},
		"plain named .gz":       {"sitemap.xml.gz", doc},
		"gzip inside gzip":      {"sitemap.xml.gz", gzipped(gzipped(doc))},
		"gzip thrice, text":     {"urls.txt.gz", gzipped(gzipped(gzipped([]byte("https://a.example/1\nhttps://a.example/2\n"))))},
		"gzip from stdin (xml)": {"-", gzipped(doc)},
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, c.file, c.b, "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, r.lines())
		})
	}
}

func TestBadInputDamagedGzip(t *testing.T) {
	var urls []string
	for i := range 2000 {
		urls = append(urls, fmt.Sprintf("https://a.example/page/%d", i))
	}
	full := gzipped([]byte(urlset(locs(urls...)...)))
	badCRC := bytes.Clone(full)
	badCRC[len(badCRC)-8] ^= 0xff
	for name, b := range map[string][]byte{
		"bad CRC":          badCRC,
		"truncated":        full[:len(full)*2/3],
		"trailing garbage": append(bytes.Clone(full), "GARBAGE AFTER THE STREAM"...),
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml.gz", b, "--to", "text")
			require.Equal(t, exitOK, r.status, "lenient: the entries before the damage are kept\n%s", r.err)
			got := r.lines()
			require.NotEmpty(t, got)
			assert.Equal(t, urls[:len(got)], got)
			assert.Regexp(t, `warning: \S+sitemap.xml.gz:\d+:\d+: .*kept the \d+ entries read before it`, r.err)

			r = runBad(t, "sitemap.xml.gz", b, "--to", "text", "--strict")
			assert.Equal(t, exitFail, r.status)
			assert.Contains(t, r.err, "sitemap.xml.gz")
		})
	}
	// The corpus' damaged files, from another project's test suite.
	for _, file := range []string{"scrapy__truncated-crc-error.gz", "scrapy__unexpected-eof.gz"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("../../testdata/corpus", file))
			require.NoError(t, err)
			r := runBad(t, file, b, "--to", "text")
			assert.Contains(t, r.err, file)
			assert.NotContains(t, r.err, "panic")
		})
	}
}

func TestBadInputEmpty(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty file":      nil,
		"empty gzip":      gzipped(nil),
		"only whitespace": []byte(" \n\t\n"),
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", b)
			assert.Equal(t, exitFail, r.status)
			assert.Regexp(t, `error: \S+sitemap.xml: .*empty`, r.err)
			assert.Empty(t, r.out)
		})
	}
}

func TestBadInputHTMLPage(t *testing.T) {
	for name, doc := range map[string]string{
		"doctype":     "<!DOCTYPE html>\n<html><head><title>Not found</title></head><body>404</body></html>",
		"bare html":   "<html lang=en><body><a href=/sitemap.xml>sitemap</a></body></html>",
		"xhtml":       `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`,
		"upper case":  "\n\n<HTML><BODY>moved</BODY></HTML>",
		"via gzip":    "<!doctype html><html></html>",
		"after a BOM": "\uFEFF<!DOCTYPE html><html></html>",
	} {
		t.Run(name, func(t *testing.T) {
			b := []byte(doc)
			if name == "via gzip" {
				b = gzipped(b)
			}
			r := runBad(t, "sitemap.xml", b)
			assert.Equal(t, exitFail, r.status)
			assert.Contains(t, r.err, "sitemap.xml: formats: not a sitemap or feed (looks like HTML)")
		})
	}
}

func TestBadInputUnrelatedXMLOrJSON(t *testing.T) {
	for doc, want := range map[string]string{
		`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>`: "<svg>",
		`<project><modelVersion>4.0.0</modelVersion></project>`:          "<project>",
		`{"name": "package", "version": "1.0.0"}`:                        "JSON",
		`[1, 2, 3]`: "JSON",
	} {
		t.Run(want, func(t *testing.T) {
			r := runBad(t, "input", []byte(doc))
			assert.Equal(t, exitFail, r.status)
			assert.Contains(t, r.err, want)
			assert.Contains(t, r.err, "input: ")
		})
	}
}

func TestBadInputDoctypeAndEntities(t *testing.T) {
	laughs := `<!DOCTYPE urlset [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">` +
		`<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">` +
		`<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">` +
		`<!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>`
	for name, c := range map[string]struct {
		doctype, loc string
		entities     bool
	}{
		"internal entity": {`<!DOCTYPE urlset [<!ENTITY host "a.example">]>`, "https://&host;/1", true},
		"billion laughs":  {laughs, "https://a.example/&h;", true},
		"external entity": {`<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`, "https://a.example/&xxe;", true},
		"external DTD":    {`<!DOCTYPE urlset SYSTEM "http://127.0.0.1:1/evil.dtd">`, "https://a.example/1", false},
	} {
		t.Run(name, func(t *testing.T) {
			doc := `<?xml version="1.0"?>` + c.doctype + "\n<urlset " + sitemapNS + "><url><loc>" + c.loc +
				"</loc></url><url><loc>https://a.example/2</loc></url></urlset>"
			var r badRun
			peak := peakHeap(func() { r = runBad(t, "sitemap.xml", []byte(doc), "--to", "text") })
			require.Equal(t, exitOK, r.status, "lenient: the DOCTYPE is ignored\n%s", r.err)
			assert.Contains(t, r.lines(), "https://a.example/2")
			assert.NotContains(t, r.out, "root:", "no file was read")
			assert.NotContains(t, r.out, "lollol", "no entity was expanded")
			assert.Less(t, peak, uint64(64<<20), "no expansion in memory")
			if !c.entities {
				return // nothing declared, nothing fetched: nothing to refuse
			}
			r = runBad(t, "sitemap.xml", []byte(doc), "--to", "text", "--strict")
			assert.Equal(t, exitFail, r.status)
			assert.Regexp(t, `error: \S+sitemap.xml:1:\d+: `, r.err)
		})
	}
}

func TestBadInputUndeclaredEntityOrBareAmpersand(t *testing.T) {
	doc := urlset(locs("https://a.example/search?a=1&b=2", "https://a.example/x&nbsp;y", "https://a.example/&copy;2024")...)
	r := runBad(t, "sitemap.xml", []byte(doc), "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Equal(t, []string{"https://a.example/search?a=1&b=2", "https://a.example/x&nbsp;y", "https://a.example/&copy;2024"}, r.lines(),
		"kept literally, not cut at the &")
	assert.Equal(t, 3, strings.Count(r.err, "warning: "), r.err)
	assert.Contains(t, r.err, "sitemap.xml:3:")

	r = runBad(t, "sitemap.xml", []byte(doc), "--to", "text", "--strict")
	assert.Equal(t, exitFail, r.status)
	assert.Contains(t, r.err, "sitemap.xml:3:")
}

func TestBadInputPaddedAndEscapedValues(t *testing.T) {
	doc := urlset(
		"<loc><![CDATA[https://a.example/cdata?a=1&b=2]]></loc>",
		"<loc>https://a.example/escaped?a=1&amp;b=2&#38;c=&#x33;</loc>",
		"<loc>\n\t\thttps://a.example/newlines\n\t</loc>",
		"<loc>\u00a0https://a.example/nbsp\u00a0</loc>",
		"<loc>\u2003\u3000https://a.example/em-space\u200b</loc>",
		"<loc>\n<![CDATA[ https://a.example/both ]]>\n</loc><lastmod>\n 2024-05-06 \n</lastmod><changefreq> Daily </changefreq>",
	)
	r := runBad(t, "sitemap.xml", []byte(doc))
	require.Equal(t, exitOK, r.status, r.err)
	for _, want := range []string{
		"<loc>https://a.example/cdata?a=1&amp;b=2</loc>",
		"<loc>https://a.example/escaped?a=1&amp;b=2&amp;c=3</loc>",
		"<loc>https://a.example/newlines</loc>",
		"<loc>https://a.example/nbsp</loc>",
		"<loc>https://a.example/em-space</loc>",
		"<loc>https://a.example/both</loc><lastmod>2024-05-06</lastmod><changefreq>daily</changefreq>",
	} {
		assert.Contains(t, r.out, want)
	}
	assert.NotContains(t, r.err, "warning")
}

func TestBadInputNamespaces(t *testing.T) {
	body := "<url><loc>https://a.example/1</loc></url></urlset>"
	for name, root := range map[string]string{
		"wrong":   `<urlset xmlns="http://www.example.com/not-sitemaps">`,
		"old":     `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">`,
		"missing": `<urlset>`,
	} {
		t.Run(name, func(t *testing.T) {
			doc := []byte(root + body)
			r := runBad(t, "sitemap.xml", doc, "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/1"}, r.lines())

			r = runBad(t, "sitemap.xml", doc, "--to", "text", "--strict")
			assert.Equal(t, exitFail, r.status)
			assert.Contains(t, r.err, "sitemap.xml:1:")
		})
	}
	t.Run("bound to a prefix", func(t *testing.T) {
		doc := `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/1</sm:loc></sm:url></sm:urlset>`
		for _, strict := range []string{"--to=text", "--strict"} {
			r := runBad(t, "sitemap.xml", []byte(doc), "--to", "text", strict)
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/1"}, r.lines())
		}
	})
}

func TestBadInputTruncatedXML(t *testing.T) {
	doc := urlset(locs("https://a.example/1", "https://a.example/2", "https://a.example/3")...)
	cut := doc[:strings.Index(doc, "https://a.example/3")+10]
	r := runBad(t, "sitemap.xml", []byte(cut), "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, r.lines())
	assert.Regexp(t, `warning: \S+sitemap.xml:5:\d+: .*kept the 2 entries read before it`, r.err, "says where it stopped")

	noEnd := strings.TrimSuffix(doc, "</urlset>\n")
	r = runBad(t, "sitemap.xml", []byte(noEnd), "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Len(t, r.lines(), 3)
	assert.Contains(t, r.err, "sitemap.xml:")
}

// TestBadInputTruncatedAtEveryOffset cuts a small sitemap and a small feed
// at every byte: every run ends, without a panic, with either an error or
// a prefix of the entries of the whole document.
func TestBadInputTruncatedAtEveryOffset(t *testing.T) {
	sitemap := urlset(
		"<loc>https://a.example/1</loc><lastmod>2024-05-06</lastmod>",
		"<loc>https://a.example/2?a=1&amp;b=2</loc><priority>0.5</priority>",
		"<loc><![CDATA[https://a.example/3]]></loc>")
	feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://a.example/</link>` +
		`<item><title>One</title><link>https://a.example/1</link><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate></item>` +
		`<item><link>https://a.example/2</link></item></channel></rss>`
	for name, doc := range map[string]string{"sitemap": sitemap, "feed": feed} {
		t.Run(name, func(t *testing.T) {
			whole := runBad(t, "whole.xml", []byte(doc), "--to", "text")
			require.Equal(t, exitOK, whole.status, whole.err)
			for n := range len(doc) {
				r := runBad(t, "cut.xml", []byte(doc[:n]), "--to", "text")
				require.NotContains(t, r.err, "panic", "cut at %d", n)
				require.Contains(t, []int{exitOK, exitFail}, r.status, "cut at %d", n)
				got := r.lines()
				if r.status == exitOK {
					require.LessOrEqual(t, len(got), len(whole.lines()), "cut at %d", n)
					// The last entry may be cut inside its loc, and read
					// as a shorter URL; every other is whole.
					for i := range max(len(got)-1, 0) {
						require.Equal(t, whole.lines()[i], got[i], "cut at %d", n)
					}
				} else {
					require.Empty(t, r.out, "cut at %d", n)
				}
			}
		})
	}
}

func TestBadInputTwoRootsOrMixedEntries(t *testing.T) {
	u := "<url><loc>https://a.example/1</loc></url>"
	s := "<sitemap><loc>https://a.example/s.xml</loc></sitemap>"
	for name, c := range map[string]struct {
		doc, want, warning string
	}{
		"two root elements": {"<urlset " + sitemapNS + ">" + u + "</urlset><urlset " + sitemapNS + "><url><loc>https://a.example/2</loc></url></urlset>",
			"https://a.example/1", "content after the root element ignored"},
		"sitemap inside urlset": {"<urlset " + sitemapNS + ">" + u + s + "</urlset>",
			"https://a.example/1", "<sitemap> inside <urlset> skipped"},
		"url inside sitemapindex": {"<sitemapindex " + sitemapNS + ">" + s + u + "</sitemapindex>",
			"https://a.example/s.xml", "<url> inside <sitemapindex> skipped"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", []byte(c.doc), "--to", "text", "--no-follow")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{c.want}, r.lines(), "never merged")
			assert.Regexp(t, `warning: \S+sitemap.xml:1:\d+: `+regexp.QuoteMeta(c.warning), r.err)
		})
	}
}

func TestBadInputGluedOrRunTogetherURLs(t *testing.T) {
	for name, c := range map[string]struct{ doc, warning string }{
		"missing </url>": {"<urlset " + sitemapNS + "><url><loc>https://a.example/1</loc><url><loc>https://a.example/2</loc></url></urlset>",
			"<url> not closed before the next <url>"},
		"several URLs in one loc": {"<urlset " + sitemapNS + "><url><loc>https://a.example/1 https://a.example/3</loc></url><url><loc>https://a.example/2</loc></url></urlset>",
			"several URLs run together"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runBad(t, "sitemap.xml", []byte(c.doc), "--to", "text")
			require.Equal(t, exitOK, r.status, r.err)
			assert.Equal(t, []string{"https://a.example/2"}, r.lines(), "rejected, not turned into one bogus URL")
			assert.Contains(t, r.err, c.warning)
			assert.Contains(t, r.err, "1 invalid")
		})
	}
}

func TestBadInputIndexEntryWithoutLoc(t *testing.T) {
	doc := "<sitemapindex " + sitemapNS + ">\n<sitemap>https://a.example/s1.xml</sitemap>\n" +
		"<sitemap><loc>https://a.example/s2.xml</loc></sitemap>\n<sitemap>\n  https://a.example/s3.xml?a=1&amp;b=2\n</sitemap>\n</sitemapindex>"
	r := runBad(t, "index.xml", []byte(doc), "--to", "text", "--no-follow")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Equal(t, []string{"https://a.example/s1.xml", "https://a.example/s2.xml", "https://a.example/s3.xml?a=1&b=2"}, r.lines())
	assert.Equal(t, 2, strings.Count(r.err, "warning: "), r.err)
	assert.Contains(t, r.err, "index.xml:2:")
}

func TestBadInputHugeStructures(t *testing.T) {
	// A structure too deep or a text too long to hold stops the reader
	// with an error saying where, in bounded memory.
	t.Run("deep nesting", func(t *testing.T) {
		doc := "<urlset " + sitemapNS + "><url><loc>https://a.example/1</loc></url>" + strings.Repeat("<a>", 10_000) + strings.Repeat("</a>", 10_000) + "</urlset>"
		var r badRun
		peak := peakHeap(func() { r = runBad(t, "sitemap.xml", []byte(doc), "--to", "text") })
		assert.Equal(t, exitFail, r.status)
		assert.Regexp(t, `error: \S+sitemap.xml:1:\d+: elements nested more than 64 deep`, r.err)
		assert.Less(t, peak, uint64(32<<20))
	})
	t.Run("64 MiB text node", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "sitemap.xml")
		f, err := os.Create(path)
		require.NoError(t, err)
		_, err = io.Copy(f, io.MultiReader(
			strings.NewReader("<urlset "+sitemapNS+"><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/"),
			io.LimitReader(repeatByte('x'), 64<<20),
			strings.NewReader("</loc></url></urlset>")))
		require.NoError(t, err)
		require.NoError(t, f.Close())
		var errOut string
		var status int
		peak := peakHeap(func() {
			within(t, 5*time.Second, func() { _, errOut, status = runCLI(t, nil, path, "--to", "text") })
		})
		assert.Equal(t, exitFail, status)
		assert.Regexp(t, `error: \S+sitemap.xml:1:\d+: reading stopped after 1 entry: more than 4 MiB of text without markup`, errOut)
		assert.Less(t, peak, uint64(32<<20), "the text node is not held in memory")
	})
	t.Run("1 MiB line in a text sitemap", func(t *testing.T) {
		doc := "https://a.example/1\nhttps://a.example/" + strings.Repeat("x", 1<<20) + "\nhttps://a.example/2\n"
		var r badRun
		peak := peakHeap(func() { r = runBad(t, "urls.txt", []byte(doc), "--to", "text") })
		require.Equal(t, exitOK, r.status, r.err)
		assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, r.lines())
		assert.Contains(t, r.err, "urls.txt:2:1: line longer than 16 KiB skipped")
		assert.Less(t, peak, uint64(32<<20))
	})
}

// repeatByte is an endless stream of one byte.
type repeatByte byte

func (b repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestBadInputRelativeLinks(t *testing.T) {
	t.Run("sitemap without a base", func(t *testing.T) {
		r := runBad(t, "sitemap.xml", []byte(urlset(locs("/relative/page", "https://a.example/2")...)), "--to", "text")
		require.Equal(t, exitOK, r.status, r.err)
		assert.Equal(t, []string{"https://a.example/2"}, r.lines())
		assert.Regexp(t, `warning: \S+sitemap.xml:3:\d+: <loc> skipped: relative URL with no http\(s\) base`, r.err)
	})
	t.Run("feed with its own link", func(t *testing.T) {
		feed := `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://a.example/blog/</link>` +
			`<item><link>posts/1</link></item><item><link>/about</link></item></channel></rss>`
		r := runBad(t, "feed.rss", []byte(feed), "--to", "text")
		require.Equal(t, exitOK, r.status, r.err)
		assert.Equal(t, []string{"https://a.example/blog/posts/1", "https://a.example/about"}, r.lines())
	})
	t.Run("feed with xml:base", func(t *testing.T) {
		feed := `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://b.example/news/"><title>t</title><id>urn:x</id><updated>2024-05-06T00:00:00Z</updated>` +
			`<entry><title>e</title><id>urn:e</id><updated>2024-05-06T00:00:00Z</updated><link href="2024/item"/></entry></feed>`
		r := runBad(t, "feed.atom", []byte(feed), "--to", "text")
		require.Equal(t, exitOK, r.status, r.err)
		assert.Equal(t, []string{"https://b.example/news/2024/item"}, r.lines())
	})
}

func TestBadInputUnusableLocs(t *testing.T) {
	long := "https://a.example/" + strings.Repeat("a", 2048)
	doc := urlset(locs(long, "ftp://a.example/file", "javascript:alert(1)", "tag:a.example,2024:1", "", "https://a.example/good")...)
	r := runBad(t, "sitemap.xml", []byte(doc), "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Equal(t, []string{"https://a.example/good"}, r.lines())
	assert.Equal(t, 5, strings.Count(r.err, "warning: "), r.err)
	for line := 3; line <= 7; line++ {
		assert.Contains(t, r.err, fmt.Sprintf("sitemap.xml:%d:", line))
	}
}

func TestBadInputBadLastmod(t *testing.T) {
	for value, want := range map[string]string{
		"Mon, 06 May 2024 08:53:11 GMT": "2024-05-06T08:53:11Z", // RFC 1123 in a sitemap: unambiguous
		"2024-05-08T08:53:11":           "2024-05-08",           // no zone: the time is ambiguous, the date is kept (a warning)
		"2024-05-08 08:53:11 AM":        "",
		"24-05-08":                      "", // two-digit year
		"yesterday":                     "",
	} {
		t.Run(value, func(t *testing.T) {
			doc := urlset("<loc>https://a.example/1</loc><lastmod>" + value + "</lastmod>")
			r := runBad(t, "sitemap.xml", []byte(doc))
			require.Equal(t, exitOK, r.status, r.err)
			assert.Contains(t, r.out, "<loc>https://a.example/1</loc>", "the entry is kept")
			if want != "" {
				assert.Contains(t, r.out, "<lastmod>"+want+"</lastmod>")
				return
			}
			assert.NotContains(t, r.out, "<lastmod>")
			assert.Regexp(t, `warning: \S+sitemap.xml:3:\d+: .*lastmod`, r.err)
		})
	}
}

func TestBadInputFutureLastmod(t *testing.T) {
	future := time.Now().AddDate(1, 0, 0).UTC().Format("2006-01-02")
	doc := urlset("<loc>https://a.example/1</loc><lastmod>" + future + "</lastmod>")
	r := runBad(t, "sitemap.xml", []byte(doc))
	require.Equal(t, exitOK, r.status, r.err)
	assert.Contains(t, r.out, "<lastmod>"+future+"</lastmod>", "kept when reading")

	path := filepath.Join(t.TempDir(), "sitemap.xml")
	require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	out, errOut, status := runCLI(t, nil, "validate", path)
	assert.Equal(t, exitOK, status, "a warning: %s", errOut)
	assert.Contains(t, out, "[lastmod-future]", "flagged by validation")
}

func TestBadInputBadPriorityOrChangefreq(t *testing.T) {
	doc := urlset(
		"<loc>https://a.example/1</loc><priority>1.5</priority>",
		"<loc>https://a.example/2</loc><priority>-0.1</priority>",
		"<loc>https://a.example/3</loc><priority>high</priority>",
		"<loc>https://a.example/4</loc><priority>NaN</priority>",
		"<loc>https://a.example/5</loc><changefreq>sometimes</changefreq><priority>0.8</priority>",
	)
	r := runBad(t, "sitemap.xml", []byte(doc))
	require.Equal(t, exitOK, r.status, r.err)
	for i := 1; i <= 5; i++ {
		assert.Contains(t, r.out, fmt.Sprintf("<url><loc>https://a.example/%d</loc>", i), "one bad field never loses the entry")
	}
	assert.Equal(t, 1, strings.Count(r.out, "<priority>"), "only the good priority is kept")
	assert.Contains(t, r.out, "<priority>0.8</priority>")
	assert.NotContains(t, r.out, "<changefreq>")
	assert.Equal(t, 5, strings.Count(r.err, "warning: "), r.err)
}

func TestBadInputSameURLManyTimes(t *testing.T) {
	var urls []string
	for range 1000 {
		urls = append(urls, "https://a.example/same", "https://A.EXAMPLE:443/same")
	}
	urls = append(urls, "https://a.example/other")
	doc := []byte(urlset(locs(urls...)...))
	r := runBad(t, "sitemap.xml", doc, "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Equal(t, []string{"https://a.example/same", "https://a.example/other"}, r.lines())
	assert.Contains(t, r.err, "merged 1999 duplicates")

	r = runBad(t, "sitemap.xml", doc, "--to", "text", "--keep-duplicates")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Len(t, r.lines(), 2001)
}

func TestBadInputMoreThan50000Entries(t *testing.T) {
	var b strings.Builder
	for i := range 50_001 {
		fmt.Fprintf(&b, "https://a.example/%d\n", i)
	}
	dir := t.TempDir()
	r := runBad(t, "urls.txt", []byte(b.String()), "--to", "text", "-o", filepath.Join(dir, "out.txt"), "--base-url", "https://a.example/")
	require.Equal(t, exitOK, r.status, r.err)
	assert.NotContains(t, r.err, "more than 50000 entries", "split into parts: no news")
	index, err := os.ReadFile(filepath.Join(dir, "out.xml"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(index), "<sitemap>"), "everything is read, into two parts")

	r = runBad(t, "urls.txt", []byte(b.String()), "--to", "text")
	require.Equal(t, exitOK, r.status, r.err)
	assert.Regexp(t, `warning: \S+urls.txt: more than 50000 entries`, r.err, "one file: it matters")

	r = runBad(t, "urls.txt", []byte(b.String()), "--to", "text", "--strict")
	assert.Equal(t, exitFail, r.status)
	assert.Regexp(t, `error: \S+urls.txt: more than 50000 entries`, r.err)
}

// badInputTests maps each row of the catalogue, by its first cell, to the
// tests that cover it.
var badInputTests = map[string][]string{
	"UTF-8 BOM; whitespace, blank lines, comments or a stray PHP warning before `<?xml`": {"TestBadInputJunkBeforeDeclaration"},
	"UTF-16 / UTF-32 with a BOM": {"TestBadInputUTF16AndUTF32WithBOM"},
	"declared non-UTF-8 charset (ISO-8859-1, windows-1251, KOI8-R, Shift_JIS)":                       {"TestBadInputDeclaredLegacyCharset"},
	"undeclared non-UTF-8 bytes, invalid UTF-8, control characters":                                  {"TestBadInputInvalidBytes"},
	"gzip detected by magic bytes; `.gz` name on a plain file; gzip inside gzip":                     {"TestBadInputGzipFraming"},
	"corrupt gzip, truncated gzip (bad CRC, unexpected EOF), trailing garbage after the gzip stream": {"TestBadInputDamagedGzip"},
	"empty file, empty gzip":                        {"TestBadInputEmpty"},
	"HTML page served instead of a sitemap or feed": {"TestBadInputHTMLPage"},
	"unrelated XML or JSON":                         {"TestBadInputUnrelatedXMLOrJSON"},
	"DOCTYPE with internal entity declarations; billion-laughs expansion; external entity (XXE)":            {"TestBadInputDoctypeAndEntities"},
	"undeclared entity (`&nbsp;`, `&copy;`) or bare `&` in a URL (`?a=1&b=2`)":                              {"TestBadInputUndeclaredEntityOrBareAmpersand"},
	"CDATA sections, entity-escaped text, `<loc>` padded with newlines, tabs, NBSP or other Unicode spaces": {"TestBadInputPaddedAndEscapedValues"},
	"wrong, old or missing namespace; namespace bound to a prefix":                                          {"TestBadInputNamespaces"},
	"truncated XML (ends inside `<loc>` or without `</urlset>`)":                                            {"TestBadInputTruncatedXML", "TestBadInputTruncatedAtEveryOffset"},
	"two root elements; `<sitemap>` inside `<urlset>`; `<url>` inside `<sitemapindex>`":                     {"TestBadInputTwoRootsOrMixedEntries"},
	"missing `</url>` gluing URLs together; `<loc>` holding whitespace-separated URLs":                      {"TestBadInputGluedOrRunTogetherURLs"},
	"sitemap index entries with a bare URL and no `<loc>`":                                                  {"TestBadInputIndexEntryWithoutLoc"},
	"deep nesting (10,000+ levels), a single 64 MiB text node, a 1 MiB line in a text sitemap":              {"TestBadInputHugeStructures"},
	"relative `<loc>` or feed link":                                                                         {"TestBadInputRelativeLinks"},
	"`loc` over 2,048 characters, non-http(s) scheme (`ftp:`, `javascript:`, `tag:`), empty `loc`":          {"TestBadInputUnusableLocs"},
	"lastmod in the wrong format (RFC 822 in a sitemap, `2024-05-08 08:53:11 AM`, 2-digit year, no zone)":   {"TestBadInputBadLastmod"},
	"lastmod in the future": {"TestBadInputFutureLastmod"},
	"priority outside 0.0–1.0 or not a number, unknown changefreq": {"TestBadInputBadPriorityOrChangefreq"},
	"the same URL many times":              {"TestBadInputSameURLManyTimes"},
	"more than 50,000 entries in one file": {"TestBadInputMoreThan50000Entries"},
	// The remote and following rows, tested on loopback servers.
	"uncompressed body over 52,428,800 bytes (or the user's cap)":                               {"TestOpenMaxBytes", "TestOpenGzipBomb", "TestRemoteFailures", "TestMaxInputBytesDefaults"},
	"sitemap index that lists itself, A → B → A loops, redirects back to an ancestor":           {"TestFollowLoops", "TestRemoteLoopsAndDepth"},
	"index chains deeper than a few levels; an index listing 50,000 children":                   {"TestFollowDepth", "TestFollowMaxChildren", "TestRemoteLoopsAndDepth"},
	"a remote server that never answers, answers slowly, returns 5xx/429, or redirects forever": {"TestTimeout", "TestRetries", "TestRedirects", "TestRemoteFailures", "TestRemoteGzipAndRetries", "TestRemoteFailedChild"},
}

// TestEveryBadInputRowHasATest checks that every row of the catalogue of
// bad inputs names tests here, and that those tests exist.
func TestEveryBadInputRowHasATest(t *testing.T) {
	// The catalogue is shipped in testdata/spec; when the shared
	// specification is beside the checkout, the copy must be the same.
	spec, err := os.ReadFile("../../testdata/spec/BAD-INPUTS.md")
	require.NoError(t, err)
	if shared, err := os.ReadFile("../../../shared/spec/BAD-INPUTS.md"); err == nil {
		require.Equal(t, string(shared), string(spec), "testdata/spec/BAD-INPUTS.md differs from ../shared/spec/BAD-INPUTS.md: copy it again")
	}
	sources := testSources(t)
	row := regexp.MustCompile(`(?m)^\| (.+?) \| .+ \|$`)
	seen := 0
	for _, m := range row.FindAllStringSubmatch(string(spec), -1) {
		cell := strings.TrimSpace(m[1])
		if cell == "input" || strings.HasPrefix(cell, "---") {
			continue
		}
		seen++
		names, ok := badInputTests[cell]
		if !assert.True(t, ok, "no test named for the row %q", cell) {
			continue
		}
		for _, name := range names {
			assert.Contains(t, sources, "func "+name+"(", "the test %s of row %q does not exist", name, cell)
		}
	}
	assert.Equal(t, len(badInputTests), seen, "rows named here that the catalogue no longer has")
}

// testSources returns the text of every test file of the module.
func testSources(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, "_test.go") {
			src, err := os.ReadFile(path)
			b.Write(src)
			return err
		}
		return nil
	})
	require.NoError(t, err)
	return b.String()
}
