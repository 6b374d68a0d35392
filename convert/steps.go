package convert

import (
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// Item is an entry on its way through the steps, with where it came from:
// provenance travels with the entry, so that a step downstream (Dedupe
// naming the input a duplicate was merged into, say) needs no side channel.
type Item struct {
	Entry formats.Entry
	// Input is the index of the input the entry was read from in the
	// accounts of the Source that read it (Stats.Inputs under Run): a
	// top-level input or a child sitemap read when following. 0 for the
	// entries of a plain formats.Reader.
	Input int
	// key is the entry's normal form under the rules norm, once a step
	// computed it (Rewrite with RewriteOptions.Key, or the Source from the
	// observer of its reading, under the always-on rules: a nil norm);
	// "" until then.
	key  string
	norm *normalize.Options
	// scope, when above 0, is the length of the prefix of Entry.Loc that
	// is its normalize.ScopeKey, found by Rewrite in the same scan as its
	// key; 0 when unknown.
	scope int
	// strs, for an entry whose reader cuts its strings from blocks it
	// uses again, says which batch read ahead it came in (see
	// stringsDone); nil otherwise.
	strs  *strblock.Recycler
	batch uint64
}

// forgetKey clears what steps computed of the item's entry: its normal
// form and the length of its scope.
func (it *Item) forgetKey() { it.key, it.norm, it.scope = "", nil, 0 }

// keyUnder returns the normal form of the item's loc under the rules n,
// computing it unless a step before did.
func (it *Item) keyUnder(n *normalize.Options) string {
	if it.key != "" && it.norm == n {
		return it.key
	}
	return n.URL(it.Entry.Loc)
}

// Stream is a formats.Reader whose entries carry where they came from.
// Every step of this package is one; a step given a plain formats.Reader
// sees its entries as those of input 0.
type Stream interface {
	formats.Reader
	// NextItem returns the next entry with its provenance, or io.EOF
	// after the last; it and Next read the same stream.
	NextItem() (Item, error)
}

// into is a Stream that can give its next entry by filling an Item in
// place: the steps that run on one goroutine pass entries so, rather than
// each copying an Item out.
type into interface {
	Stream
	// nextInto sets *it to the next entry, as NextItem returns it; what
	// it holds on an error is not to be used.
	nextInto(it *Item) error
}

// intoOf returns s as an into.
func intoOf(s Stream) into {
	if i, ok := s.(into); ok {
		return i
	}
	return copyInto{s}
}

// copyInto is a Stream seen as an into, by copying its Items.
type copyInto struct{ Stream }

func (c copyInto) nextInto(it *Item) (err error) {
	*it, err = c.NextItem()
	return err
}

// filler fills Items in place, as an into does.
type filler interface{ nextInto(it *Item) error }

// intoStream is the Stream whose entries a filler fills.
type intoStream struct{ filler }

func (s intoStream) NextItem() (Item, error) {
	var it Item
	err := s.nextInto(&it)
	return it, err
}

func (s intoStream) Next() (formats.Entry, error) {
	it, err := s.NextItem()
	return it.Entry, err
}

// stream returns r as a Stream.
func stream(r formats.Reader) Stream {
	if s, ok := r.(Stream); ok {
		return s
	}
	return plainStream{r}
}

// plainStream is a formats.Reader seen as a Stream of one input.
type plainStream struct{ formats.Reader }

func (p plainStream) NextItem() (Item, error) {
	e, err := p.Next()
	return Item{Entry: e}, err
}

// Observer is told what the steps do besides giving entries: the
// warnings of reading, the entries left out, the progress. Each step
// calls it on the goroutine that calls the step's Next (for the steps
// before a Prefetch, the Prefetch's goroutine), so an Observer shared by
// steps on both sides of a Prefetch must be safe for concurrent use. Run
// hands its own to the steps and calls Options.Observer from it one call
// at a time (under a lock), never two at once: warnings, progress and
// filtered entries from the goroutine that reads, duplicates from the one
// that deduplicates.
type Observer interface {
	// Warning is told of a warning about an input (pe.Source names it);
	// the input's account (InputStats.Warnings, Skipped) already holds it.
	Warning(pe *formats.ParseError)
	// Dropped is told of an entry a step left out: by a filter rule, as
	// a duplicate merged into another entry, or because its loc grew too
	// long when rewritten (RuleTooLong, which Run counts as skipped and
	// tells Options.Observer of as a warning).
	Dropped(Drop)
	// Progressed is told, every ProgressEvery entries read, how many
	// were read so far over all inputs.
	Progressed(read int)
}

// Observe is an Observer made of functions; a nil one is not called.
type Observe struct {
	Warn     func(*formats.ParseError)
	Drop     func(Drop)
	Progress func(read int)
}

// Warning calls o.Warn.
func (o Observe) Warning(pe *formats.ParseError) {
	if o.Warn != nil {
		o.Warn(pe)
	}
}

// Dropped calls o.Drop.
func (o Observe) Dropped(d Drop) {
	if o.Drop != nil {
		o.Drop(d)
	}
}

// Progressed calls o.Progress.
func (o Observe) Progressed(read int) {
	if o.Progress != nil {
		o.Progress(read)
	}
}

// observer returns o, or an Observer that is told nothing when o is nil.
func observer(o Observer) Observer {
	if o == nil {
		return Observe{}
	}
	return o
}
