// Package convert runs the steps between readers and writers: it opens
// every input, recognizes its format, reads the entries in input order,
// follows sitemap indexes and robots.txt files to the sitemaps they list
// when asked, normalizes and filters the entries, deduplicates them, sorts
// them when asked, and writes them with one writer, keeping an account of
// what was read, skipped, filtered, merged and written.
//
// Steps. Each step is a formats.Reader that reads another: Open (the
// inputs, one after another), Follow (the children of indexes in their
// place), Rewrite (locs in their normal or tidy form), Filter (host,
// scope, path and date rules), Dedupe (each page once), Sort, Limit, and
// Prefetch (the hand-off from one goroutine to the next). Run composes
// them; a library composes them as it needs. The entries carry between
// steps where they came from (Item, Stream), and the steps tell one
// Observer what they leave out.
//
// Order. Inputs are read in the order given, each from start to end; the
// children of a followed index are read in its place, in its order, depth
// first, however fast each is fetched. With SortNone (the default) the
// output keeps that order, each page where it first appeared; the same
// inputs always give the same output.
package convert

import (
	"errors"
	"io"
	"net/url"

	"github.com/feed2sitemap/feed2sitemap/formats"
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

// ErrTooManyURLs is wrapped by the error Run (or a Source) returns when
// the inputs hold more entries than ReadOptions.MaxURLsTotal.
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
	// Empty for standard input and remote inputs. When Path names a
	// regular file, the input's Open may be called twice: the package's
	// Open closes an input waiting for its turn once recognized, and
	// opens it again at its turn, failing when the file changed.
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

// Options configure Run, grouped by the step they concern.
type Options struct {
	// Read says how the inputs are read.
	Read ReadOptions
	// Follow, when Follow.Enabled, reads the child sitemaps of a sitemap
	// index or robots.txt in its place, instead of its list of children.
	Follow FollowOptions
	// URLs say which form of its URL each entry is compared in (the
	// identity Dedupe uses) and written in.
	URLs RewriteOptions
	// Filter drops the entries it rejects.
	Filter FilterOptions
	// KeepDuplicates turns deduplication off.
	KeepDuplicates bool
	// Sort is the order of the output.
	Sort Order
	// Limit, when above zero, is how many entries are written: the first
	// Limit of the output's order. The rest are counted in Stats.Limited.
	Limit int
	// Output says what the writer holds and when it is committed.
	Output OutputOptions
	// TempDir is where dedupe and sort keep their spool files; "" is the
	// system's temporary directory.
	TempDir string
	// MaxMemory bounds what dedupe and sort hold in memory, in bytes; 0
	// is DefaultMaxMemory. See Options.memory for its share-out.
	MaxMemory int64
	// Observer, when set, is told of every warning, of the progress, and
	// of every entry dropped by a filter or merged into another. Run calls
	// it one call at a time, from the goroutine that reads the inputs
	// (warnings, progress, filtered entries) and from the one that
	// deduplicates (duplicates), never from two at once.
	Observer Observer
}

// OutputOptions say what the writer Run writes to holds, and when it is
// committed.
type OutputOptions struct {
	// Carries is the extension data the writer keeps (its format's
	// Carries). Entries' other extension data is counted in
	// Stats.ExtDropped. Extensions both used by the entries and carried
	// are in WriteOptions.Uses; to know them before the first entry is
	// written, entries that may hold extension data are read whole first
	// (into a spool file, when duplicates are kept).
	Carries formats.ExtensionSet
	// Verify, when set, is called once every entry has been read, before
	// the writer is closed: an error it returns is the run's, and the
	// writer is not closed, so an output written all or nothing is not
	// committed. (The command's --strict checks the inputs' rules there.)
	Verify func() error
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

// Run reads every input, in order, into one writer, and returns the
// account. It composes the steps: Open, Follow (with Follow.Enabled),
// Rewrite, Filter, a Prefetch, Dedupe (unless KeepDuplicates) and a
// Prefetch, Sort, Limit; then it writes. With SortLoc and inputs whose
// entries carry nothing but their locs (text lists), the sort finds the
// duplicates itself while every loc is its own normal form, and only then
// has them go through a Dedupe: the same entries, with the same duplicates
// told, in the output's order.
//
// Every input is opened and recognized before anything is written, so an
// input that is not a sitemap, feed, URL list or robots.txt fails the run
// before the writer is created. An input damaged part-way (truncated XML, a
// corrupt gzip stream) keeps the entries read before the damage and gives a
// warning, unless it gave no entry at all or Read.Strict is set: then the run
// fails. newWriter is called once, when the first entry is ready, with
// options that say whether the entries are child sitemaps; Run closes the
// writer when it succeeds. When there is no entry to write Run returns
// ErrNoEntries and creates no writer.
//
// Following. See Follow. A child that fails is recorded in its InputStats
// and the others are still read; then Run returns an error wrapping
// ErrInputsFailed without closing the writer, so that an output written
// all or nothing is not committed, unless Follow.KeepGoing is set: then
// the writer is closed first. With Read.Strict, a failed child ends the run at
// once.
func Run(inputs []Input, newWriter func(formats.WriteOptions) (formats.Writer, error), opts Options) (stats *Stats, err error) {
	stats = &Stats{}
	f, err := opts.Filter.compile()
	if err != nil {
		return stats, err
	}
	t := newTally(stats, opts.Observer)
	src, err := Open(inputs, opts.Read, t)
	t.src = src
	// Last, when every goroutine has ended: the account is copied out.
	defer func() { stats.Inputs = src.Inputs() }()
	defer src.Close()
	if err != nil {
		return stats, err
	}
	var r Stream = src
	var follow *Follower
	if opts.Follow.Enabled && src.mayNest() {
		// Inputs of formats that never name further documents (text
		// lists) have no children: they are read as they are.
		follow = Follow(src, opts.Follow)
		defer follow.Close()
		r = follow
	}
	if opts.URLs.Normal || opts.URLs.Tidy {
		r = Rewrite(r, opts.URLs, t)
	}
	if !f.keepsAll() {
		r = f.step(r, t)
	}
	// Reading, deduplicating and writing run on up to three goroutines,
	// handing entries over in batches; the input being read is parsed
	// ahead on one more (see readAhead).
	in := Prefetch(headTaker{intoOf(r), src})
	defer in.Close()
	if follow != nil {
		// Deferred calls run last first: a run that ends early stops the
		// children being fetched before waiting for the reader.
		defer follow.stop()
	}
	r = in
	plain := !src.mayHoldExtensions()
	sorted := false
	// The step that hands the entries to the writer, when nothing on the
	// way keeps one: it says which strings are done with (see
	// stringsDone), once the writer says it keeps nothing either.
	var handsOver *Prefetcher
	if plain && opts.Sort == SortNone {
		handsOver = in
	}
	if !opts.KeepDuplicates {
		// Text lists carry nothing a later entry could replace: their
		// pages are given as they are read.
		perPage := int64(xmlPageBytes)
		if plain {
			perPage = textPageBytes
		}
		do := DedupeOptions{Normalize: opts.URLs.Normalize, TempDir: opts.TempDir, Plain: plain, MaxMemory: opts.memory().dedupe,
			Pages: pagesHint(inputs, perPage)}
		if plain && opts.Sort == SortLoc {
			// The sort finds the duplicates (see sortUnique).
			s := sortUnique(in, SortOptions{TempDir: opts.TempDir, MaxMemory: opts.memory().sort}, do, t)
			defer s.Close()
			r, sorted = s, true
		} else {
			d := Dedupe(in, do, t)
			defer d.Close()
			out := Prefetch(d)
			defer out.Close()
			r = out
			if handsOver != nil {
				handsOver = out
			}
		}
	}
	if opts.KeepDuplicates && opts.Output.Carries != 0 && !plain {
		// The extensions used must be known before the first entry is
		// written: all are read first.
		sp := newSpooler(r, opts.TempDir)
		defer sp.Close()
		r = sp
	}
	if opts.Sort != SortNone && !sorted {
		s := SortWith(r, opts.Sort, SortOptions{TempDir: opts.TempDir, MaxMemory: opts.memory().sort})
		defer s.Close()
		r = s
	}
	if opts.Limit > 0 {
		limit := Limit(r, opts.Limit)
		defer func() { stats.Limited = limit.Limited() }()
		r = limit
	}
	return stats, write(r, src, newWriter, opts, stats, handsOver)
}

// write writes the entries of r, read from src, with the writer newWriter
// gives at the first, and closes it when all went well. When handsOver is
// not nil, it hands the entries to the writer (through r) and nothing on
// the way keeps one: it says which strings are done with when the writer
// keeps nothing of its entries either.
func write(r formats.Reader, src *Source, newWriter func(formats.WriteOptions) (formats.Writer, error), opts Options, stats *Stats, handsOver *Prefetcher) error {
	carries := opts.Output.Carries
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
			return err
		}
		if w == nil {
			wo := formats.WriteOptions{Index: e.Kind == formats.KindSitemap, Uses: src.Uses() & carries & formats.ExtAll}
			if carries&formats.ExtForeign != 0 {
				wo.Head = src.takenHead()
			}
			if w, err = newWriter(wo); err != nil {
				return err
			}
			if k, ok := w.(formats.KeepsNothing); ok && handsOver != nil {
				handsOver.strs.on = k.KeepsNothing()
			}
		}
		if lost := e.Ext.Kinds() &^ carries; lost != 0 {
			for bit := range dropped {
				if lost&(1<<bit) != 0 {
					dropped[bit]++
				}
			}
		}
		if err := w.Write(e); err != nil {
			return err
		}
		stats.Written++
	}
	if opts.Output.Verify != nil {
		if err := opts.Output.Verify(); err != nil {
			return err
		}
	}
	stats.HeadDropped = src.headSeen() - len(src.takenHead())
	if carries&formats.ExtForeign == 0 {
		stats.HeadDropped = src.headSeen()
	}
	failed := src.failed()
	if w == nil {
		if failed != nil {
			return failed
		}
		return ErrNoEntries
	}
	if failed != nil && !opts.Follow.KeepGoing {
		return failed
	}
	if err := w.Close(); err != nil {
		return err
	}
	return failed
}

