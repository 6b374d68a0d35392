// Package convert runs the steps between readers and writers: it opens
// every input, recognizes its format, reads the entries in input order,
// follows sitemap indexes and robots.txt files to the sitemaps they list
// when asked, normalizes and filters the entries, deduplicates them, sorts
// them when asked, and writes them with one writer, keeping an account of
// what was read, skipped, filtered, merged and written.
//
// Order. Inputs are read in the order given, each from start to end; the
// children of a followed index are read in its place, in its order, depth
// first, however fast each is fetched. With SortNone (the default) the
// output keeps that order, each page where it first appeared; the same
// inputs always give the same output.
package convert

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// ErrNoEntries is returned by Run when the inputs hold no entry to write.
// No writer is created then: an empty sitemap is not valid against the
// sitemap schemas, and an existing output is better left as it is.
var ErrNoEntries = errors.New("convert: no entries to write")

// ErrInputsFailed is wrapped by the error Run returns when an input could
// not be read whole: a child sitemap of a followed index that could not be
// fetched, opened or parsed. The other inputs were read; Stats.Failures
// says which failed and why.
var ErrInputsFailed = errors.New("convert: inputs failed")

// ErrTooManyURLs is wrapped by the error Run returns when the inputs hold
// more entries than Options.MaxURLsTotal.
var ErrTooManyURLs = errors.New("convert: too many entries")

// Input is one source of entries.
type Input struct {
	// Name identifies the input in messages: a file path, "-" or a URL.
	Name string
	// Open opens the input's content. Run closes what it returns. When
	// what it returns is Located (the body of a remote input), relative
	// locs in the content resolve against its location, and the location
	// identifies the input when following indexes.
	Open func() (io.ReadCloser, error)
	// Path is the file the input is read from, for a local file: the
	// children of a local index are looked for beside it (see LocalChild).
	// Empty for standard input and remote inputs.
	Path string
	// MaxBytes caps the input's size, counted after every gzip layer is
	// removed (formats.OpenOptions.MaxBytes); 0 means no cap.
	MaxBytes int64
}

// Located is implemented by the content of an input that knows where it
// came from: the body of a remote input, whose location is its final URL
// after redirects.
type Located interface {
	Location() *url.URL
}

// Options configure Run.
type Options struct {
	// From names the format of the inputs; empty detects it per input.
	// The children of a followed index are always recognized by content.
	From string
	// KeepDuplicates turns deduplication off.
	KeepDuplicates bool
	// Splits says the output is not held to one file's limits: split at
	// them (a set of parts and an index), or a plain list with none. An
	// input holding more entries than one file may is then no news, and
	// is not warned about (Strict still fails).
	Splits bool
	// Strict makes every warning an error.
	Strict bool
	// Warn receives every warning. Nil discards them (they are still
	// counted).
	Warn func(*formats.ParseError)
	// TempDir is where dedupe keeps its spool file; "" is the system's
	// temporary directory.
	TempDir string
	// Progress, when set, is called every ProgressEvery entries read with
	// the number read so far.
	Progress func(read int)
	// Normalize holds the optional URL rules: pages are the same when
	// their locs have the same normal form under them (nil: the always-on
	// rules of package normalize).
	Normalize *normalize.Options
	// Rewrite writes each loc in its normal form instead of as the input
	// gave it.
	Rewrite bool
	// Tidy, without Rewrite, writes each loc with only the rules that
	// never change the page it names (normalize.Safe: no fragment, no
	// default port, no dot segments, no empty query), the rest as the
	// input gave it.
	Tidy bool
	// Filter drops the entries it rejects.
	Filter Filter
	// Sort is the order of the output.
	Sort Sort
	// Dropped, when set, is told of every entry dropped by a filter or
	// merged into another.
	Dropped func(Drop)

	// Follow reads the child sitemaps of a sitemap index or robots.txt in
	// its place, instead of its list of children. See Run.
	Follow bool
	// Concurrency is how many children are opened (fetched) at once when
	// following; 0 means DefaultConcurrency.
	Concurrency int
	// MaxDepth is how deep indexes are followed, the top-level input
	// being level 1 (so a robots.txt, its index and the index's sitemaps
	// are 3 levels); a child deeper is not followed, with a warning. 0
	// means DefaultMaxDepth.
	MaxDepth int
	// MaxURLsTotal stops the run with an error wrapping ErrTooManyURLs
	// once more entries than this were read over all inputs; 0 means no
	// cap.
	MaxURLsTotal int
	// KeepGoing writes the output even when a child failed. Run still
	// returns an error wrapping ErrInputsFailed.
	KeepGoing bool
	// Carries is the extension data the writer keeps (its format's
	// Carries). Entries' other extension data is counted in
	// Stats.ExtDropped. Extensions both used by the entries and carried
	// are in WriteOptions.Uses; to know them before the first entry is
	// written, entries that may hold extension data are read whole first
	// (into a spool file, when duplicates are kept).
	Carries formats.ExtensionSet
	// NewsName, when set, makes the feed items of the last two days news
	// entries of this publication (see formats.ReadOptions.NewsName).
	NewsName string
	// Limit, when above zero, is how many entries are written: the first
	// Limit of the output's order. The rest are counted in Stats.Limited.
	Limit int
	// Verify, when set, is called once every entry has been read, before
	// the writer is closed: an error it returns is the run's, and the
	// writer is not closed, so an output written all or nothing is not
	// committed. (The command's --strict checks the inputs' rules there.)
	Verify func() error
	// OpenChild returns the input of a child sitemap loc that the index
	// parent lists. It is called on a goroutine of its own, up to
	// Concurrency at once, and may fetch the child whole before returning
	// (its Input.Open is called on the same goroutine). Nil means
	// LocalChild.
	OpenChild func(ctx context.Context, parent Input, loc string) (Input, error)
}

