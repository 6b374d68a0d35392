package convert_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// web is a set of documents by URL, with redirects, standing for servers.
type web struct {
	docs      map[string]string
	redirects map[string]string
	delay     time.Duration // up to this long, at random, per open
	mu        sync.Mutex
	opened    []string
	inFlight  atomic.Int32
	maxFlight atomic.Int32
}

// located is the body of a remote document: it knows its final URL.
type located struct {
	io.Reader
	u *url.URL
}

func (l located) Close() error       { return nil }
func (l located) Location() *url.URL { return l.u }

func (w *web) input(loc string) convert.Input {
	return convert.Input{Name: loc, Open: func() (io.ReadCloser, error) {
		n := w.inFlight.Add(1)
		defer w.inFlight.Add(-1)
		for m := w.maxFlight.Load(); n > m && !w.maxFlight.CompareAndSwap(m, n); m = w.maxFlight.Load() {
		}
		if w.delay > 0 {
			time.Sleep(rand.N(w.delay))
		}
		w.mu.Lock()
		w.opened = append(w.opened, loc)
		w.mu.Unlock()
		final := loc
		for hops := 0; w.redirects[final] != ""; hops++ {
			if hops > 10 {
				return nil, fmt.Errorf("%s: too many redirects", loc)
			}
			final = w.redirects[final]
		}
		doc, ok := w.docs[final]
		if !ok {
			return nil, fmt.Errorf("%s: HTTP 404 Not Found", loc)
		}
		u, _ := url.Parse(final)
		return located{strings.NewReader(doc), u}, nil
	}}
}

func (w *web) openChild(_ context.Context, _ convert.Input, loc string) (convert.Input, error) {
	return w.input(loc), nil
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// follow runs inputs of w with following on and returns the locs written,
// the account and the warnings.
func follow(t *testing.T, w *web, opts convert.Options, inputs ...string) (string, *convert.Stats, []string, error) {
	t.Helper()
	var ins []convert.Input
	for _, in := range inputs {
		ins = append(ins, w.input(in))
	}
	var warnings []string
	opts.Follow.Enabled = true
	opts.Follow.OpenChild = w.openChild
	opts.Observer = convert.Observe{Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}
	var out bytes.Buffer
	stats, err := convert.Run(ins, func(o formats.WriteOptions) (formats.Writer, error) {
		assert.False(t, o.Index, "following writes pages, not an index")
		return text.NewWriter(&out), nil
	}, opts)
	return out.String(), stats, warnings, err
}

func TestFollowOrderIsDocumentOrder(t *testing.T) {
	// robots.txt → two indexes → twelve sitemaps, each fetched after a
	// random delay: the output is the same, in document order, every run.
	w := &web{docs: map[string]string{
		"https://a.example/robots.txt": "User-agent: *\nSitemap: /index-1.xml\nSitemap: https://a.example/index-2.xml\n",
	}, delay: 3 * time.Millisecond}
	var want strings.Builder
	for i := 1; i <= 2; i++ {
		var children []string
		for j := 1; j <= 6; j++ {
			child := fmt.Sprintf("https://a.example/s-%d-%d.txt", i, j)
			children = append(children, child)
			w.docs[child] = fmt.Sprintf("https://a.example/page/%d/%d/a\nhttps://a.example/page/%d/%d/b\n", i, j, i, j)
			want.WriteString(w.docs[child])
		}
		w.docs[fmt.Sprintf("https://a.example/index-%d.xml", i)] = index(children...)
	}
	for run := range 5 {
		out, stats, warnings, err := follow(t, w, convert.Options{Follow: convert.FollowOptions{Concurrency: 3}}, "https://a.example/robots.txt")
		require.NoError(t, err)
		assert.Empty(t, warnings)
		assert.Equal(t, want.String(), out, "run %d", run)
		require.Len(t, stats.Inputs, 1+2+12)
		assert.Equal(t, convert.InputStats{Name: "https://a.example/robots.txt", Format: "robots", Children: 2}, stats.Inputs[0])
		assert.Equal(t, convert.InputStats{Name: "https://a.example/index-1.xml", Format: "xml", Depth: 1, Parent: 0, Children: 6}, stats.Inputs[1])
		assert.Equal(t, convert.InputStats{Name: "https://a.example/s-1-1.txt", Format: "text", Depth: 2, Parent: 1, Read: 2}, stats.Inputs[2])
		assert.Equal(t, "https://a.example/index-2.xml", stats.Inputs[8].Name)
		assert.Equal(t, 8, stats.Inputs[14].Parent)
		assert.Equal(t, 24, stats.Read())
	}
	assert.LessOrEqual(t, int(w.maxFlight.Load()), 3, "at most Concurrency children open at once")
	assert.Greater(t, int(w.maxFlight.Load()), 1, "children are opened concurrently")
}

func TestFollowLoops(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/self.xml":  index("https://a.example/self.xml", "https://a.example/s.txt"),
		"https://a.example/a.xml":     index("https://a.example/b.xml"),
		"https://a.example/b.xml":     index("https://a.example/a.xml", "https://a.example/s.txt"),
		"https://a.example/up.xml":    index("https://a.example/r", "https://a.example/s.txt"),
		"https://a.example/twice.xml": index("https://a.example/s.txt", "https://a.example/s.txt"),
		"https://a.example/s.txt":     "https://a.example/page\n",
	}, redirects: map[string]string{"https://a.example/r": "https://a.example/up.xml"}}
	for name, tc := range map[string]struct {
		input   string
		warning string
	}{
		"an index that lists itself": {"https://a.example/self.xml",
			"https://a.example/self.xml: child sitemap https://a.example/self.xml skipped: it was read already"},
		"A → B → A": {"https://a.example/a.xml",
			"https://a.example/b.xml: child sitemap https://a.example/a.xml skipped: it was read already"},
		"a redirect back to an ancestor": {"https://a.example/up.xml",
			"https://a.example/up.xml: child sitemap https://a.example/r skipped: it leads to https://a.example/up.xml, which was read already"},
		"a child listed twice": {"https://a.example/twice.xml",
			"https://a.example/twice.xml: child sitemap https://a.example/s.txt skipped: it was read already"},
	} {
		t.Run(name, func(t *testing.T) {
			out, stats, warnings, err := follow(t, w, convert.Options{}, tc.input)
			require.NoError(t, err)
			assert.Equal(t, "https://a.example/page\n", out)
			assert.Equal(t, []string{tc.warning}, warnings)
			assert.Empty(t, stats.Failures())
		})
	}
}

