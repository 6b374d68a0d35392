// Package partition splits records among spool files by the bits of their
// hash, so that a set too large for memory is processed a part at a time:
// every record of a hash is in the same part, and a part still too large is
// split again on the next bits. Package diff compares sets this way, and
// convert's dedupe past its memory cap.
//
// Each split opens Fanout files at once; splitting a part closes it, so a
// split to depth d holds at most Fanout files open per level.
package partition

import (
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// Fanout is how many parts a split makes.
const Fanout = 16

// bits is how many bits of the hash each level of splitting uses.
const bits = 4

// bufSize is how many bytes of records each part keeps in memory before it
// writes them: 1 MiB for a split's 16 parts.
const bufSize = 64 << 10

// MaxLevel is the deepest level there is: 64 bits of hash, 4 a level. A part
// at MaxLevel holds records of one hash only, and is not split again.
const MaxLevel = 64 / bits

// Part is a spool file of the records whose hashes share their low bits.
type Part struct {
	// File holds the records, in the order they were appended.
	File  *spool.File
	n     int    // records
	hash  uint64 // the hash of the first
	mixed bool   // whether the records have more than one hash
}

// Append adds a record; its Hash says where it belongs.
func (p *Part) Append(r *spool.Record) error {
	if p.n == 0 {
		p.hash = r.Hash
	} else if r.Hash != p.hash {
		p.mixed = true
	}
	p.n++
	_, err := p.File.Append(r)
	return err
}

// Len returns how many records the part holds.
func (p *Part) Len() int { return p.n }

// Bytes returns how many bytes its records take.
func (p *Part) Bytes() int64 { return p.File.Size() }

// Mixed reports whether the records have more than one hash: a part of one
// hash only (one key, listed again and again) is not made smaller by a
// split.
func (p *Part) Mixed() bool { return p.mixed }

// Close removes the part's file.
func (p *Part) Close() error { return p.File.Close() }

// Set is the parts of one split, Fanout of them.
type Set []*Part

// New returns Fanout empty parts, their files in dir (the system's
// temporary directory when "").
func New(dir string) (Set, error) {
	s := make(Set, 0, Fanout)
	for range Fanout {
		f, err := spool.NewSize(dir, bufSize)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("cannot spill to disk: %w", err)
		}
		s = append(s, &Part{File: f})
	}
	return s, nil
}

// Of returns the part that a record of hash h goes to in a split at level
// (0 for the first split, 1 for the split of one of its parts, ...).
func Of(h uint64, level int) int { return int(h >> (bits * level) % Fanout) }

// Append adds r to its part in a split at level.
func (s Set) Append(r *spool.Record, level int) error { return s[Of(r.Hash, level)].Append(r) }

// Close removes the files of every part.
func (s Set) Close() {
	for _, p := range s {
		p.Close()
	}
}

// ErrReadBack wraps the errors of reading a part's file back: a record
// that does not decode, or a failed read.
var ErrReadBack = errors.New("partition: reading back a spill file")

// Split moves the records of p into Fanout new parts by the bits of level,
// in their order, and removes p's file.
func (p *Part) Split(dir string, level int) (Set, error) {
	sub, err := New(dir)
	if err != nil {
		return nil, err
	}
	if err := p.Each(func(r *spool.Record) error { return sub.Append(r, level) }); err != nil {
		sub.Close()
		return nil, err
	}
	p.Close()
	return sub, nil
}

// Each calls fn with each record of p, in order, until fn returns an error.
func (p *Part) Each(fn func(*spool.Record) error) error {
	sc, err := p.File.ScanRange(0, -1, int(min(p.Bytes()+16, 1<<20)))
	if err != nil {
		return errors.Join(ErrReadBack, err)
	}
	for {
		r, err := sc.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errors.Join(ErrReadBack, err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
}