// Defaults of Options.
const (
	// DefaultConcurrency is how many children are opened at once.
	DefaultConcurrency = 4
	// DefaultMaxDepth is how deep indexes are followed.
	DefaultMaxDepth = 5
	// MaxChildren is how many children of one index are followed (the
	// protocol's limit of an index); the rest are not, with a warning.
	MaxChildren = formats.MaxURLs
)

// Drop is an entry left out of the output, and why.
type Drop struct {
	Input  string // the input's name
	Loc    string
	Rule   string // a Rule constant, or "duplicate"
	Detail string // for a duplicate, what it was merged into
}

// RuleDuplicate is the rule of a Drop of an entry merged into another.
const RuleDuplicate = "duplicate"

// ProgressEvery is how often, in entries read, Run calls Options.Progress.
const ProgressEvery = 10000

// InputStats is the account of one input.
type InputStats struct {
	Name   string // the input's name
	Format string // the format it was read as; "" when it could not be opened
	// Depth is 0 for a top-level input, and for a child sitemap read when
	// following, one more than the index that listed it.
	Depth int
	// Parent is, for a child (Depth > 0), the index in Stats.Inputs of
	// the index that listed it.
	Parent int
	// Children counts the child sitemaps this input listed, when it was
	// followed (followed or not).
	Children int
	// Err is why the input failed (a child that could not be fetched,
	// opened or read whole); nil when it was read.
	Err      error
	Read     int // entries read
	Skipped  int // entries dropped for a problem
	Warnings int // warnings, the skipped entries' included
	// Filtered counts the entries dropped by each filter rule.
	Filtered map[string]int
	// Duplicates counts the entries of this input merged into another
	// entry of the same page.
	Duplicates int
}

// FilteredTotal returns the entries dropped by all filter rules.
func (s InputStats) FilteredTotal() int {
	n := 0
	for _, v := range s.Filtered {
		n += v
	}
	return n
}

// Written returns how many of the input's entries were written: those read,
// less those filtered and merged into another.
func (s InputStats) Written() int { return s.Read - s.FilteredTotal() - s.Duplicates }

// Stats is the account of a run.
type Stats struct {
	// Inputs are the top-level inputs, in order, each followed by the
	// children read in its place (depth first) when following.
	Inputs     []InputStats
	Duplicates int // entries merged into another with the same URL
	Written    int // entries written
	Limited    int // entries left out by Options.Limit
	// ExtDropped counts, by extension name (see formats.ExtensionSet's
	// Names), the entries written whose extension data of that kind the
	// output could not hold.
	ExtDropped map[string]int
	// HeadDropped counts the document-level foreign elements read
	// (formats.HeadReader's, ResourceSync's rs:md and rs:ln) that were not
	// written: the output's document-level elements are those of the input
	// its first entry came from (for a child of an index followed, the
	// top-level index's) read before that entry; those of other inputs,
	// and all of them when the output format cannot hold foreign elements,
	// are counted here.
	HeadDropped int
}