func TestFollowDepth(t *testing.T) {
	w := &web{docs: map[string]string{"https://a.example/s.txt": "https://a.example/deep\n"}}
	// level-1.xml lists level-2.xml … level-6.xml lists the sitemap.
	for i := 1; i <= 6; i++ {
		w.docs[fmt.Sprintf("https://a.example/level-%d.xml", i)] = index(fmt.Sprintf("https://a.example/level-%d.xml", i+1))
	}
	w.docs["https://a.example/level-6.xml"] = index("https://a.example/s.txt")

	_, stats, warnings, err := follow(t, w, convert.Options{}, "https://a.example/level-1.xml")
	require.ErrorIs(t, err, convert.ErrNoEntries)
	assert.Equal(t, []string{"https://a.example/level-5.xml: child sitemap https://a.example/level-6.xml not followed: " +
		"it would be level 6, deeper than the limit of 5"}, warnings)
	assert.Len(t, stats.Inputs, 5)

	out, _, warnings, err := follow(t, w, convert.Options{Follow: convert.FollowOptions{MaxDepth: 7}}, "https://a.example/level-1.xml")
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, "https://a.example/deep\n", out)

	_, _, _, err = follow(t, w, convert.Options{Read: convert.ReadOptions{Strict: true}}, "https://a.example/level-1.xml")
	require.Error(t, err, "with Strict the warning is an error")
	assert.Contains(t, err.Error(), "not followed")
}

