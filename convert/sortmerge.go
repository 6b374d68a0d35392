package convert

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// sortedRuns is the spool of the runs or buckets of a Sorter, which it
// removes when closed, and how many runs are merged or buckets sorted;
// when the buckets are merged with runs, what sorts them and the spool
// the runs were merged into, if not sp.
type sortedRuns struct {
	sp      *spool.File
	parts   int
	buckets *bucketPipe
	merged  *spool.File
}

// sortedPipe gives the entries of a Sorter of more than one run in order,
// from a goroutine of its own (rawPipe, bucketPipe).
type sortedPipe interface {
	nextInto(it *Item) error
	next() (formats.Entry, error)
	Close()
}

// Close removes the spools.
func (r *sortedRuns) Close() error {
	if r.buckets != nil {
		r.buckets.Close() // it reads sp
	}
	var err error
	if r.merged != nil {
		err = r.merged.Close()
	}
	return cmp.Or(r.sp.Close(), err)
}

// rawRuns merges runs of records in the order of their entries without
// decoding them: a tournament over the locs (and with SortLastMod the
// lastmods) of the records as Encode wrote them.
type rawRuns struct {
	tournament
	order    Order
	scanners []rawSource
	heads    []rawHead
	last     int // the run of the record returned last, to read again; -1 when none
	err      error
}

// rawHead is the next record of a run.
type rawHead struct {
	rec   []byte // valid until its scanner reads the next
	loc   []byte
	dated bool // it has a lastmod, at sec and nsec
	sec   int64
	nsec  uint64
}

// errRawRecord is the error of a record of a sort's spool whose loc is
// not where it should be.
var errRawRecord = errors.New("sort: a record of the spool does not decode")

// rawSource gives sorted records as spool.Encode wrote them, each valid
// until the next call; io.EOF after the last (spool.Scanner, bucketPipe).
type rawSource interface {
	NextRaw() ([]byte, error)
}

// openRawRuns returns the merge of first, when not nil, then the runs of
// sp between bounds, by o, each read through a buffer of buf bytes. Of
// equal records, first's go first, then those of the earlier runs.
func openRawRuns(first rawSource, sp *spool.File, bounds []int64, o Order, buf int) (*rawRuns, error) {
	runs, err := scanRuns(sp, bounds, buf)
	if err != nil {
		return nil, err
	}
	var scanners []rawSource
	if first != nil {
		scanners = append(scanners, first)
	}
	for _, sc := range runs {
		scanners = append(scanners, sc)
	}
	m := &rawRuns{order: o, scanners: scanners, heads: make([]rawHead, len(scanners)), last: -1}
	m.init(len(scanners), m.compare)
	for i := range scanners {
		if err := m.read(i); err != nil {
			return nil, err
		}
	}
	m.start()
	return m, nil
}

// read reads the next record of run i into its head.
func (m *rawRuns) read(i int) error {
	rec, err := m.scanners[i].NextRaw()
	if err == io.EOF {
		m.done[i] = true
		return nil
	}
	if err != nil {
		return err
	}
	at, n := spool.EncodedLoc(rec)
	if at == 0 {
		return errRawRecord
	}
	h := &m.heads[i]
	h.rec, h.loc = rec, rec[at:at+n]
	if m.order == SortLastMod {
		h.sec, h.nsec, h.dated = spool.EncodedTime(rec, at+n)
	}
	return nil
}

// compare compares the heads of runs a and b as Order.compare compares
// their entries.
func (m *rawRuns) compare(a, b int) int {
	x, y := &m.heads[a], &m.heads[b]
	if m.order == SortLastMod {
		switch {
		case x.dated != y.dated:
			if x.dated {
				return -1 // no lastmod last
			}
			return 1
		case x.sec != y.sec:
			return cmp.Compare(y.sec, x.sec) // the newest first
		case x.nsec != y.nsec:
			return cmp.Compare(y.nsec, x.nsec)
		}
	}
	return bytes.Compare(x.loc, y.loc)
}

// next returns the least record left, valid until the next call, or
// io.EOF.
func (m *rawRuns) next() ([]byte, error) {
	if m.err != nil {
		return nil, m.err
	}
	if w := m.last; w >= 0 {
		m.last = -1
		if m.err = m.read(w); m.err != nil {
			return nil, m.err
		}
		m.replay(w)
	}
	w, ok := m.winner()
	if !ok {
		return nil, io.EOF
	}
	m.last = w
	return m.heads[w].rec, nil
}

// rawBatchBytes is about how many bytes of records a batch of a rawPipe
// holds.
const rawBatchBytes = 64 << 10

// rawPipe merges runs on a goroutine of its own and hands the records over
// in batches, still encoded: they are decoded where they are read, so that
// the strings of an entry are made on the goroutine that reads them.
type rawPipe struct {
	batches chan rawBatch
	free    chan []byte // batches the reader is done with, to fill again
	stop    chan struct{}
	done    sync.WaitGroup
	cur     rawBatch
	off     int // where the next record starts in cur
	dec     spool.Decoder
	err     error
}

type rawBatch struct {
	recs []byte
	err  error // after the records: io.EOF or the error that ended the merge
}

// pipeRuns starts merging m on a goroutine of its own, a few batches
// ahead. Close stops it; it must be called.
func pipeRuns(m *rawRuns) *rawPipe {
	p := &rawPipe{batches: make(chan rawBatch, 4), free: make(chan []byte, 6), stop: make(chan struct{})}
	p.done.Add(1)
	go p.run(m)
	return p
}

func (p *rawPipe) run(m *rawRuns) {
	defer p.done.Done()
	defer close(p.batches)
	for {
		var b rawBatch
		select {
		case b.recs = <-p.free:
		default:
			b.recs = make([]byte, 0, rawBatchBytes)
		}
		for len(b.recs) < rawBatchBytes*3/4 {
			rec, err := m.next()
			if err != nil {
				b.err = err
				break
			}
			b.recs = append(b.recs, rec...)
		}
		select {
		case p.batches <- b:
			if b.err != nil {
				return // the last
			}
		case <-p.stop:
			return
		}
	}
}

// nextInto decodes the next entry into *it.
func (p *rawPipe) nextInto(it *Item) error {
	for p.off == len(p.cur.recs) {
		if p.err != nil {
			return p.err
		}
		if cap(p.cur.recs) > 0 {
			select {
			case p.free <- p.cur.recs[:0]: // the decoded strings were copied out
			default:
			}
		}
		b, ok := <-p.batches
		if !ok {
			b.err = io.EOF
		}
		p.cur, p.off, p.err = b, 0, b.err
	}
	var r spool.Record
	n, err := p.dec.Decode(p.cur.recs[p.off:], &r)
	if err != nil {
		p.err = err
		return err
	}
	p.off += n
	*it = Item{Entry: r.Entry, Input: r.Input}
	return nil
}

// next returns the next entry.
func (p *rawPipe) next() (formats.Entry, error) {
	var it Item
	err := p.nextInto(&it)
	return it.Entry, err
}

// Close stops the goroutine.
func (p *rawPipe) Close() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.done.Wait()
}