// Read returns the entries read over all inputs.
func (s *Stats) Read() int { return s.sum(func(i InputStats) int { return i.Read }) }

// Filtered returns the entries filtered over all inputs.
func (s *Stats) Filtered() int { return s.sum(InputStats.FilteredTotal) }

// Skipped returns the entries skipped over all inputs.
func (s *Stats) Skipped() int { return s.sum(func(i InputStats) int { return i.Skipped }) }

// Warnings returns the warnings over all inputs.
func (s *Stats) Warnings() int { return s.sum(func(i InputStats) int { return i.Warnings }) }

// Failures returns the inputs that failed, in order.
func (s *Stats) Failures() []InputStats {
	var failed []InputStats
	for _, in := range s.Inputs {
		if in.Err != nil {
			failed = append(failed, in)
		}
	}
	return failed
}

func (s *Stats) sum(f func(InputStats) int) int {
	n := 0
	for _, in := range s.Inputs {
		n += f(in)
	}
	return n
}

// Run reads every input, in order, into one writer, and returns the account.
//
// Every input is opened and recognized before anything is written, so an
// input that is not a sitemap, feed, URL list or robots.txt fails the run
// before the writer is created. An input damaged part-way (truncated XML, a
// corrupt gzip stream) keeps the entries read before the damage and gives a
// warning, unless it gave no entry at all or Strict is set: then the run
// fails. newWriter is called once, when the first entry is ready, with
// options that say whether the entries are child sitemaps; Run closes the
// writer when it succeeds. When there is no entry to write Run returns
// ErrNoEntries and creates no writer.
//
// Following. With Options.Follow, an input (or a child) whose entries are
// child sitemaps (a sitemap index, a robots.txt) is read as the entries of
// those sitemaps: each child is opened with Options.OpenChild, several at
// once and a few ahead, and read strictly in the index's order, depth
// first. Each sitemap is read once: a child whose loc, or whose location
// after redirects, was read already is skipped with a warning (an index
// that lists itself, A → B → A, a redirect back to an ancestor). A child
// deeper than MaxDepth, and the children of an index after the first
// MaxChildren, are not followed, with a warning. A child that fails (it
// cannot be fetched or opened, is not a sitemap, is too large, or its
// reading fails) is recorded in its InputStats and the others are still
// read; then Run returns an error wrapping ErrInputsFailed without closing
// the writer, so that an output written all or nothing is not committed,
// unless KeepGoing is set: then the writer is closed first. With Strict, a
// failed child ends the run at once.
func Run(inputs []Input, newWriter func(formats.WriteOptions) (formats.Writer, error), opts Options) (stats *Stats, err error) {
	stats = &Stats{}
	f, err := opts.Filter.compile()
	if err != nil {
		return stats, err
	}
	src := newSources(opts, f)
	// Last, when every goroutine has ended: the account is copied out.
	defer func() { stats.Inputs = src.accounts() }()
	defer src.close()
	for _, in := range inputs {
		if err := src.open(in); err != nil {
			return stats, err
		}
	}
	// Reading, deduplicating and writing run on up to three goroutines,
	// handing entries over in batches.
	in := newPipe(src)
	defer in.Close()
	if src.follow != nil {
		// Deferred calls run last first: a run that ends early stops the
		// children being fetched before waiting for the reader.
		defer src.follow.cancel()
	}
	var r formats.Reader = in
	if !opts.KeepDuplicates {
		m := newMerger(in, opts.Normalize.URL, func(loser, winner int, loc string) {
			stats.Duplicates++
			l := src.account(loser)
			l.Duplicates++
			if opts.Dropped != nil {
				opts.Dropped(Drop{Input: l.Name, Loc: loc, Rule: RuleDuplicate, Detail: "merged into the entry from " + src.account(winner).Name})
			}
		}, opts.TempDir)
		// Text lists carry nothing a later entry could replace: their
		// pages are given as they are read.
		m.plain = !src.mayHoldExtensions()
		if m.plain {
			m.table.reserve(pagesHint(inputs))
		}
		defer m.Close()
		out := newPipe(oneInput{m})
		defer out.Close()
		r = out
	}
	if opts.KeepDuplicates && opts.Carries != 0 && src.mayHoldExtensions() {
		// The extensions used must be known before the first entry is
		// written: all are read first.
		sp := newSpooler(r, opts.TempDir)
		defer sp.Close()
		r = sp
	}
	if opts.Sort != SortNone {
		s := newSorter(r, opts.Sort, opts.TempDir)
		defer s.Close()
		r = s
	}
	var w formats.Writer
	var dropped [8]int // entries whose extension data of each kind was left out, by bit
	defer func() {
		for bit, n := range dropped {
			if n > 0 {
				if stats.ExtDropped == nil {
					stats.ExtDropped = map[string]int{}
				}
				for _, name := range formats.ExtensionSet(1 << bit).Names() {
					stats.ExtDropped[name] = n
				}
			}
		}
	}()
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return stats, err
		}
		if opts.Limit > 0 && stats.Written == opts.Limit {
			stats.Limited++
			continue
		}
		if w == nil {
			wo := formats.WriteOptions{Index: e.Kind == formats.KindSitemap, Uses: src.uses() & opts.Carries & formats.ExtAll}
			if opts.Carries&formats.ExtForeign != 0 {
				wo.Head = src.takenHead()
			}
			if w, err = newWriter(wo); err != nil {
				return stats, err
			}
		}
		if lost := e.Ext.Kinds() &^ opts.Carries; lost != 0 {
			for bit := range dropped {
				if lost&(1<<bit) != 0 {
					dropped[bit]++
				}
			}
		}
		if err := w.Write(e); err != nil {
			return stats, err
		}
		stats.Written++
	}
	if opts.Verify != nil {
		if err := opts.Verify(); err != nil {
			return stats, err
		}
	}
	stats.HeadDropped = src.headSeen() - len(src.takenHead())
	if opts.Carries&formats.ExtForeign == 0 {
		stats.HeadDropped = src.headSeen()
	}
	failed := src.failed()
	if w == nil {
		if failed != nil {
			return stats, failed
		}
		return stats, ErrNoEntries
	}
	if failed != nil && !opts.KeepGoing {
		return stats, failed
	}
	if err := w.Close(); err != nil {
		return stats, err
	}
	return stats, failed
}