func TestFollowFailedChild(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/index.xml": index("https://a.example/1.txt", "https://a.example/missing.xml",
			"https://a.example/page.html", "https://a.example/2.txt"),
		"https://a.example/1.txt":     "https://a.example/one\n",
		"https://a.example/2.txt":     "https://a.example/two\n",
		"https://a.example/page.html": "<!DOCTYPE html><html><body>moved</body></html>",
	}}
	var out bytes.Buffer
	closed := false
	run := func(keepGoing bool) (*convert.Stats, error) {
		out.Reset()
		closed = false
		return convert.Run([]convert.Input{w.input("https://a.example/index.xml")}, func(o formats.WriteOptions) (formats.Writer, error) {
			return &closeSpy{text.NewWriter(&out), &closed}, nil
		}, convert.Options{Follow: convert.FollowOptions{Enabled: true, OpenChild: w.openChild, KeepGoing: keepGoing}})
	}
	stats, err := run(false)
	require.ErrorIs(t, err, convert.ErrInputsFailed)
	assert.Equal(t, "convert: inputs failed: 2 inputs could not be read, the first: https://a.example/missing.xml: HTTP 404 Not Found", err.Error())
	assert.False(t, closed, "the writer is not closed: all-or-nothing output is not committed")
	failures := stats.Failures()
	require.Len(t, failures, 2)
	assert.Equal(t, "https://a.example/missing.xml", failures[0].Name)
	assert.Equal(t, "https://a.example/page.html", failures[1].Name)
	assert.EqualError(t, failures[1].Err, "https://a.example/page.html: formats: not a sitemap or feed (looks like HTML)")
	assert.Equal(t, 2, stats.Read(), "the other children count")

	stats, err = run(true)
	require.ErrorIs(t, err, convert.ErrInputsFailed, "KeepGoing still reports the failure")
	assert.True(t, closed, "KeepGoing writes the output")
	assert.Equal(t, "https://a.example/one\nhttps://a.example/two\n", out.String())
	assert.Equal(t, 2, stats.Written)

	// Every child failing: the failure, not "no entries".
	w.docs["https://a.example/index.xml"] = index("https://a.example/missing.xml")
	_, err = run(false)
	require.ErrorIs(t, err, convert.ErrInputsFailed)

	// With Strict the first failure ends the run.
	_, _, _, err = follow(t, w, convert.Options{Read: convert.ReadOptions{Strict: true}}, "https://a.example/index.xml")
	require.Error(t, err)
	assert.NotErrorIs(t, err, convert.ErrInputsFailed)
	assert.EqualError(t, err, "https://a.example/missing.xml: HTTP 404 Not Found")
}

type closeSpy struct {
	formats.Writer
	closed *bool
}

func (c *closeSpy) Close() error {
	*c.closed = true
	return c.Writer.Close()
}

func TestFollowMaxChildren(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 50,000 children")
	}
	w := &web{docs: map[string]string{"https://a.example/s.txt": "https://a.example/page\n"}}
	locs := make([]string, convert.MaxChildren+7)
	for i := range locs {
		locs[i] = fmt.Sprintf("https://a.example/s-%d.txt", i)
		w.docs[locs[i]] = fmt.Sprintf("https://a.example/page-%d\n", i)
	}
	w.docs["https://a.example/index.xml"] = index(locs...)
	out, stats, warnings, err := follow(t, w, convert.Options{}, "https://a.example/index.xml")
	require.NoError(t, err)
	assert.Equal(t, convert.MaxChildren, strings.Count(out, "\n"))
	assert.Equal(t, []string{"https://a.example/index.xml: lists 50007 child sitemaps; the 7 after the first 50000 were not followed"}, warnings)
	assert.Equal(t, convert.MaxChildren+7, stats.Inputs[0].Children)
	assert.Len(t, w.opened, convert.MaxChildren+1, "never opened")
}

func TestMaxURLsTotal(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/index.xml": index("https://a.example/1.txt", "https://a.example/2.txt"),
		"https://a.example/1.txt":     "https://a.example/a\nhttps://a.example/b\n",
		"https://a.example/2.txt":     "https://a.example/c\nhttps://a.example/d\n",
	}}
	_, _, _, err := follow(t, w, convert.Options{Read: convert.ReadOptions{MaxURLsTotal: 4}}, "https://a.example/index.xml")
	require.NoError(t, err)
	_, _, _, err = follow(t, w, convert.Options{Read: convert.ReadOptions{MaxURLsTotal: 3}}, "https://a.example/index.xml")
	require.ErrorIs(t, err, convert.ErrTooManyURLs)
	assert.EqualError(t, err, "convert: too many entries: more than 3 read over all inputs (the cap on the total), at https://a.example/2.txt")
}

