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
)

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
	name, err := formats.ChildFileName(loc)
	if err != nil {
		return Input{}, fmt.Errorf("%w to look for beside %s", err, parent.Path)
	}
	path := filepath.Join(filepath.Dir(parent.Path), name)
	return Input{Name: path, Path: path, MaxBytes: parent.MaxBytes,
		Open: func() (io.ReadCloser, error) { return os.Open(path) }}, nil
}

// frame is an input being read, an index or a sitemap; when following, the
// inputs being read form a stack, each frame a child of the one below.
type frame struct {
	r       formats.Reader
	account int         // its account in sources.list
	st      *InputStats // that account, which never moves
	depth   int         // 1 for a top-level input
	in      Input       // the input, handed to OpenChild as the parent
	key     string      // its key in the visited set
	closer  io.Closer

	ahead    []*item // entries read ahead: children being opened, and an entry after them
	end      error   // io.EOF or the error that ended the reader, once read ahead
	children int     // children listed
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

// errDescended is returned by follower.next when it entered a child: the
// next entry comes from the frame on top of the stack.
var errDescended = errors.New("convert: entered a child")

// follower reads the children of indexes in their place.
type follower struct {
	s        *sources
	ctx      context.Context
	cancel   context.CancelFunc
	open     func(ctx context.Context, parent Input, loc string) (Input, error)
	sem      chan struct{} // one token per child being opened
	wg       sync.WaitGroup
	visited  map[string]bool
	window   int
	maxDepth int
}

func newFollower(s *sources) *follower {
	ctx, cancel := context.WithCancel(context.Background())
	fl := &follower{s: s, ctx: ctx, cancel: cancel, open: s.opts.OpenChild, visited: map[string]bool{},
		window: s.opts.Concurrency, maxDepth: s.opts.MaxDepth}
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

func (fl *follower) visit(key string) { fl.visited[key] = true }

// next returns the next entry of a page from frame f, reading up to window
// children ahead and starting to open them; when the next item is a
// child, it enters it (pushing its frame) and returns errDescended.
func (fl *follower) next(f *frame) (formats.Entry, error) {
	for len(f.ahead) < fl.window && f.end == nil && (len(f.ahead) == 0 || f.ahead[len(f.ahead)-1].child != nil) {
		e, err := f.r.Next()
		if err != nil {
			f.end = err
			if err == io.EOF && f.children > MaxChildren {
				if werr := fl.warn(f, fmt.Errorf("lists %d child sitemaps; the %d after the first %d were not followed",
					f.children, f.children-MaxChildren, MaxChildren)); werr != nil {
					return formats.Entry{}, werr
				}
			}
			break
		}
		if e.Kind != formats.KindSitemap {
			if len(f.ahead) == 0 {
				return e, nil
			}
			f.ahead = append(f.ahead, &item{e: e})
			break
		}
		c, err := fl.child(f, e.Loc)
		if err != nil {
			return formats.Entry{}, err
		}
		if c != nil {
			f.ahead = append(f.ahead, &item{child: c})
		}
	}
	if len(f.ahead) == 0 {
		return formats.Entry{}, f.end
	}
	head := f.ahead[0]
	f.ahead[0] = nil
	f.ahead = f.ahead[1:]
	if head.child == nil {
		return head.e, nil
	}
	return formats.Entry{}, fl.enter(f, head.child)
}

// child starts opening the child loc of f, unless it is not to be followed.
func (fl *follower) child(f *frame, loc string) (*child, error) {
	f.children++
	f.st.Children++
	if f.children > MaxChildren {
		return nil, nil
	}
	if f.depth >= fl.maxDepth {
		return nil, fl.warn(f, fmt.Errorf("child sitemap %s not followed: it would be level %d, deeper than the limit of %d", loc, f.depth+1, fl.maxDepth))
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
// records why it was not read.
func (fl *follower) enter(f *frame, c *child) error {
	<-c.ready
	s := fl.s
	var key string
	if c.rc != nil {
		key = inputKey(c.in, c.rc)
	}
	switch {
	case c.skip || fl.visited[c.loc]:
		fl.discard(c)
		if err := fl.warn(f, fmt.Errorf("child sitemap %s skipped: it was read already", c.loc)); err != nil {
			return err
		}
		return errDescended
	case c.err == nil && fl.visited[key]:
		fl.discard(c)
		if err := fl.warn(f, fmt.Errorf("child sitemap %s skipped: it leads to %s, which was read already", c.loc, strings.TrimPrefix(key, "file:"))); err != nil {
			return err
		}
		return errDescended
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
	r, err := s.reader(i, c.in, c.rc, "")
	if err != nil {
		fl.discard(c)
		return fl.failed(i, err)
	}
	s.stack = append(s.stack, &frame{r: r, account: i, st: s.account(i), depth: f.depth + 1, in: c.in, key: key, closer: c.rc})
	return errDescended
}

// failed records that the child of account i failed; with Strict, the run
// fails, and so it does, KeepGoing or not, when the child failed because
// the run's time ran out (an error matching context.DeadlineExceeded):
// the children after it would fail the same way.
func (fl *follower) failed(i int, err error) error {
	if fl.s.opts.Strict || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	fl.s.account(i).Err = err
	return errDescended
}

// warn reports a warning about frame f: an error with Strict.
func (fl *follower) warn(f *frame, err error) error {
	st := fl.s.account(f.account)
	pe := &formats.ParseError{Source: st.Name, Err: err}
	if fl.s.opts.Strict {
		return pe
	}
	st.Warnings++
	if fl.s.opts.Warn != nil {
		fl.s.opts.Warn(pe)
	}
	return nil
}

// discard closes what was opened of a child that is not read.
func (fl *follower) discard(c *child) {
	if c.rc != nil {
		c.rc.Close()
		c.rc = nil
	}
}

// close stops opening children and closes those opened and not read.
func (fl *follower) close() {
	fl.cancel()
	fl.wg.Wait()
	for _, f := range fl.s.stack {
		for _, it := range f.ahead {
			if it != nil && it.child != nil {
				fl.discard(it.child)
			}
		}
	}
}