// sources reads the opened inputs one after another, following indexes
// when asked, keeping the account.
type sources struct {
	opts   Options
	filter *filter
	// mu guards the list of accounts, which grows as children are read
	// while the merger's goroutine updates the duplicates of earlier ones.
	mu      sync.RWMutex
	list    []*InputStats
	tops    []*frame // the top-level inputs, opened
	stack   []*frame // the input being read, above the indexes it is a child of
	next    int      // the next of tops to read
	cur     int      // the account of the input the last entry came from
	read    int
	closers []io.Closer
	follow  *follower
	// used is the union of the kinds of extension data of the entries
	// read (a formats.ExtensionSet), read by the writing goroutine.
	used atomic.Uint32
	// head are the document-level elements the output takes (see
	// Stats.HeadDropped), once taken at the first entry; seen counts those
	// of every input read to its end. headMu guards them: the writing
	// goroutine reads what the reading one set.
	headMu    sync.Mutex
	head      []string
	headTaken bool
	seen      int
}

// headOf returns the document-level elements r read so far, if it keeps
// them.
func headOf(r formats.Reader) []string {
	if h, ok := r.(formats.HeadReader); ok {
		return h.Head()
	}
	return nil
}

// takeHead takes, at the first entry, the document-level elements of the
// top-level input f read so far.
func (s *sources) takeHead(f *frame) {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	if !s.headTaken {
		s.head, s.headTaken = slices.Clone(headOf(f.r)), true
	}
}

// takenHead returns the document-level elements the output takes.
func (s *sources) takenHead() []string {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	return s.head
}

// headSeen returns how many document-level elements the inputs read to
// their end held.
func (s *sources) headSeen() int {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	return s.seen
}

// uses returns the extensions the entries read so far use.
func (s *sources) uses() formats.ExtensionSet { return formats.ExtensionSet(s.used.Load()) }

