package convert

import (
	"hash/maphash"
	"io"
	"slices"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
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
//   - extension data is the union of all of theirs (images, videos and
//     alternates deduplicated, the winner's first; news is the winner's,
//     else the first that has one);
//   - the page is written where it first appeared.
//
// Memory. Entries go to a spool file as they are read; memory holds, per
// distinct page, a 64-bit hash of its key and the offset of its winning
// record: 16 bytes in a table kept between 41% and 81% full, so 20 to 40
// bytes per page, and at most 60 while the table grows. Two keys with the
// same hash are told apart by comparing the keys themselves (the stored
// record is read back), so a hash collision never merges two pages.

// Record flags in the spool.
const (
	flagFirst    = 1 << iota // the first entry of its page: where the page is written
	flagCollided             // its hash is taken by another key: look it up by key
)

// merger deduplicates a stream of entries through a spool: Next reads the
// whole source on its first call, then returns the winners in order.
type merger struct {
	src      source
	key      func(string) string
	merged   func(input int) // called for each entry merged away, with its input
	tempDir  string
	sp       *spool.File
	table    table
	fallback map[string]int64 // pages whose hash collided with another page's
	hash     func(string) uint64
	sc       *spool.Scanner
	err      error
}

// source is a stream of entries that knows which input the last one came
// from.
type source interface {
	formats.Reader
	Input() int
}

func newMerger(src source, key func(string) string, merged func(int), tempDir string) *merger {
	seed := maphash.MakeSeed()
	return &merger{src: src, key: key, merged: merged, tempDir: tempDir,
		hash: func(k string) uint64 { return maphash.String(seed, k) }}
}

// Close removes the spool.
func (m *merger) Close() error {
	if m.sp != nil {
		return m.sp.Close()
	}
	return nil
}

func (m *merger) Next() (formats.Entry, error) {
	if m.err != nil {
		return formats.Entry{}, m.err
	}
	if m.sc == nil {
		if err := m.collect(); err != nil {
			m.err = err
			return formats.Entry{}, err
		}
	}
	for {
		r, err := m.sc.Next()
		if err != nil {
			if err != io.EOF {
				m.err = err
			}
			return formats.Entry{}, err
		}
		if r.Flags&flagFirst == 0 {
			continue
		}
		var win int64
		if r.Flags&flagCollided != 0 {
			win = m.fallback[m.key(r.Entry.Loc)]
		} else {
			win = *m.table.find(r.Hash)
		}
		if win == r.Off {
			return r.Entry, nil
		}
		w, err := m.sp.ReadAt(win)
		if err != nil {
			m.err = err
			return formats.Entry{}, err
		}
		return w.Entry, nil
	}
}

// collect reads the whole source into the spool, keeping per page the
// offset of its winning record.
func (m *merger) collect() error {
	sp, err := spool.New(m.tempDir)
	if err != nil {
		return err
	}
	m.sp = sp
	for {
		e, err := m.src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := m.add(e, m.src.Input()); err != nil {
			return err
		}
	}
	m.sc, err = m.sp.Scan()
	return err
}

// add takes one entry in: a new page is appended to the spool; a page seen
// before is merged with its winner.
func (m *merger) add(e formats.Entry, input int) error {
	k := m.key(e.Loc)
	h := m.hash(k)
	if h == 0 {
		h = 1 // 0 marks an empty slot
	}
	slot := m.table.find(h)
	if slot == nil {
		off, err := m.sp.Append(&spool.Record{Flags: flagFirst, Hash: h, Input: input, Entry: e})
		m.table.insert(h, off)
		return err
	}
	w, err := m.sp.ReadAt(*slot)
	if err != nil {
		return err
	}
	if m.key(w.Entry.Loc) != k {
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
		fb := off
		slot = &fb
		defer func() { m.fallback[k] = fb }()
	}
	return m.merge(slot, w, e, input)
}

// merge merges e, from input, into the page whose winning record is w at
// *slot, updating *slot when the winner changes.
func (m *merger) merge(slot *int64, w spool.Record, e formats.Entry, input int) error {
	winner, loser := w.Entry, e
	winInput, loseInput := w.Input, input
	newer := formats.Newer(e.LastMod, w.Entry.LastMod)
	if newer {
		winner, loser = e, w.Entry
		winInput, loseInput = input, w.Input
	}
	if m.merged != nil {
		m.merged(loseInput)
	}
	ext, changed := unionExt(winner.Ext, loser.Ext)
	if !newer && !changed {
		return nil // the stored winner stays as it is
	}
	winner.Ext = ext
	off, err := m.sp.Append(&spool.Record{Hash: w.Hash, Input: winInput, Entry: winner})
	*slot = off
	return err
}

// maxImages is the protocol's limit on images per page.
const maxImages = 1000

// unionExt returns the union of the winner's extension data a and the
// loser's b, and whether it differs from a.
func unionExt(a, b *formats.Extensions) (*formats.Extensions, bool) {
	if b == nil {
		return a, false
	}
	if a == nil {
		c := *b
		return &c, true
	}
	u := *a
	changed := false
	for _, im := range b.Images {
		if len(u.Images) < maxImages && !slices.ContainsFunc(u.Images, func(x formats.Image) bool { return x.Loc == im.Loc }) {
			u.Images, changed = append(slices.Clip(u.Images), im), true
		}
	}
	for _, v := range b.Videos {
		if !slices.ContainsFunc(u.Videos, func(x formats.Video) bool { return x.ContentLoc == v.ContentLoc && x.PlayerLoc == v.PlayerLoc }) {
			u.Videos, changed = append(slices.Clip(u.Videos), v), true
		}
	}
	for _, al := range b.Alternates {
		if !slices.Contains(u.Alternates, al) {
			u.Alternates, changed = append(slices.Clip(u.Alternates), al), true
		}
	}
	if u.News == nil && b.News != nil {
		u.News, changed = b.News, true
	}
	if !changed {
		return a, false
	}
	return &u, true
}

// table maps 64-bit hashes (never 0) to offsets, by open addressing with
// linear probing, in 16 bytes a slot.
type table struct {
	slots []slot
	n     int
}

type slot struct {
	h   uint64
	off int64
}

// find returns the offset stored for h, to read or change, or nil.
func (t *table) find(h uint64) *int64 {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch s.h {
		case h:
			return &s.off
		case 0:
			return nil
		}
	}
}

