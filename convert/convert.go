// Package convert runs the steps between readers and writers: it opens
// every input, recognizes its format, reads the entries in input order,
// normalizes and filters them, deduplicates them, sorts them when asked,
// and writes them with one writer, keeping an account of what was read,
// skipped, filtered, merged and written.
//
// Order. Inputs are read in the order given, each from start to end. With
// SortNone (the default) the output keeps that order, each page where it
// first appeared; the same inputs always give the same output.
package convert

import (
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// ErrNoEntries is returned by Run when the inputs hold no entry to write.
// No writer is created then: an empty sitemap is not valid against the
// sitemap schemas, and an existing output is better left as it is.
var ErrNoEntries = errors.New("convert: no entries to write")

// Input is one source of entries.
type Input struct {
	// Name identifies the input in messages: a file path, "-" or a URL.
	Name string
	// Open opens the input's content. Run closes what it returns.
	Open func() (io.ReadCloser, error)
}

// Options configure Run.
type Options struct {
	// From names the input format; empty detects it per input.
	From string
	// KeepDuplicates turns deduplication off.
	KeepDuplicates bool
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
	// Filter drops the entries it rejects.
	Filter Filter
	// Sort is the order of the output.
	Sort Sort
	// Dropped, when set, is told of every entry dropped by a filter or
	// merged into another.
	Dropped func(Drop)
}

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
	Name     string // the input's name
	Format   string // the format it was read as
	Read     int    // entries read
	Skipped  int    // entries dropped for a problem
	Warnings int    // warnings, the skipped entries' included
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
	Inputs     []InputStats
	Duplicates int // entries merged into another with the same URL
	Written    int // entries written
}

// Read returns the entries read over all inputs.
func (s *Stats) Read() int { return s.sum(func(i InputStats) int { return i.Read }) }

// Filtered returns the entries filtered over all inputs.
func (s *Stats) Filtered() int { return s.sum(InputStats.FilteredTotal) }

// Skipped returns the entries skipped over all inputs.
func (s *Stats) Skipped() int { return s.sum(func(i InputStats) int { return i.Skipped }) }

// Warnings returns the warnings over all inputs.
func (s *Stats) Warnings() int { return s.sum(func(i InputStats) int { return i.Warnings }) }

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
func Run(inputs []Input, newWriter func(formats.WriteOptions) (formats.Writer, error), opts Options) (*Stats, error) {
	stats := &Stats{Inputs: make([]InputStats, len(inputs))}
	f, err := opts.Filter.compile()
	if err != nil {
		return stats, err
	}
	src := &sources{opts: opts, stats: stats, filter: f}
	defer src.close()
	for i, in := range inputs {
		stats.Inputs[i].Name = in.Name
		if err := src.open(i, in); err != nil {
			return stats, err
		}
	}
	// Reading, deduplicating and writing run on up to three goroutines,
	// handing entries over in batches.
	in := newPipe(src)
	defer in.Close()
	var r formats.Reader = in
	if !opts.KeepDuplicates {
		m := newMerger(in, opts.Normalize.URL, func(loser, winner int, loc string) {
			stats.Duplicates++
			stats.Inputs[loser].Duplicates++
			if opts.Dropped != nil {
				opts.Dropped(Drop{Input: inputs[loser].Name, Loc: loc, Rule: RuleDuplicate, Detail: "merged into the entry from " + inputs[winner].Name})
			}
		}, opts.TempDir)
		defer m.Close()
		out := newPipe(oneInput{m})
		defer out.Close()
		r = out
	}
	if opts.Sort != SortNone {
		s := newSorter(r, opts.Sort, opts.TempDir)
		defer s.Close()
		r = s
	}
	var w formats.Writer
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return stats, err
		}
		if w == nil {
			if w, err = newWriter(formats.WriteOptions{Index: e.Kind == formats.KindSitemap}); err != nil {
				return stats, err
			}
		}
		if err := w.Write(e); err != nil {
			return stats, err
		}
		stats.Written++
	}
	if w == nil {
		return stats, ErrNoEntries
	}
	return stats, w.Close()
}

// sources reads the opened inputs one after another, keeping the account.
type sources struct {
	opts    Options
	filter  *filter
	stats   *Stats
	inputs  []formats.Reader
	closers []io.Closer
	cur     int
	read    int
}

// Input returns the index of the input the last entry came from.
func (s *sources) Input() int { return s.cur }

func (s *sources) open(i int, in Input) error {
	rc, err := in.Open()
	if err != nil {
		return err
	}
	s.closers = append(s.closers, rc)
	st := &s.stats.Inputs[i]
	ro := formats.ReadOptions{
		Source: in.Name,
		Strict: s.opts.Strict,
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
	r, f, err := formats.Open(rc, formats.OpenOptions{ReadOptions: ro, From: s.opts.From})
	if err != nil {
		return err
	}
	st.Format = f.Name
	s.inputs = append(s.inputs, r)
	return nil
}

// Next returns the next entry of the current input, moving on to the next
// input at the end of one.
func (s *sources) Next() (formats.Entry, error) {
	for s.cur < len(s.inputs) {
		e, err := s.inputs[s.cur].Next()
		st := &s.stats.Inputs[s.cur]
		if err == nil {
			st.Read++
			if s.read++; s.opts.Progress != nil && s.read%ProgressEvery == 0 {
				s.opts.Progress(s.read)
			}
			if s.opts.Rewrite {
				e.Loc = s.opts.Normalize.URL(e.Loc)
				if len(e.Loc) > formats.MaxLocLength {
					s.tooLong(st, e.Loc)
					continue
				}
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
			return e, nil
		}
		if err != io.EOF {
			if err := s.damaged(st, err); err != nil {
				return formats.Entry{}, err
			}
		}
		s.cur++
	}
	return formats.Entry{}, io.EOF
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

// damaged decides what an error part-way through an input means: when the
// input is damaged (formats.ErrDamaged) after some entries, in lenient mode,
// a warning, and the entries read are kept; otherwise the run's error.
func (s *sources) damaged(st *InputStats, err error) error {
	var pe *formats.ParseError
	if s.opts.Strict || st.Read == 0 || !errors.Is(err, formats.ErrDamaged) || !errors.As(err, &pe) {
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
	for _, c := range s.closers {
		c.Close()
	}
}