// headTaker takes the document-level elements the output keeps (see
// Stats.HeadDropped) from the Source at the first entry that reaches it:
// those its top-level input read so far.
type headTaker struct {
	into
	src *Source
}

func (h headTaker) NextItem() (Item, error) {
	var it Item
	err := h.nextInto(&it)
	return it, err
}

func (h headTaker) nextInto(it *Item) error {
	err := h.into.nextInto(it)
	if err == nil && !h.src.headTaken {
		h.src.takeHead()
	}
	return err
}

func (h headTaker) Next() (formats.Entry, error) {
	it, err := h.NextItem()
	return it.Entry, err
}

// mayHoldExtensions reports whether the inputs may give entries with
// extension data: whether the format of any carries some, or names
// further documents that may.
func (s *Source) mayHoldExtensions() bool {
	return s.anyFormat(func(f *formats.Format) bool { return f.Carries != 0 || f.Nests })
}

// mayNest reports whether an input may name further documents to read
// (the children Follow reads).
func (s *Source) mayNest() bool {
	return s.anyFormat(func(f *formats.Format) bool { return f.Nests })
}

// anyFormat reports whether the format of an input, or one not known,
// is one that is.
func (s *Source) anyFormat(is func(*formats.Format) bool) bool {
	for _, f := range s.tops {
		format, err := formats.Lookup(s.account(f.account).Format)
		if err != nil || is(format) {
			return true
		}
	}
	return false
}