// insert stores off for h, which must not be in the table.
func (t *table) insert(h uint64, off int64) {
	if (t.n+1)*16 > len(t.slots)*13 {
		t.grow()
	}
	t.put(h, off)
	t.n++
}

func (t *table) put(h uint64, off int64) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].h != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = slot{h, off}
}

func (t *table) grow() {
	old := t.slots
	t.slots = make([]slot, max(1024, 2*len(old)))
	for _, s := range old {
		if s.h != 0 {
			t.put(s.h, s.off)
		}
	}
}

// Deduper is a reader that gives each page of another reader once, by the
// dedupe policy of this package. Close it to remove its spool file.
type Deduper struct{ *merger }

// Dedupe returns a reader of the entries of r with each page once. Entries
// are the same page when key gives the same string for their locs (nil
// means Key). merged, when not nil, counts the entries merged away.
//
// Dedupe reads all of r, into a spool file in the system's temporary
// directory, on the first call to Next.
func Dedupe(r formats.Reader, key func(string) string, merged *int) *Deduper {
	if key == nil {
		key = Key
	}
	return &Deduper{newMerger(oneInput{r}, key, func(int) {
		if merged != nil {
			*merged++
		}
	}, "")}
}

// oneInput is a reader seen as a source of one input.
type oneInput struct{ formats.Reader }

func (oneInput) Input() int { return 0 }
