package convert

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/validate"
)

// checkedContent is an input read through validate's rules, as
// feed2sitemap convert --strict reads it: the rules observe the
// conversion's XML reader, and run behind it when it is read ahead
// (deferredCheck).
type checkedContent struct {
	io.Reader
	rc     io.ReadCloser
	obs    *validate.Observation
	report func(validate.Finding)
}

func (c *checkedContent) Close() error {
	c.obs.Close()
	return c.rc.Close()
}

func (c *checkedContent) ReadObserver() any { return c.obs.XML() }

func (c *checkedContent) DeferCheck(route func(report func())) interface {
	Mark()
	Bytes() int
	Cut() func(onMark func())
} {
	return c.obs.Defer(func(f validate.Finding) { route(func() { c.report(f) }) })
}

// checkedSite is a site whose documents are read through validate's
// rules, whose findings go to the log of the reading.
type checkedSite struct {
	*site
	mu  sync.Mutex
	log *[]string
}

func (s *checkedSite) input(loc string) Input {
	in := s.site.input(loc)
	open := in.Open
	in.Open = func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		v := validate.New(validate.Options{NoFollow: true, Independent: true})
		report := func(f validate.Finding) {
			s.mu.Lock()
			defer s.mu.Unlock()
			*s.log = append(*s.log, "finding "+f.String())
		}
		obs := v.Observe(validate.Source{Name: loc}, report)
		return &checkedContent{Reader: io.TeeReader(rc, obs), rc: rc, obs: obs, report: report}, nil
	}
	return in
}

// findingsSite returns a site of an index and sitemaps of up to a few
// thousand pages (several batches) whose entries break rules now and
// then, in their XML only (the bytes are plain ASCII): a bad lastmod, a
// bad loc, a page listed twice, a session id, an untidy URL.
func findingsSite(seed uint64, pause time.Duration) (*site, []string) {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &site{docs: map[string]string{}, rng: rand.New(rand.NewPCG(seed, 4)), pause: pause}
	page := func(c, i int) string {
		switch rng.IntN(40) {
		case 0:
			return fmt.Sprintf("<url><loc>https://a.example/%d/%d</loc><lastmod>yesterday</lastmod></url>\n", c, i)
		case 1:
			return fmt.Sprintf("<url><loc>not a url %d/%d</loc></url>\n", c, i)
		case 2:
			return fmt.Sprintf("<url><loc>https://a.example/%d/%d</loc></url>\n", c, max(i-1, 0))
		case 3:
			return fmt.Sprintf("<url><loc>https://a.example/%d/%d?PHPSESSID=0123456789abcdef0123456789abcdef</loc></url>\n", c, i)
		case 4:
			return fmt.Sprintf("<url><loc>https://a.example:443/%d/./%d</loc></url>\n", c, i)
		}
		return fmt.Sprintf("<url><loc>https://a.example/%d/%d</loc><lastmod>2024-01-%02d</lastmod></url>\n", c, i, 1+i%28)
	}
	urlset := func(c, n int) string {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := range n {
			b.WriteString(page(c, i))
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	var children []string
	for c := range 2 + rng.IntN(4) {
		loc := fmt.Sprintf("https://a.example/child-%d.xml", c)
		s.docs[loc] = urlset(c, rng.IntN(3000))
		children = append(children, loc)
	}
	s.docs["https://a.example/index.xml"] = sitemapIndex(children...)
	s.docs["https://a.example/top.xml"] = urlset(1000, rng.IntN(2500))
	return s, []string{"https://a.example/top.xml", "https://a.example/index.xml"}
}

// checkedLog reads the inputs of s through validate's rules, each ahead
// unless inStep, stopping after stopAt entries when above 0, and returns
// what the reading gave, in its order, the rules' findings among the
// entries, and whether an input was read ahead.
func checkedLog(t *testing.T, s *site, tops []string, inStep bool, opts ReadOptions, stopAt int) (log []string, ahead bool) {
	t.Helper()
	cs := &checkedSite{site: s, log: &log}
	var inputs []Input
	for _, loc := range tops {
		inputs = append(inputs, cs.input(loc))
	}
	src, err := Open(inputs, opts, logObserver{&log})
	require.NoError(t, err)
	src.inStep = inStep
	openChild := func(_ context.Context, _ Input, loc string) (Input, error) { return cs.input(loc), nil }
	fl := Follow(src, FollowOptions{OpenChild: openChild, Concurrency: 3})
	for n := 0; stopAt == 0 || n < stopAt; n++ {
		it, err := fl.NextItem()
		if err != nil {
			if err != io.EOF {
				log = append(log, "error "+err.Error())
			}
			break
		}
		if src.top != nil && src.top.parse != nil {
			ahead = true
		}
		cs.mu.Lock()
		log = append(log, fmt.Sprintf("entry %s %s key %q scope %d", it.Entry.Loc, it.Entry.LastMod, it.key, it.scope))
		cs.mu.Unlock()
	}
	cs.mu.Lock()
	log = append(log, "stopped")
	cs.mu.Unlock()
	fl.Close()
	src.Close()
	return log, ahead
}

func TestDeferredCheckGivesWhatCheckingInStepGives(t *testing.T) {
	// validate's rules run behind a reader read ahead report the same
	// findings, each before the entry it came before, and give the same
	// normal forms, as run in step with the reader on the reading
	// goroutine; strict or not, read to the end or stopped part-way (what
	// is past the stop is not reported).
	rounds := 12
	if testing.Short() {
		rounds = 4
	}
	for seed := range uint64(rounds) {
		pause := time.Duration(0)
		if seed%2 == 1 {
			pause = time.Millisecond
		}
		s, tops := findingsSite(seed, pause)
		for _, strict := range []bool{false, true} {
			opts := ReadOptions{Strict: strict}
			want, inStep := checkedLog(t, s, tops, true, opts, 0)
			got, ahead := checkedLog(t, s, tops, false, opts, 0)
			require.False(t, inStep)
			if slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "entry ") }) {
				require.True(t, ahead, "seed %d, strict %v: read ahead", seed, strict)
			}
			require.Equal(t, want, got, "seed %d, strict %v", seed, strict)
			assert.Contains(t, strings.Join(want, "\n"), "finding ", "seed %d: the rules found something", seed)
			stop := 1 + int(seed)*211%max(len(want)/2, 1)
			want, _ = checkedLog(t, s, tops, true, opts, stop)
			got, _ = checkedLog(t, s, tops, false, opts, stop)
			require.Equal(t, want, got, "seed %d, strict %v, stopped after %d entries", seed, strict, stop)
		}
	}
}

