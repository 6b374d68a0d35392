//go:build unix

package offheap

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of the large pages a big block is aligned to, so
// that the system can back it with them (see adviseHuge).
const hugePage = 2 << 20

// maxHuge is the largest block marked for large pages (and the part of a
// larger reservation that is: see Map). Measured on a 2-core virtual
// machine: the dedupe table of 1M URLs (32 MiB) read at random took 10-15%
// less CPU with large pages; the tables and keys of 10M URLs (128 to 256 MiB
// each) took 10-20% more time with them than without (the system's cost of
// providing that many large pages outweighed what the fewer page walks
// saved; its free memory is fragmented, few 2 MiB blocks are free).
const maxHuge = 64 << 20

// Make returns n zeroed values of T, out of the heap when they take
// MinBytes or more and the system gives the memory, and the function that
// returns them to the system (after which the slice must not be used; it
// does nothing for memory the collector manages). T must hold no
// pointers: the collector does not see into the block.
//
// A block of a few megabytes or more starts on a large-page boundary and,
// up to maxHuge, is marked for large pages where the system has them: a
// table read at random then costs one page walk per 2 MiB instead of one
// per 4 KiB, and one page fault each.
func Make[T any](n int) (s []T, free func()) {
	var zero T
	if n*int(unsafe.Sizeof(zero)) >= MinBytes {
		if s, free, ok := Map[T](n); ok {
			return s, free
		}
	}
	return make([]T, n), func() {}
}

// Map is Make without the heap: ok is false when the system does not map
// the memory (none is then allocated). It suits a reservation larger than
// what will be used (only the pages touched take memory), which the heap
// would allocate whole. A reservation is used from its start: past maxHuge,
// its first maxHuge bytes are marked for large pages, the rest not. The
// keys of a dedupe (spool.Keys), a reservation of 256 MiB filled from its
// start, then take 60 MiB for 1M URLs in 30 large pages instead of 15,000
// small ones: 24,000 -> 8,800 page faults and 8% less CPU for the run
// (medians of 9 alternating runs); 10M URLs no slower.
func Map[T any](n int) (s []T, free func(), ok bool) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size == 0 {
		return nil, nil, false
	}
	b, mapped, err := mapBlock(size)
	if err != nil {
		return nil, nil, false
	}
	if size > maxHuge {
		adviseHuge(b[:maxHuge])
	}
	// syscall.Munmap takes the slice Mmap gave, whole.
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { syscall.Munmap(mapped) }, true
}

// MakeTable is Make for a table written at random from its first use,
// such as a hash table, which touches every page of it soon: MakeTable has
// the system provide them all at once, as writing each would, on a
// goroutine of its own, beside the work before the table's first use; the
// table may be used meanwhile (its content is not changed), and free waits
// for that to end. Where the system cannot, it is Make.
//
// The pages then come in one system call rather than a fault each, on the
// goroutine that fills the table. 1M URLs: a 32 MiB dedupe table, 16 large
// pages, each zeroed on its first write, took about 2 ms before the first
// entry was through. 10M URLs: a 256 MiB table of 65,536 small pages; text
// -> split index took 5-7% less time and CPU in 5 of 6 alternating runs.
func MakeTable[T any](n int) (s []T, free func()) {
	s, unmap := Make[T](n)
	var zero T
	size := len(s) * int(unsafe.Sizeof(zero))
	if size < MinBytes {
		return s, unmap
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), size)
		// A piece at a time: the system holds the process's map of its
		// memory while it provides pages, and a new mapping waits for
		// it (the heap's growth, the dedupe's keys): for 256 MiB at
		// once, tens of milliseconds when pages come slowly.
		for len(b) > 0 {
			n := min(len(b), populateStep)
			if populate(b[:n]) != nil {
				return
			}
			b = b[n:]
		}
	}()
	return s, func() {
		<-done
		unmap()
	}
}

// populateStep is how much of a table MakeTable has provided at once: a
// few large pages.
const populateStep = 8 << 20

// mapBlock maps size zeroed bytes, and returns them and the mapping that
// holds them; from 2 large pages up, they start on a large page and, up to
// maxHuge, are advised to use them. The mapping is then up to a large page
// longer: its pages outside b are never touched, so they take no memory.
func mapBlock(size int) (b, mapped []byte, err error) {
	const prot, flags = syscall.PROT_READ | syscall.PROT_WRITE, syscall.MAP_ANON | syscall.MAP_PRIVATE
	if size < 2*hugePage {
		mapped, err = syscall.Mmap(-1, 0, size, prot, flags)
		return mapped, mapped, err
	}
	if mapped, err = syscall.Mmap(-1, 0, size+hugePage, prot, flags); err != nil {
		return nil, nil, err
	}
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(mapped))) & (hugePage - 1))
	b = mapped[skip : skip+size : skip+size]
	if size <= maxHuge {
		adviseHuge(b)
	}
	return b, mapped, nil
}
