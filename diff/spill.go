package diff

import (
	"fmt"
	"hash/maphash"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/partition"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// minSplit is the fewest entries a partition must hold to be split again:
// each split costs partition.Fanout spill files and their buffers.
var minSplit = 1 << 12

// The spill is a partition.Set of the entries of both sets by the hash of
// their normal form: Record.Input says the set (0 old, 1 new), Record.Hash
// is the hash.

// spill moves what is in memory to partitions, where the rest of the sets
// go as they are read.
func (c *comparer) spill() error {
	c.seed = maphash.MakeSeed()
	parts, err := partition.New(c.opts.TempDir)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	c.parts = parts
	for set, s := range c.sides {
		for _, k := range s.keys {
			if err := c.put(set, k, s.entries[k]); err != nil {
				return err
			}
		}
		c.sides[set] = nil
	}
	return nil
}

// put adds an entry of set, whose normal form is key, to its partition.
func (c *comparer) put(set int, key string, e formats.Entry) error {
	return c.parts.Append(&spool.Record{Input: set, Hash: maphash.String(c.seed, key), Entry: e}, 0)
}

// partition compares the entries of one partition: in memory when they fit,
// else by splitting it further on the next bits of the hash. A partition
// whose entries all have one hash (one page, listed again and again) is
// loaded whatever its size: memory holds one entry a set of each page.
func (c *comparer) partition(p *partition.Part, level int) error {
	if p.Len() <= max(c.opts.MaxEntries, minSplit) || !p.Mixed() || level >= partition.MaxLevel {
		return c.load(p)
	}
	sub, err := p.Split(c.opts.TempDir, level)
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	defer sub.Close()
	for _, q := range sub {
		if err := c.partition(q, level+1); err != nil {
			return err
		}
	}
	return nil
}

// load compares a partition that fits in memory.
func (c *comparer) load(p *partition.Part) error {
	sides := [2]*side{newSide(), newSide()}
	err := p.Each(func(r *spool.Record) error {
		sides[r.Input].add(normalize.Key(r.Entry.Loc), r.Entry)
		return nil
	})
	if err != nil {
		return fmt.Errorf("diff: %w", err)
	}
	return c.compare(sides[0], sides[1])
}