// bulkyCheck is the content of an observed input whose deferred check
// records 100 KiB for each mark (a document of long texts or tags).
type bulkyCheck struct {
	io.ReadCloser
	marks int
}

func (c *bulkyCheck) ReadObserver() any { return struct{}{} }

func (c *bulkyCheck) DeferCheck(func(report func())) interface {
	Mark()
	Bytes() int
	Cut() func(onMark func())
} {
	return c
}

func (c *bulkyCheck) Mark()      { c.marks++ }
func (c *bulkyCheck) Bytes() int { return c.marks * 100 << 10 }

func (c *bulkyCheck) Cut() func(onMark func()) {
	n := c.marks
	c.marks = 0
	return func(onMark func()) {
		for range n {
			onMark()
		}
	}
}

func TestDeferredCheckBatchesAreBoundedByWhatTheCheckHolds(t *testing.T) {
	// A batch ends once what the check recorded for it passes
	// aheadBatchBytes, however few its entries: three entries here.
	var list strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&list, "https://a.example/%d\n", i)
	}
	in := Input{Name: "urls.txt", Open: func() (io.ReadCloser, error) {
		return &bulkyCheck{ReadCloser: io.NopCloser(strings.NewReader(list.String()))}, nil
	}}
	src, err := Open([]Input{in}, ReadOptions{}, nil)
	require.NoError(t, err)
	defer src.Close()
	for i := range 1000 {
		it, err := src.NextItem()
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("https://a.example/%d", i), it.Entry.Loc)
		require.NotNil(t, src.top.parse, "read ahead")
		require.LessOrEqual(t, len(src.top.parse.cur.entries), 3)
	}
	_, err = src.NextItem()
	require.Equal(t, io.EOF, err)
}
