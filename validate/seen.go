package validate

import (
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
)

// The duplicate-url and url-twins rules remember the URLs of a run in one
// table. A URL's normal form is "scheme://[www.]rest" (or a string that is
// no http(s) URL); its twins share rest, and differ by their version: the
// scheme and the "www." prefix. A URL is known by its page id (pageID): a
// 62-bit hash of rest with the version in the low two bits, so that one
// probe of the table finds both the URL itself (same id) and its twins
// (same hash, another version). 16 bytes a slot, in a table kept at most
// 13/16 full (32 MiB for DefaultMaxRemembered URLs): every probe misses
// the cache, and a smaller table misses it less; probes stay short.

// The versions of a URL, in the low bits of its page id.
const (
	versionHTTP = 1 << iota // http://, not https://
	versionWWW              // the host starts with "www."
	versionBits = versionHTTP | versionWWW
)

// pageID returns the page id of a normal form key.
func (v *Validator) pageID(key string) uint64 {
	var h, version uint64
	if rest, ok := cutSchemeHTTP(key); ok {
		if len(key)-len(rest) == len("http://") {
			version |= versionHTTP
		}
		if r, ok := strings.CutPrefix(rest, "www."); ok {
			version |= versionWWW
			rest = r
		}
		h = maphash.String(v.seed, rest)
	} else {
		// Not an http(s) URL: it has no twins, and its hash is of
		// another seed, so that it is never taken for a rest.
		h = maphash.String(v.otherSeed, key)
	}
	id := h&^versionBits | version
	if id>>2 == 0 {
		id |= 1 << 2 // 0 marks an empty slot
	}
	return id
}

// seenTable maps page ids to where the page was first listed, by open
// addressing with linear probing: the ids of the versions of one URL share
// their first slot, so that the probe that looks for an id passes every
// version of it remembered.
//
// A large table is kept out of the garbage-collected heap (package
// offheap), so that the heap does not grow by as much again before the
// collector runs: release returns it, and the Validator's cleanup does
// when the Validator is dropped.
type seenTable struct {
	slots []seenSlot
	n     int
	free  func() // returns slots to the system; nil for slots in the heap
}

// seenSlot is a remembered URL: its page id (0 when the slot is empty) and
// where it was first listed.
type seenSlot struct {
	id        uint64
	doc, line uint32
}

// find returns the slot of id, or the empty slot where it would go
// (slot.id == 0), and whether another version of the URL is remembered.
func (t *seenTable) find(id uint64) (slot *seenSlot, twin bool) {
	if len(t.slots) == 0 {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := (id >> 2) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch {
		case s.id == id:
			return s, twin
		case s.id == 0:
			return s, twin
		case s.id>>2 == id>>2:
			twin = true
		}
	}
}

// add remembers id at the empty slot find returned.
func (t *seenTable) add(slot *seenSlot, id uint64, doc, line uint32) {
	*slot = seenSlot{id, doc, line}
	t.n++
	if 16*t.n > 13*len(t.slots) {
		t.grow()
	}
}

// reserve makes an empty table large enough for n URLs, so that it does
// not grow to hold them.
func (t *seenTable) reserve(n int) {
	if len(t.slots) > 0 || n <= 0 {
		return
	}
	size := 1024
	for 13*size < 16*(n+1) {
		size *= 2
	}
	t.slots, t.free = offheap.MakeTable[seenSlot](size)
}

// release empties the table and returns its memory.
func (t *seenTable) release() {
	if t.free != nil {
		t.free()
	}
	*t = seenTable{}
}

// grow doubles the table.
func (t *seenTable) grow() {
	old, free := t.slots, t.free
	t.free = nil
	// Four times as large while small, so that a document's table is
	// copied less on the way (and allocates less: 1.3 times its final size
	// instead of 2); twice as large from 64K slots.
	n := max(1024, 2*len(old))
	if len(old) < 1<<16 {
		n = max(1024, 4*len(old))
	}
	// Small tables stay in the heap (offheap.MinBytes), which reuses
	// their memory (a check of each input of a strict conversion has a
	// table of its own).
	t.slots, t.free = offheap.Make[seenSlot](n)
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.id == 0 {
			continue
		}
		i := (s.id >> 2) & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
	if free != nil {
		free()
	}
}

// checkSeen applies duplicate-url and url-twins to s, whose normal form
// is key (with scope, see seenURL), remembering the URL.
func (d *doc) checkSeen(s, key string, scope int, line, col int, what string) {
	v := d.v
	id := v.pageID(key)
	if d.x != nil {
		d.x.seen = seenURL{s, key, id, scope}
	}
	slot, twin := v.seen.find(id)
	if slot.id == id {
		where := "in this file"
		if slot.doc != d.id {
			where = "in " + v.docs[slot.doc]
		}
		if slot.line > 0 {
			where += fmt.Sprintf(" (line %d)", slot.line)
		}
		d.reportAt(ruleDuplicateURL, line, col, "%s %s is listed before %s", what, clip(s), where)
		return
	}
	if v.seen.n < v.opts.MaxRemembered {
		v.seen.add(slot, id, d.id, uint32(line))
	} else {
		v.forgot++
	}
	if twin {
		d.reportAt(ruleURLTwins, line, col, "%s %s is another version (http/https or www.) of a URL listed before", what, clip(s))
	}
}
