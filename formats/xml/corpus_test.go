package xml_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// xmlCorpus returns the corpus files holding XML sitemaps and indexes.
func xmlCorpus(t testing.TB) []corpus.File {
	return corpus.Load(t, "urlset", "sitemapindex", "gz-urlset")
}

// readCorpus reads a corpus file through formats.Open.
func readCorpus(t testing.TB, name string, opts formats.ReadOptions) (result, *formats.Format, error) {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus.Dir(t), name))
	require.NoError(t, err)
	defer f.Close()
	var res result
	opts.Source = name
	opts.Warn = func(pe *formats.ParseError) { res.warnings = append(res.warnings, pe) }
	r, format, err := formats.Open(f, formats.OpenOptions{ReadOptions: opts})
	if err != nil {
		return res, nil, err
	}
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
	return res, format, nil
}

func TestCorpus(t *testing.T) {
	for _, c := range xmlCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			res, format, openErr := readCorpus(t, c.Name, formats.ReadOptions{})
			if c.Valid == "no" {
				if openErr == nil {
					require.Error(t, res.err, "a broken document gives an error")
					var pe *formats.ParseError
					require.ErrorAs(t, res.err, &pe)
					assert.Equal(t, c.Name, pe.Source)
					assert.Positive(t, pe.Line)
				}
				assert.LessOrEqual(t, len(res.entries), 2)
				return
			}
			require.NoError(t, openErr)
			assert.Same(t, xml.Format, format)
			require.NoError(t, res.err)
			want := c.Count
			if c.Name == "crawlercommons__sitemap.index.xml" {
				want = 15 // bare URLs with no <loc>, taken leniently
			}
			require.GreaterOrEqual(t, want, 0, "the manifest gives no count")
			assert.Len(t, res.entries, want)
			wantKind := formats.KindURL
			if c.Kind == "sitemapindex" {
				wantKind = formats.KindSitemap
			}
			for _, e := range res.entries {
				assert.Equal(t, wantKind, e.Kind)
				assert.True(t, strings.HasPrefix(e.Loc, "http://") || strings.HasPrefix(e.Loc, "https://"), e.Loc)
			}
			for _, w := range res.warnings {
				assert.False(t, w.Skipped, "no entry of a good file is lost: %v", w)
			}
			if c.Valid == "yes" {
				for _, w := range res.warnings {
					msg := w.Error()
					// The schemas take an empty string where the
					// protocol requires a value (news:name).
					assert.True(t, strings.Contains(msg, "unknown element") || strings.HasSuffix(msg, "(required)"),
						"a valid file warns only about what is skipped on purpose: %s", msg)
				}
			}
		})
	}
}

// goldenFiles are the corpus files whose reader → writer output is kept in
// testdata/golden.
var goldenFiles = []string{
	"gopherparsesitemap__sitemap.xml",
	"gopherparsesitemap__sitemap-index.xml",
	"crawlercommons__sitemap.badns.xml",
	"crawlercommons__sitemap.ns.xml",
	"crawlercommons__sitemap.index.xml",
	"crawlercommons__xmlSitemap.gz",
	"sitemapjs__alltags.xml",
	"sitemapjs__alltags-index.cdata.xml",
	"sitemapjs__bad-tag-sitemap.xml",
	"laravelsitemap__SitemapTest__it_can_render_an_url_with_priority_0__1.xml",
	"laravelsitemap__SitemapIndexTest__it_can_render_an_empty_index__1.xml",
}

func TestGolden(t *testing.T) {
	for _, name := range goldenFiles {
		t.Run(name, func(t *testing.T) {
			res, _, err := readCorpus(t, name, formats.ReadOptions{})
			require.NoError(t, err)
			require.NoError(t, res.err)
			o := formats.WriteOptions{Index: strings.Contains(name, "ndex"), Uses: usesOf(res.entries)}
			got := writeAll(t, res.entries, o)

			golden.Check(t, filepath.Join("testdata", "golden", strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".xml")+".xml"), got)
			if len(res.entries) > 0 {
				conformance.ValidateXML(t, got) // the schemas want at least one entry
			}

			// The output reads back, strictly, as the same entries.
			back := readString(t, string(got), formats.ReadOptions{Strict: true})
			require.NoError(t, back.err)
			requireSameEntries(t, res.entries, back.entries)

			// And writing it again gives the same bytes.
			assert.Equal(t, got, writeAll(t, back.entries, o))
		})
	}
}

func TestCorpusStrict(t *testing.T) {
	// Strict reading fails on every file lenient reading had to warn about.
	for _, c := range xmlCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			lenient, _, openErr := readCorpus(t, c.Name, formats.ReadOptions{})
			strict, _, strictOpenErr := readCorpus(t, c.Name, formats.ReadOptions{Strict: true})
			if openErr != nil {
				require.Error(t, strictOpenErr)
				return
			}
			if strictOpenErr != nil {
				return // a warning of Open itself
			}
			if len(lenient.warnings) == 0 && lenient.err == nil {
				require.NoError(t, strict.err)
				assert.Equal(t, len(lenient.entries), len(strict.entries))
				for i, e := range strict.entries {
					assert.Equal(t, lenient.entries[i], e)
				}
				return
			}
			require.Error(t, strict.err)
			assert.LessOrEqual(t, len(strict.entries), len(lenient.entries))
			for i, e := range strict.entries {
				assert.Equal(t, lenient.entries[i], e)
			}
		})
	}
}

func TestGoldenFilesAreUsed(t *testing.T) {
	// Every golden file belongs to a test: none is left over.
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.xml"))
	require.NoError(t, err)
	want := map[string]bool{}
	for _, name := range goldenFiles {
		want[strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".xml")+".xml"] = true
	}
	for _, f := range files {
		assert.True(t, want[filepath.Base(f)], "stale golden file %s", f)
	}
}
