package convert

import (
	"cmp"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// The dedupe policy. Entries are the same page when their keys (the
// normalized URL, see package normalize) are equal. Of the entries of one
// page:
//
//   - the winner is the one with the newest lastmod; a known lastmod is newer
//     than an unknown one, and on a tie the earlier entry (earlier input, or
//     earlier in the same input) wins, so a page whose lastmod did not change
//     keeps its old entry;
//   - loc, lastmod, changefreq and priority are the winner's;
//   - extension data is the union of all of theirs (Extensions.Merge in formats:
//     lists united, the winner's items first; news and the mobile marker
//     the winner's, else the first that has one);
//   - the title and summary are the winner's, else the first given;
//   - the page is written where it first appeared.
//
// Memory. Entries go to a spool file as they are read; memory holds, per
// distinct page, a 64-bit hash of its key and the offset of its first
// record: 16 bytes in a table kept between 41% and 81% full, outside the
// garbage-collected heap where the system allows, so 20 to 40 bytes per
// page, and at most 60 while the table grows. An entry that replaces the
// winner of its page adds 16 bytes (the page's first offset and the new
// winner's). Two keys with the same hash are told apart by comparing the
// keys themselves (the stored record is read back), so a hash collision
// never merges two pages.
//
// When no input can give a lastmod, extension data, a title or a summary
// (text lists), the first entry of a page always wins as it is: it is given
// as soon as it is read, and only its key and input are kept (spool.Keys),
// in memory up to half of the cap (keysInMemory), then in a file: a
// duplicate reads its page's key back with no system call while they fit.
// The keys in memory count in the cap; when the table needs their room,
// they move to the file before anything spills. When how many pages to
// expect is known (local inputs), the table of such pages holds part of
// each hash and the offset of the key, in 8 bytes a slot (10 to 20 bytes a
// page), and grows by reading the keys again (keyTable).

// Record flags in the spool.
const (
	flagFirst    = 1 << iota // the first entry of its page: where the page is written
	flagCollided             // its hash is taken by another key: look it up by key
)

// merger deduplicates a stream of entries through a spool: Next reads the
// whole source on its first call, then returns the winners in order.
type merger struct {
	src      Stream
	norm     *normalize.Options // the rules of the key: the normal form
	obs      Observer           // told of each entry merged away
	tempDir  string
	sp       *spool.File
	pages    *spool.Keys // of a plain merger, instead of sp: the key and input of each page's first entry
	table    table
	ptable   keyTable         // of a keyed merger, instead of table
	keyed    bool             // a plain merger told how many pages to expect: its table is ptable
	fallback map[string]int64 // of a spooling merger, first offsets of pages whose hash collided with another page's
	moves    []move           // winners that replaced a page's first entry, in the order they did
	hashSeed maphash.Seed
	hash     func(string) uint64 // instead of maphash with hashSeed, when not nil (tests)
	sc       *spool.Scanner
	page     spool.Record // the page nextPage read last
	err      error
	// plain is set when no entry can carry a lastmod, extension data, a
	// title or a summary (text inputs): then the first entry of a page
	// always wins unchanged, so it is given at once and only its key and
	// input are kept, in pages (see nextPlain).
	plain  bool
	batch  []Item   // of a plain merger, the batch read last
	own    []Item   // the memory of batch, when the merger fills it itself
	ready  []int32  // the new pages of batch, by index
	next   int      // the next of ready to give
	end    error    // of a plain merger, what ended the source
	keys   []string // the keys of the batch being read
	hashes []uint64 // and their hashes
	// budget is the bytes the table and moves may take; past it, the
	// merger spills (see dedupe_spill.go), and a partition deduped in
	// memory takes at most half of it.
	budget int64
	spill  *spill // once spilled
	out    *runs  // the pages of a spill, in order, once all is read
}

// move records that the page first seen at offset first is now won by the
// record at offset winner.
type move struct{ first, winner int64 }

func newMerger(src Stream, norm *normalize.Options, obs Observer, tempDir string) *merger {
	return &merger{src: src, norm: norm, obs: observer(obs), tempDir: tempDir, budget: DefaultMaxMemory,
		hashSeed: maphash.MakeSeed()}
}

// merged tells the observer of the entry at loc from input loser merged
// into the entry of input winner.
func (m *merger) merged(loser, winner int, loc string) {
	m.obs.Dropped(Drop{From: loser, Into: winner, Loc: loc, Rule: RuleDuplicate})
}

// Close removes the spool and every file of a spill.
func (m *merger) Close() error {
	if m.spill != nil {
		m.spill.close()
	}
	if m.out != nil {
		m.out.Close()
	}
	m.release()
	if m.sp != nil {
		return m.sp.Close()
	}
	return nil
}

// Next returns the next page.
func (m *merger) Next() (formats.Entry, error) {
	it, err := m.NextItem()
	return it.Entry, err
}

// NextItem returns the next page with the input of its winning entry.
func (m *merger) NextItem() (Item, error) {
	if m.err == nil && m.out == nil && m.plain {
		var it Item
		err := m.nextPlain(&it)
		return it, err
	}
	return m.nextItem()
}

func (m *merger) nextInto(it *Item) (err error) {
	if m.err == nil && m.out == nil {
		switch {
		case m.plain:
			return m.nextPlain(it)
		case m.sc != nil:
			return m.pageInto(it)
		}
	}
	*it, err = m.nextItem()
	return err
}

func (m *merger) nextItem() (Item, error) {
	if m.err != nil {
		return Item{}, m.err
	}
	if m.out != nil {
		return m.nextSpilled()
	}
	if m.sc == nil {
		if err := m.collect(); err != nil {
			m.err = err
			return Item{}, err
		}
		if m.out != nil {
			return m.nextSpilled()
		}
	}
	var it Item
	err := m.pageInto(&it)
	return it, err
}

// pageInto fills *it with the next page of the spool, once collected, and
// the input of its winning entry.
func (m *merger) pageInto(it *Item) error {
	if _, err := m.nextPage(&m.page); err != nil {
		if err != io.EOF {
			m.err = err
		}
		return err
	}
	*it = Item{Entry: m.page.Entry, Input: m.page.Input}
	return nil
}

// nextPage reads the next page of the spool, once collected, into *w: its
// winning record; it returns the offset of the page's first record.
func (m *merger) nextPage(w *spool.Record) (int64, error) {
	for {
		if err := m.sc.NextInto(w); err != nil {
			return 0, err
		}
		if w.Flags&flagFirst == 0 {
			continue
		}
		first := w.Off
		for len(m.moves) > 0 && m.moves[0].first < first {
			m.moves = m.moves[1:]
		}
		if len(m.moves) == 0 || m.moves[0].first != first {
			return first, nil
		}
		var err error
		*w, err = m.sp.ReadAt(m.moves[0].winner)
		return first, err
	}
}

// collect reads the whole source into the spool, keeping per page the
// offset of its winning record; past the memory cap, into a spill.
func (m *merger) collect() error {
	sp, err := spool.New(m.tempDir)
	if err != nil {
		return err
	}
	m.sp = sp
	if p, ok := m.src.(*Prefetcher); ok {
		err = m.collectBatches(p)
	} else {
		err = m.collectEntries()
	}
	if err != nil {
		return err
	}
	if m.spill != nil {
		return m.finishSpill()
	}
	return m.settle()
}

// settle makes the spool ready to be read in order, page by page
// (nextPage), once every entry is in.
func (m *merger) settle() error {
	m.table.free()
	m.fallback = nil
	// The last move of each page is its winner.
	slices.SortStableFunc(m.moves, func(a, b move) int { return cmp.Compare(a.first, b.first) })
	last := m.moves[:0]
	for _, mv := range m.moves {
		if n := len(last); n > 0 && last[n-1].first == mv.first {
			last[n-1] = mv
		} else {
			last = append(last, mv)
		}
	}
	m.moves = slices.Clip(last)
	var err error
	m.sc, err = m.sp.Scan()
	return err
}

func (m *merger) collectEntries() error {
	for {
		it, err := m.src.NextItem()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		k := it.keyUnder(m.norm)
		if err := m.take(&it, k, m.hashOf(k)); err != nil {
			return err
		}
	}
}

// collectBatches takes the entries of a Prefetcher a batch at a time: the keys
// and hashes of a batch first, then a read of each one's table slot, which
// the processor can overlap, and only then the inserts, which then find
// their slots in cache. The table is far larger than the cache, so this
// saves a memory round trip per entry.
func (m *merger) collectBatches(p *Prefetcher) error {
	var keys []string
	var hashes []uint64
	for {
		items, err := p.nextBatch()
		if err != nil && err != io.EOF {
			return err
		}
		keys, hashes = keys[:0], hashes[:0]
		for i := range items {
			k := items[i].keyUnder(m.norm)
			keys = append(keys, k)
			hashes = append(hashes, m.hashOf(k))
		}
		m.table.touch(hashes)
		for i := range items {
			if err := m.take(&items[i], keys[i], hashes[i]); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// nextPlain gives the next new page of a source whose entries cannot
// change once read: a page's first entry is given as soon as it is read,
// and a later entry of the page only counted as merged into it. pages
// holds each page's key and input, to tell two keys of one hash apart and
// to name the input a duplicate merged into; the table is as when entries
// are spooled.
// It fills *it in place.
func (m *merger) nextPlain(it *Item) (err error) {
	for m.next == len(m.ready) {
		if m.spill != nil {
			if err := m.finishPlainSpill(); err != nil {
				m.err = err
				return err
			}
			*it, err = m.nextSpilled()
			return err
		}
		if m.end != nil {
			if m.end != io.EOF {
				m.err = m.end
			}
			// Nothing is looked up after the last page: the table and
			// the keys go now, on this goroutine, while the writer ends
			// the output, rather than at Close.
			m.release()
			return m.end
		}
		if m.pages == nil {
			if err := m.newPages(); err != nil {
				m.err = err
				return err
			}
		}
		if err := m.readPlain(); err != nil {
			m.err = err
			return err
		}
	}
	*it = m.batch[m.ready[m.next]]
	it.forgetKey()
	m.next++
	return nil
}

// readPlain reads the next batch of the source, keeping its new pages in
// ready, as collectBatches does.
func (m *merger) readPlain() error {
	m.batch, m.ready, m.next = nil, m.ready[:0], 0
	var items []Item
	if p, ok := m.src.(*Prefetcher); ok {
		items, m.end = p.nextBatch()
		if m.end != nil && m.end != io.EOF {
			return m.end
		}
	} else {
		// Another step: a batch is read here, each entry in its place;
		// the entries before an error are given before it.
		if m.own == nil {
			m.own = make([]Item, 0, batchSize)
		}
		items, m.end = fillBatch(intoOf(m.src), m.own[:0])
	}
	m.batch = items
	keys, hashes := m.keys[:0], m.hashes[:0]
	for i := range items {
		k := items[i].keyUnder(m.norm)
		keys = append(keys, k)
		hashes = append(hashes, m.hashOf(k))
	}
	m.keys, m.hashes = keys, hashes
	m.pageTable().touch(hashes)
	fits := m.batchFits(keys) // then every page of the batch is in memory
	for i := range items {
		if !fits {
			inMemory, err := m.inMemory()
			if err != nil {
				return err
			}
			if !inMemory {
				if err := m.spill.add(&items[i], hashes[i]); err != nil {
					return err
				}
				continue
			}
		}
		isNew, err := m.addPlain(items[i].Entry.Loc, items[i].Input, keys[i], hashes[i])
		if err != nil {
			return err
		}
		if isNew {
			m.ready = append(m.ready, int32(i))
		}
	}
	clear(keys)
	return nil
}

// addPlain takes one entry of a plain source in and reports whether it is
// the first of its page.
func (m *merger) addPlain(loc string, input int, k string, h uint64) (bool, error) {
	isNew, firstInput, err := m.findPlain(input, k, h)
	if !isNew && err == nil {
		m.merged(input, firstInput, loc)
	}
	return isNew, err
}

// findPlain looks the key k, with hash h, up among the pages of a plain
// merger: a new page is added, with input; else it returns the input of
// the page's first entry.
func (m *merger) findPlain(input int, k string, h uint64) (isNew bool, firstInput int, err error) {
	if m.keyed {
		return m.findKeyed(input, k, h)
	}
	slot, found := m.table.findOrInsert(h)
	if !found {
		off, err := m.pages.Append(k, input)
		*slot = off
		return true, 0, err
	}
	first, firstInput, err := m.pages.At(*slot)
	if err != nil {
		return false, 0, err
	}
	if string(first) != k {
		// Another page has this hash: this page is kept by key.
		off, seen := m.fallback[k]
		if !seen {
			off, err := m.pages.Append(k, input)
			if m.fallback == nil {
				m.fallback = map[string]int64{}
			}
			m.fallback[strings.Clone(k)] = off // k may be a view (seed)
			return true, 0, err
		}
		if _, firstInput, err = m.pages.At(off); err != nil {
			return false, 0, err
		}
	}
	return false, firstInput, nil
}

// pageSlots is what the checks of memory and the reads ahead take of the
// table of a merger's pages, whichever it is (pageTable).
type pageSlots interface {
	holds(n int) bool
	bytes() int64
	bytesToAdd() int64
	touch(hashes []uint64)
}

// pageTable returns the table of the merger's pages: the key table of a
// keyed merger, the table otherwise.
func (m *merger) pageTable() pageSlots {
	if m.keyed {
		return &m.ptable
	}
	return &m.table
}

// seed takes in, before a plain merger reads its source, pages given
// already, whose keys are their locs: a later entry of one of them is its
// duplicate. Of the entries of a page, the first is taken in, and the
// others are not told of. It returns false, once the pages would take the
// merger past its memory cap; the merger must then not be used but to be
// closed.
func (m *merger) seed(locs []string, inputs []int) (bool, error) {
	if m.pages == nil {
		if err := m.newPages(); err != nil {
			return false, err
		}
	}
	hashes := m.hashes[:0]
	for _, loc := range locs {
		hashes = append(hashes, m.hashOf(loc))
	}
	m.hashes = hashes
	m.pageTable().touch(hashes)
	for i, loc := range locs {
		if ok, err := m.room(); !ok || err != nil {
			return false, err
		}
		if _, _, err := m.findPlain(inputs[i], loc, hashes[i]); err != nil {
			return false, err
		}
	}
	return true, nil
}

// newPages makes the spool of the keys of a plain merger's pages.
func (m *merger) newPages() error {
	pages, err := spool.NewKeys(m.tempDir, keysInMemory(m.budget))
	if err != nil {
		return err
	}
	m.pages = pages
	return nil
}

// release gives back the memory of the table and, of a plain merger, the
// memory and the spool file of its keys; what is looked up after finds
// nothing. Called more than once, it does nothing more.
func (m *merger) release() {
	m.table.free()
	m.ptable.free()
	m.fallback = nil
	if m.pages != nil {
		m.pages.Close()
		m.pages = nil
	}
}

// keysInMemory returns how many bytes of keys a plain merger with the
// memory cap budget keeps in memory before it writes them to a file: half
// of the cap (where the address space is large; none where it is not). A
// lookup of a key in memory costs no system call: the first entry of a page
// is read back for each duplicate. With the default cap (1 GiB), the keys
// of 10M URLs of one site (380 MB) and their table (128 MiB) fit: with a
// quarter, the keys went to the file at 6.7M URLs, and 10M URLs to a split
// index took 2.50 s instead of 1.96 (medians of 5 alternating runs; peak
// 547 MiB instead of 707).
func keysInMemory(budget int64) int {
	if math.MaxInt < 1<<40 {
		return 0
	}
	return int(budget / 2)
}

// hashOf returns the hash of a key, never 0 (which marks an empty slot).
func (m *merger) hashOf(k string) uint64 {
	var h uint64
	if m.hash != nil {
		h = m.hash(k)
	} else {
		h = maphash.String(m.hashSeed, k)
	}
	if h != 0 {
		return h
	}
	return 1
}

// take takes one entry in, with its key and the key's hash: into the
// spool and the table (add), or into the spill past the memory cap.
func (m *merger) take(it *Item, k string, h uint64) error {
	inMemory, err := m.inMemory()
	switch {
	case err != nil:
		return err
	case !inMemory:
		return m.spill.add(it, h)
	}
	return m.add(it.Entry, it.Input, k, h)
}

// add takes one entry in, with its key and the key's hash: a new page is
// appended to the spool; a page seen before is merged with its winner.
func (m *merger) add(e formats.Entry, input int, k string, h uint64) error {
	slot, found := m.table.findOrInsert(h)
	if !found {
		off, err := m.sp.Append(&spool.Record{Flags: flagFirst, Hash: h, Input: input, Entry: e})
		*slot = off
		return err
	}
	w, err := m.sp.ReadAt(*slot)
	if err != nil {
		return err
	}
	if m.norm.URL(w.Entry.Loc) != k {
		// Another page has this hash: this page is kept by key.
		off, seen := m.fallback[k]
		if !seen {
			off, err := m.sp.Append(&spool.Record{Flags: flagFirst | flagCollided, Hash: h, Input: input, Entry: e})
			if m.fallback == nil {
				m.fallback = map[string]int64{}
			}
			m.fallback[k] = off
			return err
		}
		if w, err = m.sp.ReadAt(off); err != nil {
			return err
		}
		slot = &off
		defer func() { m.fallback[k] = off }()
	}
	return m.merge(slot, w, e, input)
}

// merge merges e, from input, into the page whose winning record is w, at
// offset *slot; a new winner's offset goes to *slot.
func (m *merger) merge(slot *int64, w spool.Record, e formats.Entry, input int) error {
	winner, winInput, changed := m.fold(w.Entry, w.Input, e, input)
	if !changed {
		return nil // the stored winner stays as it is
	}
	first := w.Off
	if w.Flags&flagFirst == 0 {
		first = w.Link
	}
	off, err := m.sp.Append(&spool.Record{Hash: w.Hash, Input: winInput, Link: first, Entry: winner})
	*slot = off
	m.moves = append(m.moves, move{first, off})
	return err
}

// fold merges e, from input, into the page whose winner so far is w, from
// wInput, by the dedupe policy, and tells the observer: it returns the
// page's winner now, its input, and whether it is other than w.
func (m *merger) fold(w formats.Entry, wInput int, e formats.Entry, input int) (formats.Entry, int, bool) {
	winner, loser := w, e
	winInput, loseInput := wInput, input
	newer := e.LastMod.Newer(w.LastMod)
	if newer {
		winner, loser = e, w
		winInput, loseInput = input, wInput
	}
	m.merged(loseInput, winInput, loser.Loc)
	changed := false
	if !loser.Ext.IsEmpty() {
		if x := winner.Ext.Merge(loser.Ext); grew(winner.Ext, x) {
			winner.Ext, changed = x, true
		}
	}
	if winner.Title == "" && loser.Title != "" {
		winner.Title, changed = loser.Title, true
	}
	if winner.Summary == "" && loser.Summary != "" {
		winner.Summary, changed = loser.Summary, true
	}
	return winner, winInput, newer || changed
}

// grew reports whether the union u of a's extension data with another's
// holds more than a: union only adds.
func grew(a, u *formats.Extensions) bool {
	if a == nil {
		return !u.IsEmpty()
	}
	return len(u.Images) > len(a.Images) || len(u.Videos) > len(a.Videos) || len(u.Alternates) > len(a.Alternates) ||
		len(u.Foreign) > len(a.Foreign) || u.News != nil && a.News == nil || u.Mobile && !a.Mobile
}

// DedupeOptions configure Dedupe.
type DedupeOptions struct {
	// Normalize holds the optional URL rules: entries are the same page
	// when their locs have the same normal form under them (nil: the
	// always-on rules of package normalize). An entry that carries its
	// normal form under the same rules (Rewrite's) is not normalized
	// again.
	Normalize *normalize.Options
	// TempDir is where the spool file is kept; "" is the system's
	// temporary directory.
	TempDir string
	// Plain says no entry carries anything a later entry of its page could
	// replace or add to (no lastmod, extension data, title or summary: the
	// entries of text lists), so that the first entry of each page is
	// given as soon as it is read, instead of once all are.
	Plain bool
	// Pages is how many pages to expect, to size the table of pages at
	// once (a guess; 0 when unknown).
	Pages int
	// MaxMemory bounds the memory of the dedupe, in bytes: the table of
	// pages (20 to 40 bytes a page; 10 to 20 when Plain and Pages is
	// known), the winners that
	// replaced a page's first entry (16 bytes each) and, when Plain, the
	// keys kept in memory (up to half of MaxMemory, then in a file). Past it, entries spill to
	// partitions on disk, each deduped on its own in at most half of
	// MaxMemory, and the output is the same. 0 is DefaultMaxMemory.
	MaxMemory int64
}

// DefaultMaxMemory is the memory cap of Dedupe when none is given: 1 GiB,
// about 27 million pages deduped in memory before it spills.
const DefaultMaxMemory = 1 << 30

// Deduper is the step that gives each page of another reader once, by the
// dedupe policy of this package. Close it to remove its spool file.
type Deduper struct{ *merger }

// Dedupe returns a reader of the entries of r with each page once, each
// with the input of its winning entry. obs, when not nil, is told of each
// entry merged into another (RuleDuplicate, with the inputs of both).
//
// Dedupe reads all of r, into a spool file, on the first call to Next,
// unless opts.Plain; past opts.MaxMemory, into partitions on disk.
func Dedupe(r formats.Reader, opts DedupeOptions, obs Observer) *Deduper {
	m := newMerger(stream(r), opts.Normalize, obs, opts.TempDir)
	m.plain = opts.Plain
	if opts.MaxMemory > 0 {
		m.budget = opts.MaxMemory
	}
	if m.plain && opts.Pages > 0 {
		m.keyed = true
		m.ptable.reserve(opts.Pages, m.budget)
	} else {
		m.table.reserve(opts.Pages, m.budget)
	}
	return &Deduper{m}
}

// shares is how Options.MaxMemory is shared out between the steps that
// hold entries or pages in memory.
type shares struct{ dedupe, sort int64 }

// memory shares MaxMemory out: with a sort, the sort's runs take a
// quarter of it, up to 32 MiB (a larger run saves little), and the dedupe
// the rest; without, the dedupe all of it.
func (o *Options) memory() shares {
	total := o.MaxMemory
	if total <= 0 {
		total = DefaultMaxMemory
	}
	if o.Sort == SortNone {
		return shares{dedupe: total}
	}
	sort := min(total/4, sortRunBytes)
	return shares{dedupe: total - sort, sort: sort}
}
