package robots_test

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
)

func read(t *testing.T, r io.Reader, base string) ([]formats.Entry, []string) {
	t.Helper()
	var warnings []string
	opts := formats.ReadOptions{Source: "robots.txt", Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}
	if base != "" {
		opts.Base, _ = url.Parse(base)
	}
	rd, f, err := formats.Open(r, formats.OpenOptions{ReadOptions: opts})
	require.NoError(t, err)
	require.Equal(t, robots.Format, f)
	var got []formats.Entry
	for e, err := range formats.All(rd) {
		require.NoError(t, err)
		got = append(got, e)
	}
	return got, warnings
}

func locs(es []formats.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Loc)
	}
	return out
}

func TestCorpus(t *testing.T) {
	for name, want := range map[string][]string{
		"crawlercommons__sitemap-robots.txt":          {"http://domain.com/sitemap.xml", "http://domain.com/dir/MixedCased-sitemap.xml"},
		"crawlercommons__robots-with-utf8-bom.txt":    {"http://www.newsweek.com/sitemap_index.xml"},
		"crawlercommons__relative-sitemap-robots.txt": {"https://example.com/sitemap.xml"},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(corpus.Dir(t), name))
			require.NoError(t, err)
			defer f.Close()
			got, _ := read(t, f, "https://example.com/robots.txt")
			assert.Equal(t, want, locs(got))
			for _, e := range got {
				assert.Equal(t, formats.KindSitemap, e.Kind)
			}
		})
	}
}

func TestRules(t *testing.T) {
	in := "# comment\nUser-agent: *\nDisallow: /private\n\nSITEMAP : /a.xml\nsitemap:https://example.com/a.xml\n" +
		"User-agent: bot\nSitemap: https://other.example/b.xml # trailing comment\nSitemap: ftp://example.com/c.xml\n"
	got, warnings := read(t, strings.NewReader(in), "https://example.com/robots.txt")
	assert.Equal(t, []string{"https://example.com/a.xml", "https://other.example/b.xml"}, locs(got), "relative resolved, duplicate dropped")
	assert.Equal(t, []string{`robots.txt:9:1: not an http or https URL: "ftp://example.com/c.xml"`}, warnings)

	got, warnings = read(t, strings.NewReader("Sitemap: /a.xml\n"), "")
	assert.Empty(t, got)
	assert.Len(t, warnings, 1, "a relative sitemap with no base is skipped with a warning")
}

// TestReaderLineEndings reads the same robots.txt with LF, CRLF and CR-only
// line ends (RFC 9309 allows all three) and with a mix of them: the same
// sitemaps, and warnings at the same lines.
func TestReaderLineEndings(t *testing.T) {
	lines := []string{"# rules", "User-agent: *", "Disallow: /private", "Sitemap: https://example.com/a.xml", "Sitemap: ftp://example.com/c.xml", "", "Sitemap: https://example.com/b.xml"}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		got, warnings := read(t, strings.NewReader(strings.Join(lines, eol)+eol), "")
		assert.Equal(t, []string{"https://example.com/a.xml", "https://example.com/b.xml"}, locs(got), "ending %q", eol)
		assert.Equal(t, []string{`robots.txt:5:1: not an http or https URL: "ftp://example.com/c.xml"`}, warnings, "ending %q", eol)
	}
	got, warnings := read(t, strings.NewReader("User-agent: *\r\rSitemap: ftp://e/x\r\n\nSitemap: https://example.com/a.xml\n\rSitemap: https://example.com/b.xml"), "")
	assert.Equal(t, []string{"https://example.com/a.xml", "https://example.com/b.xml"}, locs(got))
	assert.Equal(t, []string{`robots.txt:3:1: not an http or https URL: "ftp://e/x"`}, warnings)
}

// TestReaderLongLines skips an over-long line instead of failing the whole
// file: a long rule silently (it is not read anyway), a long Sitemap: line
// with a warning naming it.
func TestReaderLongLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		in := strings.Join([]string{"User-agent: *", "Disallow: /" + long, "Sitemap: https://example.com/a.xml", "Sitemap: https://example.com/" + long, "Sitemap: https://example.com/b.xml"}, eol)
		got, warnings := read(t, strings.NewReader(in), "")
		assert.Equal(t, []string{"https://example.com/a.xml", "https://example.com/b.xml"}, locs(got), "ending %q", eol)
		assert.Equal(t, []string{"robots.txt:4:1: Sitemap: line longer than 16 KiB skipped"}, warnings, "ending %q", eol)
	}
}

func FuzzReader(f *testing.F) {
	for _, name := range []string{"crawlercommons__sitemap-robots.txt", "crawlercommons__robots-with-utf8-bom.txt", "crawlercommons__relative-sitemap-robots.txt"} {
		b, err := os.ReadFile(filepath.Join(corpus.Dir(f), name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	base, _ := url.Parse("https://example.com/robots.txt")
	f.Fuzz(func(t *testing.T, in []byte) {
		r := robots.NewReader(strings.NewReader(string(in)), formats.ReadOptions{Source: "fuzz", Base: base})
		seen := map[string]bool{}
		for {
			e, err := r.Next()
			if err != nil {
				return
			}
			if e.Kind != formats.KindSitemap || !strings.HasPrefix(e.Loc, "http") {
				t.Fatalf("bad entry %+v", e)
			}
			if seen[e.Loc] {
				t.Fatalf("%q listed twice", e.Loc)
			}
			seen[e.Loc] = true
		}
	})
}
