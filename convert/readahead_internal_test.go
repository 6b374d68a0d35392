package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// site is a set of documents by location, opened with random delays and
// read in reads of random sizes, each after a random pause, so that a
// reader run ahead and the goroutine reading it meet in ever other orders.
type site struct {
	docs  map[string]string
	seed  uint64
	mu    sync.Mutex
	rng   *rand.Rand
	pause time.Duration
}

func (s *site) rand(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rng.IntN(n)
}

func (s *site) input(loc string) Input {
	return Input{Name: loc, Open: func() (io.ReadCloser, error) {
		if s.pause > 0 {
			time.Sleep(time.Duration(s.rand(int(s.pause))))
		}
		doc, ok := s.docs[loc]
		if !ok {
			return nil, fmt.Errorf("%s: HTTP 404 Not Found", loc)
		}
		return io.NopCloser(&jitter{s: s, r: strings.NewReader(doc)}), nil
	}}
}

func (s *site) openChild(_ context.Context, _ Input, loc string) (Input, error) {
	return s.input(loc), nil
}

// jitter reads a few bytes to a few kilobytes at a time, now and then
// after a pause.
type jitter struct {
	s *site
	r io.Reader
}

func (j *jitter) Read(p []byte) (int, error) {
	if j.s.pause > 0 && j.s.rand(8) == 0 {
		time.Sleep(time.Duration(j.s.rand(int(j.s.pause / 10))))
	}
	return j.r.Read(p[:min(len(p), 1+j.s.rand(4096))])
}

// urlset returns a sitemap of n pages of child c, with now and then a bad
// lastmod (a warning), a bad loc (an entry skipped) and a document-level
// element; cut, when above zero, cuts the document short after that many
// bytes.
func urlset(rng *rand.Rand, c, n, cut int) string {
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">` + "\n")
	for i := range n {
		switch rng.IntN(60) {
		case 0:
			fmt.Fprintf(&b, "<url><loc>https://a.example/%d/%d</loc><lastmod>yesterday</lastmod></url>\n", c, i)
		case 1:
			fmt.Fprintf(&b, "<url><loc>not a url %d/%d</loc></url>\n", c, i)
		case 2:
			fmt.Fprintf(&b, "<rs:ln rel=\"up\" href=\"https://a.example/%d/%d\"/>\n", c, i)
		default:
			fmt.Fprintf(&b, "<url><loc>https://a.example/%d/%d</loc><lastmod>2024-01-%02d</lastmod></url>\n", c, i, 1+i%28)
		}
	}
	b.WriteString("</urlset>\n")
	if cut > 0 && cut < b.Len() {
		return b.String()[:cut]
	}
	return b.String()
}

// randomSite returns a site of an index listing children of every kind:
// sitemaps of up to a few thousand pages (several batches read ahead),
// some cut short, missing ones, a page that is no sitemap, text lists,
// nested indexes, one that lists the top index again, and children
// listed twice; and the top-level inputs to read, the index among them.
func randomSite(seed uint64, pause time.Duration) (*site, []string) {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &site{docs: map[string]string{}, rng: rand.New(rand.NewPCG(seed, 2)), pause: pause}
	var children []string
	for c := range 6 + rng.IntN(8) {
		loc := fmt.Sprintf("https://a.example/child-%d.xml", c)
		switch k := rng.IntN(10); {
		case k < 4:
			s.docs[loc] = urlset(rng, c, rng.IntN(3000), 0)
		case k == 4:
			n := 1 + rng.IntN(2000)
			s.docs[loc] = urlset(rng, c, n, 100+rng.IntN(60*n))
		case k == 5:
			// Missing.
		case k == 6:
			s.docs[loc] = "<!DOCTYPE html><html><body>moved</body></html>"
		case k == 7:
			loc = fmt.Sprintf("https://a.example/child-%d.txt", c)
			var b strings.Builder
			for i := range rng.IntN(700) {
				fmt.Fprintf(&b, "https://a.example/t/%d/%d\n", c, i)
			}
			s.docs[loc] = b.String()
		case k == 8:
			a, b := fmt.Sprintf("https://a.example/child-%d-a.xml", c), fmt.Sprintf("https://a.example/child-%d-b.xml", c)
			s.docs[a] = urlset(rng, 100+c, rng.IntN(900), 0)
			s.docs[b] = urlset(rng, 200+c, rng.IntN(900), 0)
			s.docs[loc] = sitemapIndex(a, "https://a.example/index.xml", b)
		default:
			if len(children) > 0 {
				loc = children[rng.IntN(len(children))]
			}
		}
		children = append(children, loc)
	}
	s.docs["https://a.example/index.xml"] = sitemapIndex(children...)
	s.docs["https://a.example/top.xml"] = urlset(rng, 1000, rng.IntN(1500), 0)
	s.docs["https://a.example/top.txt"] = "https://a.example/top/1\nhttps://a.example/top/2\n"
	tops := []string{"https://a.example/top.xml", "https://a.example/index.xml", "https://a.example/top.txt"}
	rng.Shuffle(len(tops), func(i, j int) { tops[i], tops[j] = tops[j], tops[i] })
	return s, tops
}

