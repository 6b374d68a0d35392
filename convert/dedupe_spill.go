package convert

import (
	"cmp"
	"io"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/partition"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// Dedupe past its memory cap. While the table of pages (and the list of
// winners that replaced a page's first entry) fit in DedupeOptions.MaxMemory,
// a merger works in memory as described in dedupe.go. When the next entry
// would take it past the cap, it spills:
//
//   - every page read so far goes to a partition by its hash, as its
//     winner so far (or, of a plain merger, its key alone, marked as given
//     already), with the order of its first appearance;
//   - every entry read after goes to its partition in the same way, in
//     order, with its own order of appearance;
//   - once all is read, each partition is deduped on its own, in memory
//     (the same policy, fold, entry after entry in the order they came),
//     or split again on the next bits of the hash when it is too large;
//     each gives its pages in the order of their first appearance, as a
//     run of a results spool;
//   - the runs are merged by that order.
//
// So the pages, their winners and their order are those of the merger in
// memory; only the order in which the observer is told of the merges
// differs. Every file is removed as soon as it is made, and closed on
// every way out (Close), so nothing is left behind, and at most 16 files a
// level of splitting, plus two, are open at once.

// flagGiven marks a partition record of a page a plain merger gave before
// it spilled: it only tells later entries of the page that they are
// duplicates. Its loc is the page's key.
const flagGiven = 1 << 2

// spill is the state of a merger that spilled.
type spill struct {
	m       *merger
	parts   partition.Set
	seq     int64       // the order of appearance of the next entry
	results *spool.File // the pages of each partition, in runs
	bounds  []int64     // where each run starts, then the end of the last
}

// leafPage is a page of a partition deduped in memory.
type leafPage struct {
	seq   int64 // the order of its first appearance
	hash  uint64
	flags uint8
	input int
	e     formats.Entry
}

// minLeafBytes is the least memory a partition is deduped in: splitting
// smaller ones costs more in files than it saves.
const minLeafBytes = 32 << 10

// leafPageBytes is what a page of a partition deduped in memory is counted
// to take beside its record's bytes: the page and its index entry.
const leafPageBytes = int64(unsafe.Sizeof(leafPage{})) + 48

// over reports whether taking one more page in memory would take the
// table, the moves and the keys held in memory past the memory cap.
func (m *merger) over() bool {
	n := m.pageTable().bytesToAdd() + int64(cap(m.moves))*int64(unsafe.Sizeof(move{}))
	if m.pages != nil {
		n += m.pages.MemBytes()
	}
	return n > m.budget
}

// batchFits reports whether the pages of the keys, each taken as a new
// page, fit in memory under the cap with the table as large as it is:
// then none needs the check of room, one by one.
func (m *merger) batchFits(keys []string) bool {
	t := m.pageTable()
	if m.spill != nil || !t.holds(len(keys)) {
		return false
	}
	n := t.bytes()
	if m.pages != nil {
		n += m.pages.MemBytes()
	}
	for _, k := range keys {
		n += int64(len(k)) + spool.MaxKeyFraming
	}
	return n <= m.budget
}

// inMemory reports whether the next entry is deduped in memory; once the
// cap is reached it starts the spill and says no.
func (m *merger) inMemory() (bool, error) {
	if m.spill != nil {
		return false, nil
	}
	if ok, err := m.room(); ok || err != nil {
		return ok, err
	}
	return false, m.startSpill()
}

// room reports whether one more page fits in memory under the cap, the
// keys held in memory moving to their file first when that makes room for
// the table.
func (m *merger) room() (bool, error) {
	if !m.over() {
		return true, nil
	}
	if m.pages == nil || m.pages.MemBytes() == 0 {
		return false, nil
	}
	if err := m.pages.ToFile(); err != nil {
		return false, err
	}
	return !m.over(), nil
}

// startSpill moves the pages read so far to partitions.
func (m *merger) startSpill() error {
	parts, err := partition.New(m.tempDir)
	if err != nil {
		return err
	}
	s := &spill{m: m, parts: parts}
	m.spill = s
	if m.plain {
		return s.givePages()
	}
	if m.sp == nil {
		return nil
	}
	s.seq = m.sp.Size() // beyond the offset of every page so far
	m.table.free()      // first: the heap grows as the pages move
	m.fallback = nil
	if err := m.settle(); err != nil {
		return err
	}
	for {
		var w spool.Record
		first, err := m.nextPage(&w)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		w.Flags, w.Link = 0, first
		if err := s.parts.Append(&w, 0); err != nil {
			return err
		}
	}
	m.sc, m.moves = nil, nil
	err = m.sp.Close()
	m.sp = nil
	return err
}

// givePages moves the pages of a plain merger to partitions: every page in
// its spool was given (or is ready to be), so its key tells later entries
// that they are duplicates.
func (s *spill) givePages() error {
	m := s.m
	if m.pages == nil {
		return nil
	}
	s.seq = m.pages.Size() // beyond the offset of every page so far
	m.table.free()         // first: the heap grows as the pages move
	m.ptable.free()
	m.fallback = nil
	err := m.pages.Each(func(off int64, key []byte, input int) error {
		k := string(key)
		return s.parts.Append(&spool.Record{Flags: flagGiven, Hash: m.hashOf(k), Input: input, Link: off, Entry: formats.Entry{Loc: k}}, 0)
	})
	if cerr := m.pages.Close(); err == nil {
		err = cerr
	}
	m.pages = nil
	return err
}

// add puts an entry whose key has hash h in its partition.
func (s *spill) add(it *Item, h uint64) error {
	s.seq++
	return s.parts.Append(&spool.Record{Hash: h, Input: it.Input, Link: s.seq, Entry: it.Entry}, 0)
}

// finishPlainSpill reads the rest of a plain merger's source into the
// spill, then dedupes it.
func (m *merger) finishPlainSpill() error {
	for m.end == nil {
		var items []Item
		if p, ok := m.src.(*Prefetcher); ok {
			items, m.end = p.nextBatch()
		} else {
			it, err := m.src.NextItem()
			if err != nil {
				m.end = err
				break
			}
			items = []Item{it}
		}
		for i := range items {
			if err := m.spill.add(&items[i], m.hashOf(items[i].keyUnder(m.norm))); err != nil {
				return err
			}
		}
	}
	if m.end != io.EOF {
		return m.end
	}
	return m.finishSpill()
}

// finishSpill dedupes each partition, then merges their pages in order.
func (m *merger) finishSpill() error {
	s := m.spill
	var err error
	if s.results, err = spool.New(m.tempDir); err != nil {
		return err
	}
	for i, p := range s.parts {
		if err := s.part(p, 1); err != nil {
			return err
		}
		s.parts[i] = nil
	}
	s.parts = nil
	s.bounds = append(s.bounds, s.results.Size())
	results := s.results
	s.results = nil
	m.out, err = mergeRuns(results, s.bounds, func(a, b *spool.Record) int { return cmp.Compare(a.Link, b.Link) }, m.tempDir)
	return err
}

// part dedupes the partition p of a split at level-1: in memory when it
// fits in half the cap (its records, decoded, and a page for each; 32 KiB
// at least), else by splitting it again.
func (s *spill) part(p *partition.Part, level int) error {
	defer p.Close()
	if p.Bytes()+int64(p.Len())*leafPageBytes <= max(s.m.budget/2, minLeafBytes) || !p.Mixed() || level >= partition.MaxLevel {
		return s.leaf(p)
	}
	sub, err := p.Split(s.m.tempDir, level)
	if err != nil {
		return err
	}
	defer sub.Close()
	for _, q := range sub {
		if err := s.part(q, level+1); err != nil {
			return err
		}
	}
	return nil
}

// leaf dedupes the partition p in memory and appends its pages to the
// results, in order, as one run.
func (s *spill) leaf(p *partition.Part) error {
	m := s.m
	hint := 1 // a partition of one hash holds one page, or a few that collide
	if p.Mixed() {
		hint = int(min(int64(p.Len()), max(m.budget/2, minLeafBytes)/leafPageBytes))
	}
	index := make(map[uint64]int32, hint)
	var pages []leafPage
	var fallback map[string]int32 // pages whose hash another page has, by key
	key := func(flags uint8, loc string) string {
		if flags&flagGiven != 0 {
			return loc
		}
		return m.norm.URL(loc)
	}
	err := p.Each(func(r *spool.Record) error {
		i, seen := index[r.Hash]
		if !seen {
			index[r.Hash] = int32(len(pages))
			pages = append(pages, leafPage{seq: r.Link, hash: r.Hash, flags: r.Flags, input: r.Input, e: r.Entry})
			return nil
		}
		if k := key(r.Flags, r.Entry.Loc); key(pages[i].flags, pages[i].e.Loc) != k {
			// Another page has this hash: this page is kept by key.
			if i, seen = fallback[k]; !seen {
				if fallback == nil {
					fallback = map[string]int32{}
				}
				fallback[k] = int32(len(pages))
				pages = append(pages, leafPage{seq: r.Link, hash: r.Hash, flags: r.Flags, input: r.Input, e: r.Entry})
				return nil
			}
		}
		pg := &pages[i]
		pg.e, pg.input, _ = m.fold(pg.e, pg.input, r.Entry, r.Input)
		return nil
	})
	if err != nil {
		return err
	}
	s.bounds = append(s.bounds, s.results.Size())
	for i := range pages {
		pg := &pages[i]
		if pg.flags&flagGiven != 0 {
			continue
		}
		if _, err := s.results.Append(&spool.Record{Hash: pg.hash, Input: pg.input, Link: pg.seq, Entry: pg.e}); err != nil {
			return err
		}
	}
	return nil
}

// nextSpilled returns the next page of a merger that spilled.
func (m *merger) nextSpilled() (Item, error) {
	r, err := m.out.next()
	if err != nil {
		if err != io.EOF {
			m.err = err
		}
		return Item{}, err
	}
	return Item{Entry: r.Entry, Input: r.Input}, nil
}

// close removes every file of the spill.
func (s *spill) close() {
	s.parts.Close()
	if s.results != nil {
		s.results.Close()
	}
}