func TestFollowRelativeLocsResolveAgainstFinalURL(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/new/robots.txt": "Sitemap: sitemap.xml\nsitemap: ./sitemap.xml\nSITEMAP: https://a.example/new/sitemap.xml\n",
		"https://a.example/new/sitemap.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>page</loc></url><url><loc>/root</loc></url></urlset>`,
	}, redirects: map[string]string{"https://a.example/robots.txt": "https://a.example/new/robots.txt"}}
	out, stats, warnings, err := follow(t, w, convert.Options{}, "https://a.example/robots.txt")
	require.NoError(t, err)
	assert.Empty(t, warnings, "duplicate Sitemap: lines are listed once")
	assert.Equal(t, "https://a.example/new/page\nhttps://a.example/root\n", out)
	assert.Equal(t, 1, stats.Inputs[0].Children)
}

func TestFollowLocalIndex(t *testing.T) {
	// The corpus' index lists sitemap1.xml.gz … sitemap3.xml.gz on
	// www.example.com; beside it are the first two, made of corpus
	// sitemaps; the third is missing.
	dir := t.TempDir()
	copyFile := func(from, to string, gzipped bool) {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", from))
		require.NoError(t, err)
		if gzipped {
			data = gz(data)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, to), data, 0o644))
	}
	copyFile("gopherparsesitemap__sitemap-index.xml", "index.xml", false)
	copyFile("gopherparsesitemap__sitemap.xml", "sitemap1.xml.gz", true)
	copyFile("sitemapjs__alltags.xml", "sitemap2.xml.gz", true)
	index := filepath.Join(dir, "index.xml")
	in := convert.Input{Name: index, Path: index, Open: func() (io.ReadCloser, error) { return os.Open(index) }}
	var out bytes.Buffer
	stats, err := convert.Run([]convert.Input{in}, func(o formats.WriteOptions) (formats.Writer, error) {
		return text.NewWriter(&out), nil
	}, convert.Options{Follow: convert.FollowOptions{Enabled: true, KeepGoing: true}, KeepDuplicates: true})
	require.ErrorIs(t, err, convert.ErrInputsFailed)
	require.Len(t, stats.Inputs, 4)
	assert.Equal(t, filepath.Join(dir, "sitemap1.xml.gz"), stats.Inputs[1].Name)
	assert.Equal(t, filepath.Join(dir, "sitemap2.xml.gz"), stats.Inputs[2].Name)
	failed := stats.Failures()
	require.Len(t, failed, 1)
	assert.Equal(t, filepath.Join(dir, "sitemap3.xml.gz"), failed[0].Name)
	assert.ErrorIs(t, failed[0].Err, os.ErrNotExist)
	// The manifest's counts: 4 URLs in the Go parser's sitemap, 7 in
	// alltags.xml.
	assert.Equal(t, 4, stats.Inputs[1].Read)
	assert.Equal(t, 7, stats.Inputs[2].Read)
	assert.Equal(t, 11, strings.Count(out.String(), "\n"))

	_, err = convert.LocalChild(context.Background(), convert.Input{Name: "<stdin>"}, "https://a.example/s.xml")
	assert.EqualError(t, err, "https://a.example/s.xml: cannot open a child of <stdin>, which is not a local file")
	_, err = convert.LocalChild(context.Background(), in, "https://a.example/dir/")
	assert.EqualError(t, err, "https://a.example/dir/: names no file to look for beside "+index)
	c, err := convert.LocalChild(context.Background(), in, "https://a.example/dir/caf%C3%A9.xml")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "café.xml"), c.Path)
}