// sitemapIndex returns a sitemap index of locs, at least one.
func sitemapIndex(locs ...string) string {
	return `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n<sitemap><loc>" +
		strings.Join(locs, "</loc></sitemap>\n<sitemap><loc>") + "</loc></sitemap>\n</sitemapindex>\n"
}

// logObserver logs the warnings, in the log the reading adds to.
type logObserver struct{ log *[]string }

func (o logObserver) Warning(pe *formats.ParseError) { *o.log = append(*o.log, "warning "+pe.Error()) }
func (o logObserver) Dropped(Drop)                   {}
func (o logObserver) Progressed(int)                 {}

// readLog follows the inputs of s, reading each input ahead unless
// inStep, and returns what the reading gave, in its order: every entry
// with its input, every warning, the error that ended it; then the
// accounts and the document-level elements taken.
func readLog(t *testing.T, s *site, tops []string, inStep bool, opts ReadOptions) []string {
	t.Helper()
	var log []string
	var inputs []Input
	for _, loc := range tops {
		inputs = append(inputs, s.input(loc))
	}
	src, err := Open(inputs, opts, logObserver{&log})
	defer src.Close()
	if err != nil {
		return append(log, "open: "+err.Error())
	}
	src.inStep = inStep
	fl := Follow(src, FollowOptions{OpenChild: s.openChild, Concurrency: 3})
	defer fl.Close()
	for {
		it, err := fl.NextItem()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log = append(log, "error "+err.Error())
			}
			break
		}
		if !src.headTaken {
			src.takeHead()
		}
		log = append(log, fmt.Sprintf("entry %s %s %d %s", it.Entry.Loc, it.Entry.LastMod, it.Input, src.account(it.Input).Name))
	}
	for _, st := range src.Inputs() {
		log = append(log, fmt.Sprintf("account %s depth %d parent %d format %s read %d skipped %d warnings %d children %d err %v",
			st.Name, st.Depth, st.Parent, st.Format, st.Read, st.Skipped, st.Warnings, st.Children, st.Err))
	}
	return append(log, fmt.Sprintf("head %q seen %d", src.takenHead(), src.headSeen()))
}

func TestReadAheadGivesWhatReadingInStepGives(t *testing.T) {
	// Children that open and read at random paces, read ahead, give the
	// same entries, warnings, failures and accounts, in the same order,
	// as read one after another on the reading goroutine.
	rounds := 30
	if testing.Short() {
		rounds = 5
	}
	for seed := range uint64(rounds) {
		s, tops := randomSite(seed, 2*time.Millisecond)
		want := readLog(t, s, tops, true, ReadOptions{})
		got := readLog(t, s, tops, false, ReadOptions{})
		require.Equal(t, want, got, "seed %d", seed)
		// The cap on the total ends the reading at the same entry.
		capped := ReadOptions{MaxURLsTotal: 1 + int(seed)*97}
		require.Equal(t, readLog(t, s, tops, true, capped), readLog(t, s, tops, false, capped), "seed %d, capped", seed)
	}
}

func TestReadAheadKeepsBatchesInOrder(t *testing.T) {
	// Without pauses, several batches are read ahead and queued: entries
	// and warnings still come in document order.
	for seed := range uint64(5) {
		s, tops := randomSite(100+seed, 0)
		require.Equal(t, readLog(t, s, tops, true, ReadOptions{}), readLog(t, s, tops, false, ReadOptions{}), "seed %d", seed)
	}
}

// settledGoroutines waits for the number of goroutines to come down to
// at most n, and returns it.
func settledGoroutines(n int) int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestReadAheadStopsWhenReadingStopsEarly(t *testing.T) {
	// A reading that stops part-way, whatever the point, ends every
	// goroutine reading ahead and closes every input.
	before := runtime.NumGoroutine()
	for seed := range uint64(20) {
		s, tops := randomSite(200+seed, time.Millisecond)
		var mu sync.Mutex
		open := 0
		counted := func(in Input) Input {
			o := in.Open
			in.Open = func() (io.ReadCloser, error) {
				rc, err := o()
				if err == nil {
					mu.Lock()
					open++
					mu.Unlock()
					rc = closeCounter{rc, func() { mu.Lock(); open--; mu.Unlock() }}
				}
				return rc, err
			}
			return in
		}
		var inputs []Input
		for _, loc := range tops {
			inputs = append(inputs, counted(s.input(loc)))
		}
		src, err := Open(inputs, ReadOptions{}, nil)
		require.NoError(t, err)
		fl := Follow(src, FollowOptions{Concurrency: 4, OpenChild: func(ctx context.Context, parent Input, loc string) (Input, error) {
			in, err := s.openChild(ctx, parent, loc)
			return counted(in), err
		}})
		stopAt := s.rand(4000)
		for range stopAt {
			if _, err := fl.NextItem(); err != nil {
				break
			}
		}
		fl.stop()
		require.NoError(t, fl.Close())
		require.NoError(t, src.Close())
		assert.LessOrEqual(t, settledGoroutines(before), before, "seed %d: goroutines left after stopping at %d", seed, stopAt)
		mu.Lock()
		assert.Zero(t, open, "seed %d: inputs left open after stopping at %d", seed, stopAt)
		mu.Unlock()
	}
}

type closeCounter struct {
	io.ReadCloser
	closed func()
}

func (c closeCounter) Close() error {
	c.closed()
	return c.ReadCloser.Close()
}

func TestReadAheadRunStopsOnAFailedWrite(t *testing.T) {
	// Run ending on the writer's error leaves no goroutine behind.
	before := runtime.NumGoroutine()
	s, tops := randomSite(7, time.Millisecond)
	var inputs []Input
	for _, loc := range tops {
		inputs = append(inputs, s.input(loc))
	}
	boom := errors.New("disk full")
	_, err := Run(inputs, func(formats.WriteOptions) (formats.Writer, error) { return &failingWriter{after: 100, err: boom}, nil },
		Options{KeepDuplicates: true, Follow: FollowOptions{Enabled: true, OpenChild: s.openChild}})
	require.ErrorIs(t, err, boom)
	assert.LessOrEqual(t, settledGoroutines(before), before)
}

type failingWriter struct {
	after int
	err   error
}

func (w *failingWriter) Write(formats.Entry) error {
	if w.after--; w.after < 0 {
		return w.err
	}
	return nil
}

func (w *failingWriter) Close() error { return nil }

func TestReadAheadBatchesAreBounded(t *testing.T) {
	// Entries heavy with extension data fill a batch by their size, not
	// their number.
	x := &formats.Extensions{Images: make([]formats.Image, 1000)}
	e := formats.Entry{Loc: "https://a.example/", Ext: x}
	assert.Greater(t, heldBytes(&e)*8, aheadBatchBytes, "eight such entries fill a batch")
	plain := formats.Entry{Loc: "https://a.example/page"}
	assert.Less(t, heldBytes(&plain)*aheadBatch, aheadBatchBytes, "a batch of plain entries is bounded by their number")
}

// observed is content whose reading a check follows (see Source.reader).
type observed struct{ io.ReadCloser }

func (observed) ReadObserver() any { return struct{}{} }

func TestReadAheadNotForStrictOrObservedReading(t *testing.T) {
	// A strict reading ends at its first problem, and an observer follows
	// the reader's goroutine: both read in step.
	doc := sitemapIndex("https://a.example/1.xml")
	plain := Input{Name: "plain.xml", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(doc)), nil }}
	watched := Input{Name: "watched.xml", Open: func() (io.ReadCloser, error) {
		return observed{io.NopCloser(strings.NewReader(doc))}, nil
	}}
	for _, c := range []struct {
		in     Input
		strict bool
		ahead  bool
	}{{plain, false, true}, {plain, true, false}, {watched, false, false}} {
		src, err := Open([]Input{c.in}, ReadOptions{Strict: c.strict}, nil)
		require.NoError(t, err)
		_, err = src.NextItem()
		require.NoError(t, err)
		assert.Equal(t, c.ahead, src.top.parse != nil, "%s, strict %v", c.in.Name, c.strict)
		require.NoError(t, src.Close())
	}
}
