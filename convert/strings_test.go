package convert_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// keeper hides whether the Writer it wraps keeps nothing of its entries
// (formats.KeepsNothing): the run then never uses the memory of a text
// list's strings again.
type keeper struct{ formats.Writer }

// stringsLists returns two text lists of URLs of one site, with what a run
// does something about: repeats within and across them, URLs not in their
// normal form, lines that are not URLs, comments, URLs long enough to get
// memory of their own, other hosts, bytes to escape.
func stringsLists(n int) (a, b []byte) {
	var x, y bytes.Buffer
	for i := range n {
		fmt.Fprintf(&x, "https://www.example.com/shop/%d/item?a=%d&b=%d\n", i%(n/2), i%7, i%3)
		switch i % 10 {
		case 0:
			fmt.Fprintf(&x, "HTTPS://WWW.EXAMPLE.COM:443/shop/%d/./item?a=1&b=2\n", i%500)
		case 1:
			fmt.Fprintf(&x, "not a url %d\n", i)
		case 2:
			fmt.Fprintf(&x, "# comment %d\n\n", i)
		case 3:
			fmt.Fprintf(&x, "https://www.example.com/long/%d/%s\n", i, strings.Repeat("segment-", 40))
		case 4:
			fmt.Fprintf(&x, "https://other.example.org/page/%d\n", i)
		case 5:
			fmt.Fprintf(&x, "https://www.example.com/%%7Euser/%d\n", i%900)
		}
		fmt.Fprintf(&y, "https://www.example.com/shop/%d/item?a=%d&b=%d\n", (i*7919)%n, i%7, i%3)
		if i%13 == 0 {
			fmt.Fprintf(&y, "https://www.example.com/blog/%d\n", i)
		}
	}
	return x.Bytes(), y.Bytes()
}

// TestRunUsesStringsAgainSafely runs text lists, one local and one gzipped
// from a stream, to a split XML index with the memory of the URLs' strings
// used again (the output keeps nothing of its entries), and again with a
// writer that does not say so, which turns that off: the files written,
// the Drops and warnings the Observer kept (and reads only at the end)
// and the accounts are the same, deduped or not, normalized, filtered,
// cut short by a limit and deduped past a memory cap. The tests run with
// strblock.Check, which fills a block used again with garbage: a string
// used after its batch was said done with would differ.
func TestRunUsesStringsAgainSafely(t *testing.T) {
	dir := t.TempDir()
	a, b := stringsLists(20000)
	pathA := filepath.Join(dir, "a.txt")
	require.NoError(t, os.WriteFile(pathA, a, 0o644))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	base, err := url.Parse("https://www.example.com/maps/")
	require.NoError(t, err)

	type result struct {
		files    map[string]string
		drops    []convert.Drop
		warnings []*formats.ParseError
		stats    *convert.Stats
	}
	run := func(opts convert.Options, hide bool) (result, int64) {
		out := t.TempDir()
		var res result
		opts.TempDir = t.TempDir()
		opts.Observer = convert.Observe{
			Drop: func(d convert.Drop) { res.drops = append(res.drops, d) },
			Warn: func(pe *formats.ParseError) { res.warnings = append(res.warnings, pe) },
		}
		inA := input(pathA, a)
		inA.Path = pathA
		reused := strblock.Reused()
		stats, err := convert.Run([]convert.Input{inA, input("-", gz.Bytes())}, func(o formats.WriteOptions) (formats.Writer, error) {
			w, err := output.New(output.Options{Path: filepath.Join(out, "sitemap.xml"), Format: xml.Format, BaseURL: base, MaxURLs: 1000, Write: o})
			if hide {
				return keeper{w}, err
			}
			return w, err
		}, opts)
		require.NoError(t, err)
		reused = strblock.Reused() - reused
		res.stats = stats
		res.files = map[string]string{}
		entries, err := os.ReadDir(out)
		require.NoError(t, err)
		for _, e := range entries {
			body, err := os.ReadFile(filepath.Join(out, e.Name()))
			require.NoError(t, err)
			res.files[e.Name()] = string(body)
		}
		return res, reused
	}
	for _, c := range []struct {
		name string
		opts convert.Options
	}{
		{"deduped", convert.Options{}},
		{"duplicates kept", convert.Options{KeepDuplicates: true}},
		{"normalized, filtered", convert.Options{
			URLs:   convert.RewriteOptions{Normal: true},
			Filter: convert.FilterOptions{Hosts: []string{"www.example.com"}, Exclude: []string{"/blog/*"}},
		}},
		// What is read past the limit, and so dropped or warned of, is
		// as far as the reading got: only the files are compared.
		{"limited", convert.Options{Limit: 25000}},
		{"deduped past a memory cap", convert.Options{MaxMemory: 64 << 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, reusedOff := run(c.opts, true)
			got, reused := run(c.opts, false)
			assert.Zero(t, reusedOff, "memory used again though the writer does not say it keeps nothing")
			assert.Positive(t, reused, "the run never used the memory of its strings again")
			require.Greater(t, len(want.files), 20)
			assert.Equal(t, want.files, got.files)
			for _, d := range got.drops {
				assert.True(t, strings.HasPrefix(d.Loc, "http"), "a Drop's loc changed: %q", d.Loc)
			}
			if c.opts.Limit > 0 {
				return
			}
			// The filter's drops and the dedupe's are told on two
			// goroutines: in their order, each.
			sortDrops := func(ds []convert.Drop) []string {
				var s []string
				for _, d := range ds {
					s = append(s, fmt.Sprint(d))
				}
				slices.Sort(s)
				return s
			}
			assert.Equal(t, sortDrops(want.drops), sortDrops(got.drops))
			require.Equal(t, len(want.warnings), len(got.warnings))
			for i := range want.warnings {
				assert.Equal(t, want.warnings[i].Error(), got.warnings[i].Error())
			}
			assert.Equal(t, want.stats, got.stats)
			if !c.opts.KeepDuplicates {
				assert.Greater(t, got.stats.Duplicates, 4000)
			}
			assert.Greater(t, len(got.warnings), 1000)
		})
	}
}

// hoarder keeps every entry written, saying that it keeps nothing.
type hoarder struct {
	formats.Writer
	kept []formats.Entry
}

func (h *hoarder) Write(e formats.Entry) error {
	h.kept = append(h.kept, e)
	return h.Writer.Write(e)
}

func (h *hoarder) KeepsNothing() bool { return true }

// TestRunStringsUsedAgainShow checks that the check the tests run with
// (strblock.Check) shows a string used after its memory was used again: a
// writer that keeps its entries, saying it does not, finds the locs of
// those it kept changed.
func TestRunStringsUsedAgainShow(t *testing.T) {
	a, _ := stringsLists(20000)
	var out bytes.Buffer
	var h *hoarder
	_, err := convert.Run([]convert.Input{input("a.txt", a)}, func(o formats.WriteOptions) (formats.Writer, error) {
		h = &hoarder{Writer: xml.Format.NewWriter(&out, o)}
		return h, nil
	}, convert.Options{})
	require.NoError(t, err)
	written := map[string]bool{}
	for _, line := range strings.Split(out.String(), "\n") {
		if loc, ok := strings.CutPrefix(line, "<url><loc>"); ok {
			written[strings.ReplaceAll(strings.TrimSuffix(loc, "</loc></url>"), "&amp;", "&")] = true
		}
	}
	require.Len(t, written, len(h.kept))
	changed := 0
	for _, e := range h.kept {
		if !written[e.Loc] {
			changed++
		}
	}
	assert.Greater(t, changed, 1000, "of %d entries kept, %d changed", len(h.kept), changed)
}
