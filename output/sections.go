package output

import (
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// sectionBuffer is about how many bytes of entries the sections hold in
// memory, all together, before the largest go to the spool file.
var sectionBuffer = 16 << 20

// section is the entries of one section, in the order they were written:
// blocks of them in the spool, then those still in memory.
type section struct {
	key     string // what the SectionFunc returned
	name    string // in file names, once every section is known
	blocks  []span
	buf     []formats.Entry
	size    int // estimated bytes of buf
	entries int
}

// span is a block of consecutive records in the spool.
type span struct{ start, end int64 }

// sections groups the entries of a set by section, in bounded memory: each
// section keeps its latest entries in memory, and when they are more than
// sectionBuffer all together, the sections holding most write theirs to
// one spool file as a block. Memory holds a few words per section and per
// block, and the buffer; one file is open, whatever the number of
// sections.
type sections struct {
	of    SectionFunc
	byKey map[string]*section
	list  []*section
	sp    *spool.File
	held  int // estimated bytes in every section's buf
}

func newSections(of SectionFunc) *sections {
	return &sections{of: of, byKey: map[string]*section{}}
}

// entrySize estimates the memory an entry takes.
func entrySize(e *formats.Entry) int {
	n := len(e.Loc) + len(e.Title) + len(e.Summary) + 160
	if e.Ext != nil {
		n += 1024
	}
	return n
}

// add puts e at the end of its section.
func (g *sections) add(e formats.Entry) error {
	key := g.of(e.Loc)
	sec := g.byKey[key]
	if sec == nil {
		sec = &section{key: key}
		g.byKey[key] = sec
		g.list = append(g.list, sec)
	}
	sec.buf = append(sec.buf, e)
	sec.entries++
	n := entrySize(&e)
	sec.size += n
	if g.held += n; g.held > sectionBuffer {
		return g.spill()
	}
	return nil
}

// spill writes the buffers of the sections that hold at least half the
// mean of those holding any to the spool, each as a block: more than half
// of what was held goes, so that a section's blocks are not tiny.
func (g *sections) spill() error {
	if g.sp == nil {
		sp, err := spool.New("")
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		g.sp = sp
	}
	holding := 0
	for _, sec := range g.list {
		if sec.size > 0 {
			holding++
		}
	}
	least := g.held / (2 * holding)
	for _, sec := range g.list {
		if sec.size == 0 || sec.size < least {
			continue
		}
		start := g.sp.Size()
		for i := range sec.buf {
			if _, err := g.sp.Append(&spool.Record{Entry: sec.buf[i]}); err != nil {
				return fmt.Errorf("output: %w", err)
			}
		}
		sec.blocks = append(sec.blocks, span{start, g.sp.Size()})
		g.held -= sec.size
		sec.buf, sec.size = nil, 0
	}
	return nil
}

// each calls fn with the entries of sec, in the order they were added.
func (g *sections) each(sec *section, fn func(*formats.Entry) error) error {
	for _, b := range sec.blocks {
		sc, err := g.sp.ScanRange(b.start, b.end, int(min(b.end-b.start, 64<<10)))
		if err != nil {
			return fmt.Errorf("output: %w", err)
		}
		for {
			r, err := sc.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return fmt.Errorf("output: %w", err)
			}
			if err := fn(&r.Entry); err != nil {
				return err
			}
		}
	}
	for i := range sec.buf {
		if err := fn(&sec.buf[i]); err != nil {
			return err
		}
	}
	return nil
}

// close removes the spool.
func (g *sections) close() {
	if g.sp != nil {
		g.sp.Close()
		g.sp = nil
	}
	g.list, g.byKey = nil, nil
}

// writeSections writes the sections one after another, in the order of
// their names, each to parts of its own: a section ends its last part, and
// is split at the limits as a set is.
func (s *Set) writeSections() error {
	g := s.sections
	defer g.close()
	s.startIndex()
	for _, sec := range nameSections(g.list) {
		if len(s.parts)+1 > maxParts {
			return fmt.Errorf("%w: more than %d parts over %d sections; an index never lists another index, so shard the inputs into several outputs",
				reason.Of(ErrTooManyParts), maxParts, len(g.list))
		}
		if err := s.indexFits(1); err != nil {
			return err
		}
		s.secName, s.secFirst = sec.name, len(s.parts)
		if err := g.each(sec, s.put); err != nil {
			return err
		}
		if s.cur != nil {
			if err := s.finish(s.cur); err != nil {
				return err
			}
		}
		if err := s.endSection(); err != nil {
			return err
		}
		// What was written goes: memory holds the next section's.
		sec.buf, sec.blocks = nil, nil
	}
	return nil
}

// endSection tells the parts of the section just written how many they
// are: a section in one file is named without a number. The index's size
// was measured with the number; it is measured again without.
func (s *Set) endSection() error {
	parts := s.parts[s.secFirst:]
	if len(parts) != 1 {
		return nil
	}
	p := parts[0]
	e := s.indexEntry(p, stored)
	b, err := s.indexEnc.AppendEntry(s.scratch[:0], &e)
	if err != nil {
		return err
	}
	numbered := len(b)
	p.single = true
	e = s.indexEntry(p, stored)
	if b, err = s.indexEnc.AppendEntry(b[:0], &e); err != nil {
		return err
	}
	s.scratch = b
	s.indexBytes -= int64(numbered - len(b))
	s.lastIndexEntry = len(b)
	return nil
}

// fileName returns the file name of the part p whose content has the hex
// hash sum: STEM-N-HASH.EXT, or for a part of a section,
// STEM-SECTION-N-HASH.EXT, without the number when the section is in one
// file.
func (s *Set) fileName(p *part, sum string) string {
	switch {
	case p.section == "":
		return s.partName(p.n, sum)
	case p.single:
		return fmt.Sprintf("%s-%s-%s%s%s", s.stem, p.section, sum[:8], s.ext, s.gzExt())
	}
	return fmt.Sprintf("%s-%s-%d-%s%s%s", s.stem, p.section, p.n, sum[:8], s.ext, s.gzExt())
}