// mayHoldExtensions reports whether the inputs may give entries with
// extension data: whether the format of any carries some, or names
// further documents that may.
func (s *sources) mayHoldExtensions() bool {
	for _, f := range s.tops {
		format, err := formats.Lookup(s.account(f.account).Format)
		if err != nil || format.Carries != 0 || format.Nests {
			return true
		}
	}
	return false
}

func newSources(opts Options, f *filter) *sources {
	s := &sources{opts: opts, filter: f}
	if opts.Follow {
		s.follow = newFollower(s)
	}
	return s
}

// Input returns the index in Stats.Inputs of the input the last entry came
// from.
func (s *sources) Input() int { return s.cur }

// account returns the account of input i.
func (s *sources) account(i int) *InputStats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.list[i]
}

// addAccount starts the account of an input and returns its index.
func (s *sources) addAccount(name string, depth, parent int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, &InputStats{Name: name, Depth: depth, Parent: parent})
	return len(s.list) - 1
}

// accounts returns a copy of the accounts.
func (s *sources) accounts() []InputStats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]InputStats, len(s.list))
	for i, st := range s.list {
		out[i] = *st
	}
	return out
}

// open opens a top-level input; it fails the run when it cannot be.
func (s *sources) open(in Input) error {
	i := s.addAccount(in.Name, 0, 0)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	s.closers = append(s.closers, rc)
	r, err := s.reader(i, in, rc, s.opts.From)
	if err != nil {
		return err
	}
	s.tops = append(s.tops, &frame{r: r, account: i, st: s.account(i), depth: 1, in: in, key: inputKey(in, rc)})
	return nil
}

// reader recognizes the content rc of input in, whose account is i, or
// reads it as the format from names, and returns a reader of its entries.
func (s *sources) reader(i int, in Input, rc io.Reader, from string) (formats.Reader, error) {
	st := s.account(i)
	ro := formats.ReadOptions{
		Source:   in.Name,
		Strict:   s.opts.Strict,
		NewsName: s.opts.NewsName,
		Warn: func(pe *formats.ParseError) {
			st.Warnings++
			if pe.Skipped {
				st.Skipped++
			}
			if s.opts.Warn != nil {
				s.opts.Warn(pe)
			}
		},
	}
	if l, ok := rc.(Located); ok {
		ro.Base = l.Location()
	}
	r, f, err := formats.Open(rc, formats.OpenOptions{ReadOptions: ro, From: from, MaxBytes: in.MaxBytes})
	if err != nil {
		return nil, err
	}
	st.Format = f.Name
	return r, nil
}

// inputKey identifies an input in the visited set when following: its
// location after redirects, or the absolute path of a local file, or its
// name.
func inputKey(in Input, rc io.Reader) string {
	if l, ok := rc.(Located); ok && l.Location() != nil {
		if loc, err := formats.ParseLoc(l.Location().String(), nil); err == nil {
			return loc
		}
		return l.Location().String()
	}
	if in.Path != "" {
		if abs, err := filepath.Abs(in.Path); err == nil {
			return "file:" + abs
		}
		return "file:" + in.Path
	}
	return in.Name
}

