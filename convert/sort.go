package convert

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// Order is the order of the output.
type Order int

// The orders of the output.
const (
	// SortNone keeps the order of the inputs: input after input, each
	// page where it first appeared.
	SortNone Order = iota
	// SortLoc orders by loc, byte by byte.
	SortLoc
	// SortLastMod puts the newest lastmod first and entries without one
	// last; equal lastmods are ordered by loc.
	SortLastMod
)

// ParseSort returns the Order a command-line value names: "none", "loc" or
// "lastmod".
func ParseSort(s string) (Order, error) {
	switch s {
	case "", "none":
		return SortNone, nil
	case "loc":
		return SortLoc, nil
	case "lastmod":
		return SortLastMod, nil
	}
	return 0, fmt.Errorf("unknown sort order %q (none, loc or lastmod)", s)
}

func (o Order) compare(a, b *formats.Entry) int {
	if o == SortLastMod {
		switch {
		case a.LastMod.Newer(b.LastMod):
			return -1
		case b.LastMod.Newer(a.LastMod):
			return 1
		}
	}
	return strings.Compare(a.Loc, b.Loc)
}

// sortRunBytes is about how much memory a sorter holds by default: entries
// are sorted in runs of this size, kept in a spool file and merged.
const sortRunBytes = 32 << 20

// Sorter is the step that gives the entries of a reader in order, by an
// external merge sort: memory holds one run at a time while sorting, and
// one record and a read buffer per run while merging (at most 128 runs at
// once: more are merged in passes). The sort is stable. Close it to
// remove its spool file.
type Sorter struct {
	src     Stream
	order   Order
	opts    SortOptions
	mem     *runBuf // the only run, when everything fit in one
	next    int     // the place in mem of the next entry
	dec     spool.Decoder
	runs    *runs // the runs, when there were more than one
	started bool
}

// SortOptions configure SortWith.
type SortOptions struct {
	// TempDir is where the runs are kept; "" is the system's temporary
	// directory.
	TempDir string
	// MaxMemory bounds the bytes of a run held in memory: the entries,
	// encoded as the spool keeps them, and 24 bytes an entry to sort
	// them by; 0 is 32 MiB.
	MaxMemory int64
}

// Sort returns the entries of r in the order o (SortNone keeps r's), each
// with its input. It reads all of r on the first call to Next, holding
// about 32 MiB of entries in memory at most; the rest wait in a spool
// file in tempDir ("" is the system's temporary directory).
func Sort(r formats.Reader, o Order, tempDir string) *Sorter {
	return SortWith(r, o, SortOptions{TempDir: tempDir})
}

// SortWith is Sort with the memory it may hold set by opts.
func SortWith(r formats.Reader, o Order, opts SortOptions) *Sorter {
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = sortRunBytes
	}
	return &Sorter{src: stream(r), order: o, opts: opts}
}

// Close removes the spool.
func (s *Sorter) Close() error {
	if s.runs != nil {
		return s.runs.Close()
	}
	return nil
}

// Next returns the next entry.
func (s *Sorter) Next() (formats.Entry, error) {
	it, err := s.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry in order with its input.
func (s *Sorter) NextItem() (Item, error) {
	if s.order == SortNone {
		return s.src.NextItem()
	}
	if !s.started {
		s.started = true
		if err := s.sortRuns(); err != nil {
			return Item{}, err
		}
	}
	if s.runs == nil {
		if s.next == len(s.mem.items) {
			return Item{}, io.EOF
		}
		var r spool.Record
		_, err := s.dec.Decode(s.mem.record(s.next), &r)
		s.next++
		return Item{Entry: r.Entry, Input: r.Input}, err
	}
	r, err := s.runs.next()
	if err != nil {
		return Item{}, err
	}
	return Item{Entry: r.Entry, Input: r.Input}, nil
}

// sortRuns reads the source in runs, sorting each; runs go to a spool
// unless there is only one.
func (s *Sorter) sortRuns() error {
	run := &runBuf{budget: int(min(s.opts.MaxMemory, math.MaxInt))}
	var bounds []int64
	var sp *spool.File
	flush := func() error {
		run.sort(s.order)
		if sp == nil {
			var err error
			if sp, err = spool.New(s.opts.TempDir); err != nil {
				return err
			}
		}
		bounds = append(bounds, sp.Size())
		for i := range run.items {
			if _, err := sp.AppendEncoded(run.record(i)); err != nil {
				return err
			}
		}
		run.reset()
		return nil
	}
	err := func() error {
		for {
			it, err := s.src.NextItem()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if !run.add(&it, s.order) {
				if err := flush(); err != nil {
					return err
				}
				run.add(&it, s.order)
			}
		}
	}()
	if err == nil && sp != nil && len(run.items) > 0 {
		err = flush()
	}
	if err != nil {
		if sp != nil {
			sp.Close()
		}
		return err
	}
	if sp == nil {
		run.sort(s.order)
		s.mem = run
		return nil
	}
	bounds = append(bounds, sp.Size())
	s.runs, err = mergeRunsBy(sp, bounds, func(a, b *spool.Record) int { return s.order.compare(&a.Entry, &b.Entry) }, s.opts.TempDir, sortFanIn, sortRunBuffer)
	return err
}
