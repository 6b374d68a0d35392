package convert

import (
	"strings"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Drop is an entry left out of the output, and why.
type Drop struct {
	// Input is the name of the input the entry came from. Run fills it
	// in; a step used alone leaves it empty (From says which input).
	Input string
	Loc   string
	Rule  string // a Rule constant
	// Detail says, for a duplicate, what it was merged into. Run fills
	// it in; a step used alone leaves it empty (Into says which input).
	Detail string
	// From is the input the entry came from (its Item.Input).
	From int
	// Into is, for a duplicate, the input of the entry it was merged
	// into.
	Into int
}

// RuleDuplicate is the rule of a Drop of an entry merged into another.
const RuleDuplicate = "duplicate"

// ProgressEvery is how often, in entries read, a Source tells its
// Observer of its progress.
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
	// SkippedChildren counts, by reason (RuleInclude, RuleExclude,
	// RuleSince), the children listed that FollowOptions.Select left
	// out: they were not opened.
	SkippedChildren map[string]int
	// Err is why the input failed (a child that could not be fetched,
	// opened or read whole); nil when it was read.
	Err      error
	Read     int // entries read
	Skipped  int // entries dropped for a problem
	Warnings int // warnings, the skipped entries' included
	// LeftOut counts the entries the reader left out, without a warning,
	// as no pages to list (formats.ExtraReader.LeftOut): a page that says
	// noindex, a crawler export's non-indexable row. They are not read.
	LeftOut int
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
	// (formats.ExtraReader.Head's, ResourceSync's rs:md and rs:ln) that were not
	// written: the output's document-level elements are those of the input
	// its first entry came from (for a child of an index followed, the
	// top-level index's) read before that entry; those of other inputs,
	// and all of them when the output format cannot hold foreign elements,
	// are counted here.
	HeadDropped int
}

// Read returns the entries read over all inputs.
func (s *Stats) Read() int { return s.sum(func(i InputStats) int { return i.Read }) }

// LeftOut returns the entries the readers left out as no pages to list,
// over all inputs (InputStats.LeftOut).
func (s *Stats) LeftOut() int { return s.sum(func(i InputStats) int { return i.LeftOut }) }

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

// tally is the Observer Run hands its steps: it adds to the accounts of
// the Source's inputs what later steps left out, fills in the names of
// the inputs in what it tells Options.Observer, and tells it one call at
// a time.
type tally struct {
	src   *Source
	stats *Stats
	user  Observer
	drops bool       // whether user is told of drops
	mu    sync.Mutex // held while user is told
}

func newTally(stats *Stats, user Observer) *tally {
	o, isFuncs := user.(Observe)
	return &tally{stats: stats, user: observer(user), drops: user != nil && !(isFuncs && o.Drop == nil)}
}

// Warning tells the user of a warning the Source or Follow counted.
func (t *tally) Warning(pe *formats.ParseError) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.user.Warning(pe)
}

// Progressed tells the user of the progress.
func (t *tally) Progressed(read int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.user.Progressed(read)
}

// Dropped counts an entry left out in the account of its input, and tells
// the user: an entry too long once rewritten as a skipped entry's
// warning, the others as a Drop. It is called on the goroutine that reads
// (filters, rewriting) and on the one that deduplicates (duplicates): each
// changes fields of the accounts the other does not.
func (t *tally) Dropped(d Drop) {
	st := t.src.account(d.From)
	switch d.Rule {
	case RuleTooLong:
		// Counted as read when read: now skipped, as the reader skips.
		st.Read--
		st.Skipped++
		st.Warnings++
		t.Warning(&formats.ParseError{Source: st.Name, Skipped: true, Err: tooLong(d.Loc)})
		return
	case RuleDuplicate:
		t.stats.Duplicates++
		st.Duplicates++
		if t.drops {
			d.Detail = "merged into the entry from " + t.src.account(d.Into).Name
		}
	default:
		if st.Filtered == nil {
			st.Filtered = map[string]int{}
		}
		st.Filtered[d.Rule]++
	}
	if !t.drops {
		return
	}
	// The user may keep the Drop: its loc is a copy, not the memory of
	// the entry's, which may be used again (see stringsDone).
	d.Input, d.Loc = st.Name, strings.Clone(d.Loc)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.user.Dropped(d)
}
