package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// FollowOptions configure Follow.
type FollowOptions struct {
	// Enabled, in Run's Options, reads the child sitemaps of a sitemap
	// index or robots.txt in its place, instead of its list of children
	// (Follow does it always).
	Enabled bool
	// Concurrency is how many children are opened (fetched) at once; 0
	// means DefaultConcurrency.
	Concurrency int
	// MaxDepth is how deep indexes are followed, the top-level input
	// being level 1 (so a robots.txt, its index and the index's sitemaps
	// are 3 levels); a child deeper is not followed, with a warning. 0
	// means DefaultMaxDepth.
	MaxDepth int
	// KeepGoing, in Run's Options, writes the output even when a child
	// failed. Run still returns an error wrapping ErrInputsFailed.
	KeepGoing bool
	// OpenChild returns the input of a child sitemap loc that the index
	// parent lists. It is called on a goroutine of its own, up to
	// Concurrency at once, and may fetch the child whole before returning
	// (its Input.Open is called on the same goroutine). Nil means
	// LocalChild.
	OpenChild func(ctx context.Context, parent Input, loc string) (Input, error)
	// Select, when not nil, is asked about each child an index lists
	// (its loc and lastmod, as the index gives them) before it is
	// opened: a child for which it returns a reason is not opened at
	// all, and is counted under that reason in the index's
	// InputStats.SkippedChildren. ChildSelection.Selector makes one.
	Select func(child formats.Entry) (reason string)
}

// LocalChild opens the child sitemap loc of a local index: the file named
// by the last segment of loc's path (percent-decoded), in the directory of
// the index file (parent.Path). So an index at site/sitemap.xml that lists
// https://example.com/maps/posts.xml.gz reads site/posts.xml.gz. A missing
// file fails when the input is opened. It fails at once when parent is not
// a local file, or loc names no file.
func LocalChild(_ context.Context, parent Input, loc string) (Input, error) {
	if parent.Path == "" {
		return Input{}, fmt.Errorf("%s: cannot open a child of %s, which is not a local file", loc, parent.Name)
	}
	name, err := uri.ChildFileName(loc)
	if err != nil {
		return Input{}, fmt.Errorf("%w to look for beside %s", err, parent.Path)
	}
	path := filepath.Join(filepath.Dir(parent.Path), name)
	return Input{Name: path, Path: path, MaxBytes: parent.MaxBytes,
		Open: func() (io.ReadCloser, error) { return os.Open(path) }}, nil
}

// item is an entry read ahead of the one being returned: a child being
// opened, or an entry of a page.
type item struct {
	e     formats.Entry
	child *child
}

// child is a child sitemap being opened on a goroutine of its own.
type child struct {
	loc   string
	ready chan struct{} // closed when in, rc and err are set
	skip  bool          // read already when it was listed: not opened
	in    Input
	rc    io.ReadCloser
	err   error
}

// Follower is the step that reads the children of indexes in their place.
// Close it to stop the children being opened.
type Follower struct {
	s        *Source
	ctx      context.Context
	cancel   context.CancelFunc
	open     func(ctx context.Context, parent Input, loc string) (Input, error)
	sem      chan struct{} // one token per child being opened
	wg       sync.WaitGroup
	visited  map[string]bool
	window   int
	maxDepth int
	sel      func(formats.Entry) string
	stack    []*frame // the input being read, above the indexes it is a child of
}

// Follow returns the entries of src with, in place of each child sitemap
// that an input (or a child) lists (a sitemap index's, a robots.txt's),
// the entries of that child: each child is opened with
// FollowOptions.OpenChild, several at once and a few ahead, and read
// strictly in its index's order, depth first, however fast each is
// opened. Children are read as src reads its inputs, with the same
// ReadOptions, and accounted in src.Inputs: the account of a child says
// its Depth, its Parent, and Err when it failed.
//
// Each sitemap is read once: a child whose loc, or whose location after
// redirects, was read already is skipped with a warning (an index that
// lists itself, A → B → A, a redirect back to an ancestor). A child
// deeper than MaxDepth, and the children of an index after the first
// MaxChildren, are not followed, with a warning. A child that fails (it
// cannot be fetched or opened, is not a sitemap, is too large, or its
// reading fails) is recorded in its account and the others are still
// read; with ReadOptions.Strict, or when it failed because the time ran
// out (an error matching context.DeadlineExceeded), it ends the reading.
func Follow(src *Source, opts FollowOptions) *Follower {
	ctx, cancel := context.WithCancel(context.Background())
	fl := &Follower{s: src, ctx: ctx, cancel: cancel, open: opts.OpenChild, visited: map[string]bool{},
		window: opts.Concurrency, maxDepth: opts.MaxDepth, sel: opts.Select}
	if fl.open == nil {
		fl.open = LocalChild
	}
	if fl.window <= 0 {
		fl.window = DefaultConcurrency
	}
	if fl.maxDepth <= 0 {
		fl.maxDepth = DefaultMaxDepth
	}
	fl.sem = make(chan struct{}, fl.window)
	return fl
}