// Next returns the next entry, moving on to the next input at the end of
// one and, when following, into the children of an index.
func (s *sources) Next() (formats.Entry, error) {
	for {
		if len(s.stack) == 0 {
			if s.next == len(s.tops) {
				return formats.Entry{}, io.EOF
			}
			s.stack = append(s.stack, s.tops[s.next])
			s.next++
			if s.follow != nil {
				s.follow.visit(s.tops[s.next-1].key)
			}
		}
		f := s.stack[len(s.stack)-1]
		var e formats.Entry
		var err error
		if s.follow != nil {
			if e, err = s.follow.next(f); err == errDescended {
				continue
			}
		} else {
			e, err = f.r.Next()
		}
		st := f.st
		if err == nil {
			s.cur = f.account
			if st.Read++; st.Read == formats.MaxURLs+1 {
				if err := s.tooMany(st); err != nil {
					return formats.Entry{}, err
				}
			}
			if e.Ext != nil {
				s.used.Or(uint32(e.Ext.Kinds()))
			}
			if s.read++; s.opts.Progress != nil && s.read%ProgressEvery == 0 {
				s.opts.Progress(s.read)
			}
			if s.opts.MaxURLsTotal > 0 && s.read > s.opts.MaxURLsTotal {
				return formats.Entry{}, fmt.Errorf("%w: more than %d read over all inputs (the cap on the total), at %s", ErrTooManyURLs, s.opts.MaxURLsTotal, st.Name)
			}
			if s.opts.Rewrite {
				e.Loc = s.opts.Normalize.URL(e.Loc)
				if len(e.Loc) > formats.MaxLocLength {
					s.tooLong(st, e.Loc)
					continue
				}
			} else if s.opts.Tidy {
				e.Loc = normalize.Safe(e.Loc) // never longer
			}
			if rule := s.filter.check(&e); rule != "" {
				if st.Filtered == nil {
					st.Filtered = map[string]int{}
				}
				st.Filtered[rule]++
				if s.opts.Dropped != nil {
					s.opts.Dropped(Drop{Input: st.Name, Loc: e.Loc, Rule: rule})
				}
				continue
			}
			if !s.headTaken {
				s.takeHead(s.stack[0])
			}
			return e, nil
		}
		if err != io.EOF {
			if err = s.damaged(st, err); err != nil {
				if len(s.stack) == 1 || s.opts.Strict || errors.Is(err, ErrTooManyURLs) {
					return formats.Entry{}, err
				}
				// A child whose reading failed: recorded, and the others
				// are read.
				st.Err = err
			}
		}
		if h := headOf(f.r); len(h) > 0 {
			s.headMu.Lock()
			s.seen += len(h)
			s.headMu.Unlock()
		}
		s.stack = s.stack[:len(s.stack)-1]
		if f.closer != nil {
			f.closer.Close()
		}
	}
}

// failed returns an error wrapping ErrInputsFailed when an input failed,
// else nil.
func (s *sources) failed() error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var n int
	var first *InputStats
	for _, st := range s.list {
		if st.Err != nil {
			if n++; first == nil {
				first = st
			}
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: %v", ErrInputsFailed, first.Err)
	}
	return fmt.Errorf("%w: %d inputs could not be read, the first: %v", ErrInputsFailed, n, first.Err)
}

// tooMany reports an input holding more entries than the protocol allows
// in one file: a warning, or in strict mode the run's error.
func (s *sources) tooMany(st *InputStats) error {
	pe := &formats.ParseError{Source: st.Name, Err: fmt.Errorf("more than %d entries: over the protocol's limit for one file", formats.MaxURLs)}
	if s.opts.Strict {
		return pe
	}
	if s.opts.Splits {
		return nil // the output holds them in parts: no news
	}
	st.Warnings++
	if s.opts.Warn != nil {
		s.opts.Warn(pe)
	}
	return nil
}

// tooLong skips an entry whose loc grew over the protocol's length when
// rewritten, with a warning.
func (s *sources) tooLong(st *InputStats, loc string) {
	st.Read--
	st.Skipped++
	st.Warnings++
	if s.opts.Warn != nil {
		s.opts.Warn(&formats.ParseError{Source: st.Name, Skipped: true,
			Err: fmt.Errorf("%w once normalized: %.60s…", formats.ErrLocTooLong, loc)})
	}
}

// damaged decides what an error part-way through an input means: when a
// top-level input is damaged (formats.ErrDamaged) after some entries, in
// lenient mode, a warning, and the entries read are kept; otherwise the
// run's error, or for a child sitemap (cut short on its way, most often)
// its failure (see follower.failed).
func (s *sources) damaged(st *InputStats, err error) error {
	var pe *formats.ParseError
	if s.opts.Strict || st.Read == 0 || st.Depth > 0 || !errors.Is(err, formats.ErrDamaged) || !errors.As(err, &pe) {
		return err
	}
	st.Warnings++
	if s.opts.Warn != nil {
		s.opts.Warn(&formats.ParseError{Source: pe.Source, Line: pe.Line, Column: pe.Column,
			Err: fmt.Errorf("%w; kept the %d entries read before it", pe.Err, st.Read)})
	}
	return nil
}

func (s *sources) close() {
	if s.follow != nil {
		s.follow.close()
	}
	for _, f := range s.stack {
		if f.closer != nil {
			f.closer.Close()
		}
	}
	for _, c := range s.closers {
		c.Close()
	}
}
