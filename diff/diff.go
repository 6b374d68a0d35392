// Package diff compares two sets of pages, an old and a new, and reports
// the pages added, removed and changed.
//
// Pages are matched by the normal form of their URL (normalize.Key), the
// form convert dedupes by, so that http://Example.com/a and
// http://example.com/a are one page. A page changed when its lastmod,
// changefreq, priority or extension data (images, videos, news, language
// alternates, the mobile marker, foreign elements) differ; a change of the
// URL's spelling alone (to another URL of the same normal form) is not a
// change. When a side lists a page twice, its first entry counts, as
// convert keeps it.
//
// Memory is bounded: up to Options.MaxEntries entries are compared in
// memory; past that, both sides are spilled to temporary files by a hash of
// the normal form and compared a partition at a time.
package diff

import (
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/partition"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// Kind is what happened to a page.
type Kind uint8

// The kinds of change.
const (
	// Added is a page of the new set that the old set does not list.
	Added Kind = iota + 1
	// Removed is a page of the old set that the new set does not list.
	Removed
	// Changed is a page both list, with other data.
	Changed
)

// String returns "added", "removed" or "changed".
func (k Kind) String() string {
	switch k {
	case Added:
		return "added"
	case Removed:
		return "removed"
	case Changed:
		return "changed"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Change is one page that differs between the sets.
type Change struct {
	// Kind is what happened to the page.
	Kind Kind
	// Old is the page's entry in the old set; zero when Added.
	Old formats.Entry
	// New is the page's entry in the new set; zero when Removed.
	New formats.Entry
	// Fields are the differences of a Changed page, in a fixed order
	// (lastmod, changefreq, priority, then the extensions); nil otherwise.
	Fields []Field
}

// Loc returns the URL of the page: the new entry's, or the old one's when
// the page was removed.
func (c *Change) Loc() string {
	if c.Kind == Removed {
		return c.Old.Loc
	}
	return c.New.Loc
}

// Field is one difference of a changed page: a field and its old and new
// values, as text ("" when the side has none).
type Field struct {
	// Name is "lastmod", "changefreq", "priority", "images", "videos",
	// "news", "alternates", "mobile" or "foreign".
	Name string
	// Old and New are the values. For a list of extension elements they
	// are the number of elements, and for elements whose content changed
	// but not their number, "N (changed)".
	Old, New string
}

// Stats counts the pages of a comparison.
type Stats struct {
	Same, Added, Removed, Changed int
}

// Differ reports whether any page was added, removed or changed.
func (s Stats) Differ() bool { return s.Added+s.Removed+s.Changed > 0 }

// DefaultMaxEntries is how many entries, of both sets together, Compare
// holds in memory unless Options.MaxEntries says otherwise: a few hundred
// MiB at most.
const DefaultMaxEntries = 1 << 20

// Options configure Compare.
type Options struct {
	// MaxEntries bounds the entries held in memory at once; zero means
	// DefaultMaxEntries.
	MaxEntries int
	// TempDir is where spill files are made when the sets are larger; ""
	// means the system's temporary directory. They are removed as soon as
	// they are made, so nothing is left behind.
	TempDir string
}

// ErrStop may be returned by the function Compare calls for each change to
// stop the comparison early; Compare then returns the counts so far and a
// nil error.
var ErrStop = errors.New("diff: stop")

// Compare reads both sets to the end and calls emit for each page that
// differs. Changes come ordered by URL (byte order of the normal form) when
// the sets fit in memory together (Options.MaxEntries), and ordered within
// each partition of the spill otherwise. Entries that are not pages (the
// children of an index, KindSitemap) are compared like pages.
func Compare(oldSet, newSet formats.Reader, opts Options, emit func(Change) error) (Stats, error) {
	c := New(opts)
	defer c.Close()
	if err := c.ReadOld(oldSet); err != nil {
		return Stats{}, err
	}
	return c.Compare(newSet, emit)
}

// Comparison compares sets read at different times: ReadOld reads the old
// set (before it is replaced, say), Compare the new one later. Close
// removes what was spilled.
type Comparison struct{ c *comparer }

// New returns a Comparison with no set read yet.
func New(opts Options) *Comparison {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	return &Comparison{&comparer{opts: opts, sides: [2]*side{newSide(), newSide()}}}
}

// ReadOld reads the old set to the end.
func (c *Comparison) ReadOld(oldSet formats.Reader) error { return c.c.read(0, oldSet) }

// Compare reads the new set to the end and calls emit for each page that
// differs from the old set, as the function Compare does.
func (c *Comparison) Compare(newSet formats.Reader, emit func(Change) error) (Stats, error) {
	if err := c.c.read(1, newSet); err != nil {
		return c.c.stats, err
	}
	c.c.emit = emit
	err := c.c.finish()
	if errors.Is(err, ErrStop) {
		err = nil
	}
	return c.c.stats, err
}

// Close removes the spill files, if any.
func (c *Comparison) Close() {
	if c.c.parts != nil {
		c.c.parts.Close()
		c.c.parts = nil
	}
}

// side is one set's entries of a partition, by normal form: the first
// entry of each page.
type side struct {
	keys    []string
	entries map[string]formats.Entry
}

func newSide() *side { return &side{entries: map[string]formats.Entry{}} }

func (s *side) add(key string, e formats.Entry) {
	if _, dup := s.entries[key]; dup {
		return
	}
	s.keys = append(s.keys, key)
	s.entries[key] = e
}

type comparer struct {
	opts  Options
	emit  func(Change) error
	stats Stats
	sides [2]*side      // the sets in memory, until they are spilled
	held  int           // entries in memory
	parts partition.Set // the spill, once the sets did not fit in memory
	seed  maphash.Seed
}

// read reads set (0 old, 1 new) from r to the end: into memory while the
// sets hold no more than MaxEntries entries together, into the spill past
// that.
func (c *comparer) read(set int, r formats.Reader) error {
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		key := normalize.Key(e.Loc)
		if c.parts != nil {
			if err := c.put(set, key, e); err != nil {
				return err
			}
			continue
		}
		c.sides[set].add(key, e)
		if c.held++; c.held > c.opts.MaxEntries {
			if err := c.spill(); err != nil {
				return err
			}
		}
	}
}

// finish compares what was read.
func (c *comparer) finish() error {
	if c.parts == nil {
		return c.compare(c.sides[0], c.sides[1])
	}
	for _, p := range c.parts {
		if err := c.partition(p, 1); err != nil {
			return err
		}
	}
	return nil
}

// compare emits the changes between two sides that are in memory, ordered
// by normal form.
func (c *comparer) compare(o, n *side) error {
	keys := make([]string, 0, len(o.keys)+len(n.keys))
	keys = append(keys, n.keys...)
	for _, k := range o.keys {
		if _, both := n.entries[k]; !both {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, cmp.Compare[string])
	for _, k := range keys {
		oe, inOld := o.entries[k]
		ne, inNew := n.entries[k]
		var ch Change
		switch {
		case !inOld:
			ch = Change{Kind: Added, New: ne}
			c.stats.Added++
		case !inNew:
			ch = Change{Kind: Removed, Old: oe}
			c.stats.Removed++
		default:
			fields := Fields(&oe, &ne)
			if fields == nil {
				c.stats.Same++
				continue
			}
			ch = Change{Kind: Changed, Old: oe, New: ne, Fields: fields}
			c.stats.Changed++
		}
		if err := c.emit(ch); err != nil {
			return err
		}
	}
	return nil
}