// Next returns the next entry.
func (fl *Follower) Next() (formats.Entry, error) {
	it, err := fl.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry of a page with its input, moving on to
// the next input at the end of one and into the children of an index.
func (fl *Follower) NextItem() (Item, error) {
	s := fl.s
	for {
		if len(fl.stack) == 0 {
			top, err := s.nextTop()
			if top == nil {
				return Item{}, err
			}
			fl.stack = append(fl.stack, top)
			fl.visit(top.key)
		}
		f := fl.stack[len(fl.stack)-1]
		e, entered, err := fl.next(f)
		if entered {
			continue
		}
		if err == nil {
			return s.entry(f, e)
		}
		if err = s.end(f, err); err != nil {
			return Item{}, err
		}
		fl.stack = fl.stack[:len(fl.stack)-1]
	}
}

func (fl *Follower) visit(key string) { fl.visited[key] = true }

// next returns the next entry of a page from frame f, reading up to window
// children ahead and starting to open them; when the next item is a
// child, it enters it (pushing its frame, or recording why it was not
// read) and says so: the next entry comes from the frame on top of the
// stack.
func (fl *Follower) next(f *frame) (e formats.Entry, entered bool, err error) {
	for len(f.ahead) < fl.window && f.end == nil && (len(f.ahead) == 0 || f.ahead[len(f.ahead)-1].child != nil) {
		e, err := f.r.Next()
		if err != nil {
			f.end = err
			if err == io.EOF && f.children > MaxChildren {
				if werr := fl.s.warn(f.st, fmt.Errorf("lists %d child sitemaps; the %d after the first %d were not followed",
					f.children, f.children-MaxChildren, MaxChildren)); werr != nil {
					return formats.Entry{}, false, werr
				}
			}
			break
		}
		if e.Kind != formats.KindSitemap {
			if len(f.ahead) == 0 {
				return e, false, nil
			}
			f.ahead = append(f.ahead, &item{e: e})
			break
		}
		c, err := fl.child(f, e)
		if err != nil {
			return formats.Entry{}, false, err
		}
		if c != nil {
			f.ahead = append(f.ahead, &item{child: c})
		}
	}
	if len(f.ahead) == 0 {
		return formats.Entry{}, false, f.end
	}
	head := f.ahead[0]
	f.ahead[0] = nil
	f.ahead = f.ahead[1:]
	if head.child == nil {
		return head.e, false, nil
	}
	if err := fl.enter(f, head.child); err != nil {
		return formats.Entry{}, false, err
	}
	return formats.Entry{}, true, nil
}

// child starts opening the child e of f, unless it is not to be followed.
func (fl *Follower) child(f *frame, e formats.Entry) (*child, error) {
	f.children++
	f.st.Children++
	if f.children > MaxChildren {
		return nil, nil
	}
	if fl.sel != nil {
		if reason := fl.sel(e); reason != "" {
			if f.st.SkippedChildren == nil {
				f.st.SkippedChildren = map[string]int{}
			}
			f.st.SkippedChildren[reason]++
			return nil, nil
		}
	}
	loc := e.Loc
	if f.depth >= fl.maxDepth {
		return nil, fl.s.warn(f.st, fmt.Errorf("child sitemap %s not followed: it would be level %d, deeper than the limit of %d", loc, f.depth+1, fl.maxDepth))
	}
	c := &child{loc: loc, ready: make(chan struct{})}
	if fl.visited[loc] {
		c.skip = true
		close(c.ready)
		return c, nil
	}
	fl.wg.Add(1)
	go func() {
		defer fl.wg.Done()
		defer close(c.ready)
		select {
		case fl.sem <- struct{}{}:
		case <-fl.ctx.Done():
			c.err = fl.ctx.Err()
			return
		}
		defer func() { <-fl.sem }()
		if c.in, c.err = fl.open(fl.ctx, f.in, loc); c.err == nil {
			c.rc, c.err = c.in.Open()
		}
	}()
	return c, nil
}

// enter waits for the child c of f to be open and pushes its frame, or
// records why it was not read; an error it returns ends the reading.
func (fl *Follower) enter(f *frame, c *child) error {
	<-c.ready
	s := fl.s
	var key string
	if c.rc != nil {
		key = inputKey(c.in, c.rc)
	}
	switch {
	case c.skip || fl.visited[c.loc]:
		fl.discard(c)
		return s.warn(f.st, fmt.Errorf("child sitemap %s skipped: it was read already", c.loc))
	case c.err == nil && fl.visited[key]:
		fl.discard(c)
		return s.warn(f.st, fmt.Errorf("child sitemap %s skipped: it leads to %s, which was read already", c.loc, strings.TrimPrefix(key, "file:")))
	}
	fl.visit(c.loc)
	name := c.loc
	if c.in.Name != "" {
		name = c.in.Name
	}
	i := s.addAccount(name, f.depth, f.account)
	if c.err != nil {
		return fl.failed(i, c.err)
	}
	fl.visit(key)
	r, route, err := s.reader(i, c.in, c.rc, "")
	if err != nil {
		fl.discard(c)
		return fl.failed(i, err)
	}
	child := &frame{r: r, account: i, st: s.account(i), depth: f.depth + 1, in: c.in, key: key, closer: c.rc, route: route}
	s.readAhead(child)
	fl.stack = append(fl.stack, child)
	return nil
}

// failed records that the child of account i failed; with Strict, the
// reading fails, and so it does, KeepGoing or not, when the child failed
// because the run's time ran out (an error matching
// context.DeadlineExceeded): the children after it would fail the same
// way.
func (fl *Follower) failed(i int, err error) error {
	if fl.s.opts.Strict || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	fl.s.account(i).Err = err
	return nil
}

// discard closes what was opened of a child that is not read.
func (fl *Follower) discard(c *child) {
	if c.rc != nil {
		c.rc.Close()
		c.rc = nil
	}
}

// stop stops opening children; a run that ends early calls it before
// waiting for the goroutine that reads.
func (fl *Follower) stop() { fl.cancel() }

// Close stops opening children and closes those opened and not read, and
// the children being read.
func (fl *Follower) Close() error {
	fl.cancel()
	fl.wg.Wait()
	for _, f := range fl.stack {
		for _, it := range f.ahead {
			if it != nil && it.child != nil {
				fl.discard(it.child)
			}
		}
		f.stopReading()
		if f.closer != nil {
			f.closer.Close()
		}
	}
	return nil
}
