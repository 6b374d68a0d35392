package feed_test

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// corpusFeeds returns the manifest rows of the corpus feeds.
func corpusFeeds(t testing.TB) []corpus.File {
	return corpus.Load(t, "rss", "rdf", "atom", "atom03", "json-feed")
}

// ambiguous gives the count our mapping implies for the corpus files whose
// manifest leaves it open.
var ambiguous = map[string]int{
	// 4 items, 3 with <link>; the 4th has only <guid isPermaLink="false">
	// holding an https URL. A guid that says it is not a permalink is not
	// the item's page, URL or not: 3.
	"crawlercommons__feed.rss": 3,
	// 4 items, 3 with <link>; the 4th has a <guid> without isPermaLink, so
	// a permalink by default, and an absolute http URL: 4.
	"rustrss__rss2sample.xml": 4,
	// 3 items, 2 with <link>; the 2nd has a <guid> permalink by default
	// (its atom:link rel="related" points at it but is not its page): 3.
	"rustrss__rss2_with_atom.xml": 3,
}

// openOptions are the options each corpus file is read with.
func openOptions(name string, warn func(*formats.ParseError)) formats.OpenOptions {
	o := formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: name, Warn: warn}}
	switch name {
	case "feedparser__http_item_link_base_docuri.xml":
		// Its relative link resolves only against the document's URL,
		// which feedparser's test served it from.
		o.Base, _ = url.Parse("http://127.0.0.1:8097/")
	}
	return o
}

// readCorpus opens a corpus file through formats.Open and reads it all.
func readCorpus(t testing.TB, name string, opts formats.OpenOptions) result {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus.Dir(t), name))
	require.NoError(t, err)
	defer f.Close()
	var warnings []*formats.ParseError
	warn := opts.Warn
	opts.Warn = func(pe *formats.ParseError) {
		warnings = append(warnings, pe)
		if warn != nil {
			warn(pe)
		}
	}
	r, format, err := formats.Open(f, opts)
	if err != nil {
		return result{err: err}
	}
	require.Equal(t, "feed", format.Name)
	res := readAll(t, r)
	res.warnings = warnings
	for _, e := range res.entries {
		assert.Regexp(t, `^https?://`, e.Loc)
	}
	return res
}

func TestCorpus(t *testing.T) {
	files := corpusFeeds(t)
	require.NotEmpty(t, files)
	for _, c := range files {
		t.Run(c.Name, func(t *testing.T) {
			res := readCorpus(t, c.Name, openOptions(c.Name, nil))
			want := c.Count
			if n, ok := ambiguous[c.Name]; ok {
				want = n
			}
			switch {
			case c.Valid == "no":
				require.Error(t, res.err, "%s: %s", c.Name, c.Note)
			case want < 0:
				t.Fatalf("no count for %s; add it to ambiguous", c.Name)
			default:
				if c.Valid == "lenient" && errors.Is(res.err, formats.ErrDamaged) {
					// Cut short: the entries before the cut are kept
					// (convert does so in lenient mode).
					res.err = nil
				}
				require.NoError(t, res.err, c.Note)
				assert.Len(t, res.entries, want, "%s\nlocs: %v", c.Note, res.locs())
			}
		})
	}
}

func TestCorpusDocumentURI(t *testing.T) {
	const name = "feedparser__http_item_link_base_docuri.xml"
	res := readCorpus(t, name, openOptions(name, nil))
	require.NoError(t, res.err)
	assert.Equal(t, []string{"http://127.0.0.1:8097/relative/uri"}, res.locs())

	// Read from a local file, with no base, the link cannot be resolved.
	res = readCorpus(t, name, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: name}})
	require.NoError(t, res.err)
	assert.Empty(t, res.entries)
	require.Len(t, res.warnings, 1)
	assert.True(t, res.warnings[0].Skipped)
	assert.Contains(t, res.warnings[0].Error(), "item 1 skipped: link: relative URL with no http(s) base")
}

func TestCorpusXMLBase(t *testing.T) {
	const name = "gofeed__rss_channel_item_xml_base.xml"
	res := readCorpus(t, name, openOptions(name, nil))
	require.NoError(t, res.err)
	assert.Equal(t, []string{"http://example.org/feeds/post/1"}, res.locs())
}

func TestCorpusTruncated(t *testing.T) {
	const name = "feedparser__rss_item_link_corrupted_ampersands.xml"
	res := readCorpus(t, name, openOptions(name, nil))
	assert.Equal(t, []string{"http://link/get?a=1&b=2"}, res.locs())
	require.ErrorIs(t, res.err, formats.ErrDamaged)
	assert.EqualError(t, res.err, name+":13:1: document cut short at the end, after 1 complete item")
	assert.Empty(t, res.warnings)
}

// goldenFeeds are the corpus feeds whose entries are kept as golden files.
var goldenFeeds = []string{
	"crawlercommons__atom.xml",
	"crawlercommons__feed.rss",
	"crawlercommons__xmlRss_pubDate.xml",
	"feedparser__example.json",
	"feedparser__rss2.0withAtomNS.xml",
	"feedparser__rss_item_link_corrupted_ampersands.xml",
	"rustrss__rss1.xml",
	"rustrss__rss2sample.xml",
	"rustrss__rss2_with_atom.xml",
	"gofeed__version_json_11.json",
	"simplepie__feed_rss-2.0_for_file_mock.xml",
	"scrapy__feed-sample2.xml",
}

// TestGolden compares the entries of some corpus feeds, as "loc<TAB>lastmod"
// lines with their titles, summaries and extensions (see describe),
// followed by "# warning:" lines and the "# damaged:" error that may
// end them, with testdata/golden/<name>.txt.
// Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	for _, name := range goldenFeeds {
		t.Run(name, func(t *testing.T) {
			res := readCorpus(t, name, openOptions(name, nil))
			var b strings.Builder
			for _, e := range res.entries {
				describe(&b, e)
			}
			for _, w := range res.warnings {
				fmt.Fprintf(&b, "# warning: %s\n", w)
			}
			if res.err != nil {
				require.ErrorIs(t, res.err, formats.ErrDamaged)
				fmt.Fprintf(&b, "# damaged: %s\n", res.err)
			}
			path := filepath.Join("testdata", "golden", strings.TrimSuffix(name, filepath.Ext(name))+".txt")
			golden.Check(t, path, []byte(b.String()))
		})
	}
}
