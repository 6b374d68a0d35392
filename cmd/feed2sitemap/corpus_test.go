package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
)

// corpusCounts are this project's counts where the manifest gives none
// (AMBIGUOUS) or where its count differs from ours, with the reason. Keep
// the list small and reviewed: every entry is a decision.
var corpusCounts = map[string]struct {
	count int
	why   string
}{
	"crawlercommons__feed.rss": {3, "AMBIGUOUS in the manifest: 3 items have <link>; the 4th has only a guid with isPermaLink=\"false\", " +
		"which PROTOCOL.md's mapping never uses as the page URL"},
	"rustrss__rss2sample.xml": {4, "AMBIGUOUS in the manifest: the 4th item has only a <guid> that is a permalink by default and an " +
		"absolute URL, which the mapping uses as loc"},
	"rustrss__rss2_with_atom.xml": {3, "AMBIGUOUS in the manifest: the item without <link> has a permalink <guid> that is an absolute URL"},
	"crawlercommons__sitemap.index.xml": {15, "AMBIGUOUS in the manifest: 15 <sitemap> elements hold the URL as bare text with no <loc>; " +
		"BAD-INPUTS.md says lenient readers accept them with a warning"},
	"feedparser__http_item_link_base_docuri.xml": {0, "its only item link is relative (/relative/uri) with no xml:base and no channel " +
		"link: it resolves only against the document's URL, which a local file does not have (remote inputs will give 1)"},
}

func TestCorpus(t *testing.T) {
	files := corpus.Load(t)
	require.Len(t, files, 113)
	for _, c := range files {
		t.Run(c.Name, func(t *testing.T) {
			if c.Kind == "robots" {
				t.Skip("robots.txt inputs are covered with remote sources (following their Sitemap: lines)")
			}
			path := c.Path
			out, errOut, status := runCLI(t, nil, path, "--keep-duplicates", "--no-follow", "--to", "text")
			if c.Valid == "no" {
				assert.Equal(t, exitFail, status, "a clean error: %s", errOut)
				assert.Empty(t, out, "no output for an unusable input")
				assert.Regexp(t, `feed2sitemap: error: `+regexp.QuoteMeta(path)+`(:\d+)*: `, errOut, "the error names the file")
				assert.NotContains(t, errOut, "panic")
				return
			}
			got := strings.Count(out, "\n")
			if got == 0 {
				// Nothing to write is an error, and no output is made: an
				// empty sitemap is not valid against the schema.
				assert.Equal(t, exitFail, status, errOut)
				assert.Contains(t, errOut, "feed2sitemap: error: nothing to write: the inputs hold no entries")
			} else {
				require.Equal(t, exitOK, status, errOut)
			}
			want, known := corpusCounts[c.Name]
			switch {
			case known:
				assert.Equal(t, want.count, got, "known difference: %s", want.why)
				if c.Count >= 0 {
					assert.NotEqual(t, c.Count, want.count, "the manifest now agrees: remove the known difference")
				}
			case c.Count < 0:
				t.Fatalf("the manifest gives no count (%s): add the file to corpusCounts with the reason for our %d", c.Note, got)
			default:
				assert.Equal(t, c.Count, got, "URLs read (%s)", c.Note)
			}

			if got == 0 {
				return
			}
			// The same input as XML: the exact bytes are pinned by a golden
			// file, and the document validates against the schema: whole
			// when the input was a valid sitemap, and else all the writer
			// made itself (the foreign elements a source carried verbatim
			// left out).
			xmlOut, errOut, status := runCLI(t, nil, path, "--keep-duplicates", "--no-follow", "--to", "xml", "-q")
			require.Equal(t, exitOK, status, errOut)
			if validSitemap(t, path) {
				conformance.ValidateXML(t, []byte(xmlOut))
			} else {
				conformance.ValidateXML(t, withoutForeign(t, []byte(xmlOut)))
			}
			golden.Check(t, filepath.Join("..", "..", "testdata", "golden", "corpus", c.Name+".xml"), []byte(xmlOut))
		})
	}
}

// validSitemap reports whether the file at path (gzipped or not) is a
// sitemap or sitemap index that passes the official schemas, so that what
// is written of it must pass them too.
func validSitemap(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		if data, err = io.ReadAll(zr); err != nil {
			return false // damaged: no valid sitemap
		}
	}
	s := sniff.Of(data[:min(len(data), sniff.Len)])
	if s.Root != "urlset" && s.Root != "sitemapindex" {
		return false
	}
	return conformance.XMLProblem(t, data) == ""
}

// withoutForeign returns the sitemap doc without the foreign elements its
// entries carry verbatim (a PageMap, say): the official schemas reject the
// elements of namespaces they cannot check, which the source held already.
// Everything the writer made itself is still validated.
func withoutForeign(t *testing.T, doc []byte) []byte {
	t.Helper()
	r := xml.NewReader(bytes.NewReader(doc), formats.ReadOptions{Source: "output"})
	var entries []formats.Entry
	foreign := false
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		if e.Ext != nil && len(e.Ext.Foreign) > 0 {
			x := *e.Ext
			x.Foreign, foreign = nil, true
			e.Ext = &x
		}
		entries = append(entries, e)
	}
	if !foreign {
		return doc
	}
	var uses formats.ExtensionSet
	for _, e := range entries {
		uses |= e.Ext.Uses()
	}
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{Uses: uses})
	for _, e := range entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// runCLI runs the command line in-process and returns standard output,
// standard error and the exit status.
func runCLI(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var stdout, stderr bytes.Buffer
	status := run(args, &env{Stdin: stdin, Stdout: &stdout, Stderr: &stderr})
	return stdout.String(), stderr.String(), status
}

// runCLIAtTerminal is runCLI with standard error a terminal, where the
// summary of a run is printed even when all went well.
func runCLIAtTerminal(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	return runAt(t, []string{"stderr"}, stdin, args...)
}
