// Package bufpool keeps the buffers that readers of inputs are built with
// for the inputs opened after them. A run that opens thousands of inputs
// (the parts of a large sitemap set read back) would otherwise allocate a
// few hundred KiB of buffers an input, most of it at once while every
// input is recognized, and the collector would let the heap grow by that
// much before it caught up. A buffer goes back to its pool only where the
// reader that held it says it is done with it (a Release method); one that
// is never given back is left to the collector, as before.
//
// The pools are sync.Pools: what they hold is dropped by the collector
// when it is not used again soon.
package bufpool

import (
	"bufio"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// ErrReleased is what a reader returns when it is read after it gave its
// buffers back: a misuse, never an input's fault.
var ErrReleased = errors.New("bufpool: read after its buffers were given back")

// Readers is a pool of buffered readers whose buffers hold Size bytes.
// The zero value is not usable: set Size.
type Readers struct {
	// Size is the size of the readers' buffers.
	Size int
	pool sync.Pool
}

// Get returns a buffered reader of r with a buffer of Size bytes, one
// given back if there is one. Unlike bufio.NewReaderSize, it never returns
// r itself.
func (p *Readers) Get(r io.Reader) *bufio.Reader {
	if b, ok := p.pool.Get().(*bufio.Reader); ok {
		b.Reset(r)
		return b
	}
	// A *bufio.Reader with a buffer as large would be returned as it is:
	// the buffer of its own is what the caller will give back.
	b := bufio.NewReaderSize(nil, p.Size)
	b.Reset(r)
	return b
}

// Put gives b back. It must not be used after: it reads nothing (from a
// nil reader) until Get returns it again. A reader of another size, or
// nil, is left to the collector.
func (p *Readers) Put(b *bufio.Reader) {
	if b == nil || b.Size() != p.Size {
		return
	}
	if check.on {
		// Fill its buffer with poison: it holds what it peeks.
		b.Reset(poison{})
		b.Peek(p.Size)
		check.put.Add(1)
	}
	b.Reset(nil)
	p.pool.Put(b)
}

// poison reads as an endless run of checkByte.
type poison struct{}

func (poison) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = checkByte
	}
	return len(p), nil
}

// Bytes is a pool of byte slices of Size bytes. The zero value is not
// usable: set Size.
type Bytes struct {
	// Size is the capacity of the slices.
	Size int
	pool sync.Pool
}

// Get returns a slice of length 0 and capacity Size, one given back if
// there is one. Its bytes are what the last user left.
func (p *Bytes) Get() []byte {
	if b, ok := p.pool.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, p.Size)
}

// Put gives b back; neither it nor any slice of its memory may be used
// after. A slice of another capacity, or nil, is left to the collector.
func (p *Bytes) Put(b []byte) {
	if cap(b) != p.Size {
		return
	}
	if check.on {
		b = b[:cap(b)]
		for i := range b {
			b[i] = checkByte
		}
		check.put.Add(1)
	}
	b = b[:0]
	p.pool.Put(&b)
}

// check is the state of Check: whether it was called, and the buffers
// given back since.
var check struct {
	on  bool
	put atomic.Int64
}

// checkByte is what a buffer given back is filled with under Check.
const checkByte = 0xff

// Check, for tests, makes every buffer given back be filled with bytes no
// text holds (0xff, never in UTF-8) before another reader takes it: what
// a reader read from a buffer after it was given back, or kept of one
// past its Release, reads as garbage, and the test that reads it fails.
// Call it before any buffer is given back (in TestMain).
func Check() { check.on = true }

// Given returns how many buffers were given back since Check was called:
// a test that means them to be tells that they were.
func Given() int64 { return check.put.Load() }
