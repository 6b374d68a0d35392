// Package strblock makes strings from bytes that are reused (a reader's
// buffer) with one allocation for many of them: each string is copied into
// a block of memory shared with the strings made before it, and a block is
// freed once no string of it is left, or, with a Recycler, used again once
// every string of it is dead.
package strblock

import (
	"sync/atomic"
	"unsafe"
)

// Strings copies byte slices into strings cut from blocks of Size bytes.
// The zero value is not usable: set Size. A slice longer than a quarter
// block gets a string of its own.
type Strings struct {
	// Size is the size of a block.
	Size  int
	block []byte

	// With a Recycler (Recycle): the blocks filled, oldest first, each
	// with the batch its last string went out in; held[next:] are those
	// not used again yet.
	rec  *Recycler
	held []heldBlock
	next int
}

// heldBlock is a block filled, kept to be used again once the batches its
// strings went out in are done with.
type heldBlock struct {
	mem   []byte
	batch uint64
}

// maxHeld bounds the blocks a Strings keeps to use again: when the side
// that consumes its strings falls behind by more (or never says it is done
// with them), the oldest block is left to the garbage collector.
const maxHeld = 512

// Recycler lets a Strings use its blocks again once every string cut from
// them is dead, which the garbage collector cannot tell soon enough to
// keep them in the processor's cache. The side that makes the strings
// numbers the batches they go out in (Begin), in the order they are
// consumed; the side that consumes them says which batches it is done
// with (Done): nothing, anywhere, holds a string of those once it says so.
// Begin is called on the goroutine that makes the strings, Done on any
// one goroutine.
type Recycler struct {
	batch uint64        // the batch being made (the making goroutine's)
	done  atomic.Uint64 // every batch before it is done with
}

// Begin says that the strings made from now on go out in batch, higher
// than the batches begun before.
func (r *Recycler) Begin(batch uint64) { r.batch = batch }

// Done says that every string that went out in a batch before batch is
// dead. A lower number than said before changes nothing.
func (r *Recycler) Done(batch uint64) {
	if batch > r.done.Load() {
		r.done.Store(batch)
	}
}

// Recycle has s use its blocks again as r allows, from now on.
func (s *Strings) Recycle(r *Recycler) { s.rec = r }

// String returns b as a string. The bytes of a block are never written
// again once appended, until its Recycler says every string of it is
// dead, so the strings stay immutable while they are used.
func (s *Strings) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	size := s.Size
	if check.on {
		size = min(size, checkSize)
	}
	if len(b) > size/4 {
		return string(b)
	}
	if cap(s.block)-len(s.block) < len(b) {
		s.block = s.newBlock(size)
	}
	n := len(s.block)
	s.block = append(s.block, b...)
	return unsafe.String(&s.block[n], len(b))
}

// newBlock returns an empty block of size bytes: with a Recycler, the
// oldest block filled when every string of it is dead, else a new one.
// The block being left is held to be used again.
func (s *Strings) newBlock(size int) []byte {
	r := s.rec
	if r == nil {
		return make([]byte, 0, size)
	}
	if cap(s.block) > 0 {
		if len(s.held)-s.next == maxHeld {
			s.held[s.next] = heldBlock{}
			s.next++
		}
		if s.next > 0 && len(s.held) == cap(s.held) {
			// Move the blocks kept down rather than grow the slice.
			n := copy(s.held, s.held[s.next:])
			clear(s.held[n:])
			s.held, s.next = s.held[:n], 0
		}
		s.held = append(s.held, heldBlock{mem: s.block, batch: r.batch})
	}
	if s.next < len(s.held) && s.held[s.next].batch < r.done.Load() && cap(s.held[s.next].mem) >= size {
		mem := s.held[s.next].mem[:cap(s.held[s.next].mem)]
		s.held[s.next] = heldBlock{}
		s.next++
		if check.on {
			// A string still in use would now read as garbage.
			for i := range mem {
				mem[i] = checkByte
			}
			check.reused.Add(1)
		}
		return mem[:0]
	}
	return make([]byte, 0, size)
}

// check is the state of Check: whether it was called, and the blocks used
// again since.
var check struct {
	on     bool
	reused atomic.Int64
}

// checkSize is the size of the blocks under Check, and checkByte what a
// block used again is filled with first.
const (
	checkSize = 512
	checkByte = 0xff
)

// Check, for tests, makes every Strings cut small blocks, so that they are
// used again often, and fill a block used again with bytes no string
// holds (0xff, never in UTF-8) before its first string: a string used
// after its Recycler said it was dead reads as garbage, and the test that
// reads it fails. Call it before any Strings is used (in TestMain).
func Check() { check.on = true }

// Reused returns how many blocks were used again since Check was called:
// a test that means to use blocks again tells that it did.
func Reused() int64 { return check.reused.Load() }