func TestNoFollowKeepsTheIndex(t *testing.T) {
	w := &web{docs: map[string]string{"https://a.example/index.xml": index("https://a.example/1.txt")}}
	var out bytes.Buffer
	stats, err := convert.Run([]convert.Input{w.input("https://a.example/index.xml")}, func(o formats.WriteOptions) (formats.Writer, error) {
		assert.True(t, o.Index)
		return text.NewWriter(&out), nil
	}, convert.Options{})
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/1.txt\n", out.String())
	assert.Equal(t, 1, stats.Inputs[0].Read)
	assert.Empty(t, w.opened[1:], "no child opened")
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// BenchmarkFollow measures what following costs per child: an index of
// 1,000 children of 10 URLs each, opened from memory four at a time.
func BenchmarkFollow(b *testing.B) {
	w := &web{docs: map[string]string{}}
	locs := make([]string, 1000)
	for i := range locs {
		locs[i] = fmt.Sprintf("https://a.example/s-%d.txt", i)
		var doc strings.Builder
		for j := range 10 {
			fmt.Fprintf(&doc, "https://a.example/page/%d/%d\n", i, j)
		}
		w.docs[locs[i]] = doc.String()
	}
	w.docs["https://a.example/index.xml"] = index(locs...)
	b.ReportAllocs()
	for b.Loop() {
		stats, err := convert.Run([]convert.Input{w.input("https://a.example/index.xml")}, func(o formats.WriteOptions) (formats.Writer, error) {
			return text.NewWriter(io.Discard), nil
		}, convert.Options{Follow: convert.FollowOptions{Enabled: true, OpenChild: w.openChild}, KeepDuplicates: true})
		if err != nil || stats.Written != 10000 {
			b.Fatal(err, stats.Written)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/child")
}

func TestFollowFromAppliesToTopLevelOnly(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/robots": "Sitemap: https://a.example/s.xml\n",
		"https://a.example/s.xml":  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/p</loc></url></urlset>`,
	}}
	out, stats, _, err := follow(t, w, convert.Options{Read: convert.ReadOptions{From: "robots"}}, "https://a.example/robots")
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/p\n", out)
	assert.Equal(t, "xml", stats.Inputs[1].Format)
}

func TestFollowDamagedChildFails(t *testing.T) {
	// A child cut short (an XML sitemap without its end) is a failed
	// child, not a warning: the run fails, and KeepGoing writes the rest
	// and still reports it. A top-level input cut short keeps what was
	// read, with a warning.
	cut := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/cut/1</loc></url><url><loc>https://a.example/cut/2</loc>`
	w := &web{docs: map[string]string{
		"https://a.example/index.xml": index("https://a.example/good.txt", "https://a.example/cut.xml"),
		"https://a.example/good.txt":  "https://a.example/good\n",
		"https://a.example/cut.xml":   cut,
	}}
	_, _, _, err := follow(t, w, convert.Options{}, "https://a.example/index.xml")
	require.ErrorIs(t, err, convert.ErrInputsFailed)
	assert.Contains(t, err.Error(), "https://a.example/cut.xml")
	assert.Contains(t, err.Error(), "cut short")
	out, stats, _, err := follow(t, w, convert.Options{Follow: convert.FollowOptions{KeepGoing: true}}, "https://a.example/index.xml")
	require.ErrorIs(t, err, convert.ErrInputsFailed)
	assert.Contains(t, out, "https://a.example/good\n")
	require.Len(t, stats.Inputs, 3)
	assert.Error(t, stats.Inputs[2].Err)

	out, _, warnings, err := follow(t, w, convert.Options{}, "https://a.example/cut.xml")
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/cut/1\n", out)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "kept the 1 entries read before it")
}

// runOut is the cause of a run's context ended by its deadline.
type runOut struct{}

func (runOut) Error() string        { return "the run's deadline passed" }
func (runOut) Is(target error) bool { return target == context.DeadlineExceeded }

func TestFollowDeadlineStopsTheRun(t *testing.T) {
	// A child that failed because the run's time ran out (an error
	// matching context.DeadlineExceeded) ends the run, KeepGoing or not:
	// the other children would fail the same way.
	w := &web{docs: map[string]string{
		"https://a.example/index.xml": index("https://a.example/1.txt", "https://a.example/2.txt", "https://a.example/3.txt"),
		"https://a.example/1.txt":     "https://a.example/one\n",
		"https://a.example/3.txt":     "https://a.example/three\n",
	}}
	var ins []convert.Input
	ins = append(ins, w.input("https://a.example/index.xml"))
	opts := convert.Options{Follow: convert.FollowOptions{Enabled: true, KeepGoing: true, OpenChild: func(ctx context.Context, parent convert.Input, loc string) (convert.Input, error) {
		if strings.HasSuffix(loc, "/2.txt") {
			return convert.Input{Name: loc}, fmt.Errorf("%s: %w", loc, runOut{})
		}
		return w.openChild(ctx, parent, loc)
	}}}
	_, err := convert.Run(ins, func(formats.WriteOptions) (formats.Writer, error) { return text.NewWriter(io.Discard), nil }, opts)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, "https://a.example/2.txt: the run's deadline passed", err.Error())
}
