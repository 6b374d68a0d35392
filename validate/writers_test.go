package validate

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/normalize"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// siteBase is where the writer tests' sitemaps are served.
const siteBase = "https://example.com/site/"

// maxEntries caps the entries taken from the corpus (its big URL lists
// would only slow the tests down).
const maxEntries = 2000

// corpusEntries reads the pages of the readable corpus files and moves
// them under siteBase (https://example.com/site/<host><path>), once each,
// without lastmods in the future, up to maxEntries; a few get extension
// data, so that writers that carry it are checked on it too.
func corpusEntries(t *testing.T, now time.Time) []formats.Entry {
	t.Helper()
	var out []formats.Entry
	seen := map[string]bool{}
	for _, f := range corpus.Load(t) {
		if len(out) >= maxEntries {
			break
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := formats.Open(bytes.NewReader(data), formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: f.Name}})
		if err != nil {
			continue // not a readable source: its own tests cover it
		}
		for e, err := range formats.All(r) {
			if err != nil {
				break
			}
			if len(out) >= maxEntries {
				break
			}
			if e.Kind != formats.KindURL || e.LastMod.Time().After(now) {
				continue
			}
			u, err := url.Parse(e.Loc)
			if err != nil {
				continue
			}
			loc, err := formats.ParseLoc(siteBase+u.Host+u.EscapedPath(), nil)
			if err != nil || seen[normalize.Key(loc)] {
				continue
			}
			seen[normalize.Key(loc)] = true
			out = append(out, formats.Entry{Loc: loc, LastMod: e.LastMod, ChangeFreq: e.ChangeFreq, Priority: e.Priority, Title: e.Title, Summary: e.Summary})
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d corpus entries", len(out))
	}
	// Extension data on the first entries: an image, a video, a news
	// article, and hreflang alternates that list themselves and each other.
	day := formats.NewLastMod(now.Add(-time.Hour).Truncate(time.Second), formats.PrecisionSecond)
	a, b := out[0].Loc, out[1].Loc
	alts := []formats.Alternate{{Hreflang: "en", Href: a}, {Hreflang: "de", Href: b}}
	out[0].Ext = &formats.Extensions{Images: []formats.Image{{Loc: siteBase + "i.jpg"}}, Alternates: alts}
	out[1].Ext = &formats.Extensions{Alternates: alts, Videos: []formats.Video{{ThumbnailLoc: siteBase + "t.jpg",
		Title: "A video", Description: "What it shows", ContentLoc: siteBase + "v.mp4", Duration: 60}}}
	out[2].Ext = &formats.Extensions{News: &formats.News{PublicationName: "Example", PublicationLanguage: "en",
		PublicationDate: day, Title: "News"}}
	return out
}

// uses returns the extensions the entries use.
func uses(entries []formats.Entry) formats.ExtensionSet {
	var u formats.ExtensionSet
	for _, e := range entries {
		if e.Ext != nil {
			u |= e.Ext.Uses()
		}
	}
	return u
}

// TestWritersOutputValidates writes corpus-derived entries with every
// registered writer and checks that the validator finds nothing in what
// it wrote; XML output goes through xmllint too (internal/conformance).
func TestWritersOutputValidates(t *testing.T) {
	now := time.Now()
	entries := corpusEntries(t, now)
	site, _ := url.Parse(siteBase)
	for _, f := range formats.Formats() {
		if !f.CanWrite() {
			continue
		}
		name := f.Name
		t.Run(name, func(t *testing.T) {
			f, err := formats.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			w := f.NewWriter(&buf, formats.WriteOptions{Uses: uses(entries),
				Feed: formats.FeedInfo{Title: "Site", Link: siteBase, Description: "The site", ID: siteBase}})
			for _, e := range entries {
				if err := w.Write(e); err != nil {
					t.Fatalf("%s writer: %v", name, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			var got []Finding
			var docs []Document
			v := New(Options{Now: now, OnDocument: func(d Document) { docs = append(docs, d) }})
			if err := v.Check(bytes.NewReader(buf.Bytes()), Source{Name: name + " output", URL: site.JoinPath("out")}, func(f Finding) { got = append(got, f) }); err != nil {
				t.Fatal(err)
			}
			if len(got) > 0 {
				t.Errorf("%s writer output has findings:%s", name, describe(got))
			}
			if len(docs) != 1 || docs[0].URLs != len(entries) {
				t.Errorf("%s writer output: validated %+v, want one document of %d URLs", name, docs, len(entries))
			}
			if bytes.HasPrefix(bytes.TrimSpace(buf.Bytes()), []byte("<?xml")) && (docs[0].Format == "xml" || docs[0].Format == "index") {
				conformance.ValidateXML(t, buf.Bytes())
			}
		})
	}
}

// TestOutputSetValidates writes a split, gzipped sitemap set with package
// output and validates the index, which follows every part.
func TestOutputSetValidates(t *testing.T) {
	now := time.Now()
	entries := corpusEntries(t, now)
	dir := t.TempDir()
	xmlFormat, err := formats.Lookup("xml")
	if err != nil {
		t.Fatal(err)
	}
	site, _ := url.Parse(siteBase)
	set, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xmlFormat, Gzip: true,
		BaseURL: site, MaxURLs: 40, Write: formats.WriteOptions{Uses: uses(entries)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := set.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	files := set.Files()
	wantParts := (len(entries) + 39) / 40
	if len(files) != wantParts+1 {
		t.Fatalf("output wrote %d files, want %d parts and an index", len(files), wantParts)
	}
	index := filepath.Join(dir, "sitemap.xml.gz")
	var docs []Document
	got := checkFileDocs(t, index, siteBase, Options{Now: now}, &docs)
	if len(got) > 0 {
		t.Errorf("output set has findings:%s", describe(got))
	}
	urls, parts := 0, 0
	for _, d := range docs {
		switch {
		case d.Format == "index" && d.Source == index && d.Parent == "":
		case d.Format == "xml" && d.Parent == index && strings.HasPrefix(filepath.Base(d.Source), "sitemap-"):
			parts++
			urls += d.URLs
		default:
			t.Errorf("validated %+v, neither the index nor a part it lists", d)
		}
	}
	if parts != wantParts || urls != len(entries) {
		t.Errorf("validated %d parts with %d URLs, want %d parts with %d URLs", parts, urls, wantParts, len(entries))
	}
}
