package diff

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// fanout is how many partitions a spill splits into, at each level.
const fanout = 16

// maxLevel bounds the re-partitioning of a partition that is still too
// large: 64 bits of hash, 4 a level.
const maxLevel = 64 / 4

// minSplit is the fewest entries a partition must hold to be split again:
// each split costs fanout spill files and their buffers.
var minSplit = 1 << 12

// partition is a spill file of the entries of both sets whose hashes share
// a prefix. Record.Input says the set (0 old, 1 new), Record.Hash is the
// hash of the normal form.
type partition struct {
	f     *spool.File
	n     int    // entries
	hash  uint64 // the hash of the first
	mixed bool   // whether the entries have more than one hash
}

// append adds an entry of set to the partition.
func (p *partition) append(set int, h uint64, e formats.Entry) error {
	if p.n == 0 {
		p.hash = h
	} else if h != p.hash {
		p.mixed = true
	}
	p.n++
	_, err := p.f.Append(&spool.Record{Input: set, Hash: h, Entry: e})
	return err
}

// spill moves what is in memory to partitions, where the rest of the sets
// go as they are read.
func (c *comparer) spill() error {
	c.seed = maphash.MakeSeed()
	parts, err := newPartitions(c.opts.TempDir)
	if err != nil {
		return err
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
	h := maphash.String(c.seed, key)
	return c.parts[h%fanout].append(set, h, e)
}

// partition compares the entries of one partition: in memory when they fit,
// else by splitting it further on the next bits of the hash. A partition
// whose entries all have one hash (one page, listed again and again) is
// loaded whatever its size: memory holds one entry a set of each page.
func (c *comparer) partition(p *partition, level int) error {
	if p.n <= max(c.opts.MaxEntries, minSplit) || !p.mixed || level >= maxLevel {
		return c.load(p)
	}
	sub, err := newPartitions(c.opts.TempDir)
	if err != nil {
		return err
	}
	defer closeAll(sub)
	sc, err := p.f.Scan()
	if err != nil {
		return err
	}
	for {
		r, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return spillError(err)
		}
		if err := sub[(r.Hash>>(4*level))%fanout].append(r.Input, r.Hash, r.Entry); err != nil {
			return err
		}
	}
	p.f.Close()
	for _, q := range sub {
		if err := c.partition(q, level+1); err != nil {
			return err
		}
	}
	return nil
}

// load compares a partition that fits in memory.
func (c *comparer) load(p *partition) error {
	sides := [2]*side{newSide(), newSide()}
	sc, err := p.f.Scan()
	if err != nil {
		return err
	}
	for {
		r, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return spillError(err)
		}
		sides[r.Input].add(normalize.Key(r.Entry.Loc), r.Entry)
	}
	return c.compare(sides[0], sides[1])
}

func newPartitions(dir string) ([]*partition, error) {
	parts := make([]*partition, 0, fanout)
	for range fanout {
		f, err := spool.New(dir)
		if err != nil {
			closeAll(parts)
			return nil, fmt.Errorf("diff: cannot spill to disk: %w", err)
		}
		parts = append(parts, &partition{f: f})
	}
	return parts, nil
}

func closeAll(parts []*partition) {
	for _, p := range parts {
		p.f.Close()
	}
}

func spillError(err error) error {
	return errors.Join(errors.New("diff: reading back a spill file"), err)
}
