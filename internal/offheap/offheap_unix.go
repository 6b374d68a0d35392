//go:build unix

package offheap

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of the large pages a big block is aligned to, so
// that the system can back it with them (see adviseHuge).
const hugePage = 2 << 20

// Make returns n zeroed values of T, out of the heap when the system gives
// the memory, and the function that returns them to the system (after
// which the slice must not be used; it does nothing for memory the
// collector manages). T must hold no pointers: the collector does not see
// into the block.
//
// A block of a few megabytes or more starts on a large-page boundary and
// is marked for large pages where the system has them: a table read at
// random then costs one page walk per 2 MiB instead of one per 4 KiB, and
// one page fault each.
func Make[T any](n int) (s []T, free func()) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size == 0 {
		return make([]T, n), func() {}
	}
	b, err := mapBlock(size)
	if err != nil {
		return make([]T, n), func() {}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { syscall.Munmap(b) }
}

// mapBlock maps size zeroed bytes; from 2 large pages up, aligned to a
// large page and advised to use them.
func mapBlock(size int) ([]byte, error) {
	const prot, flags = syscall.PROT_READ | syscall.PROT_WRITE, syscall.MAP_ANON | syscall.MAP_PRIVATE
	if size < 2*hugePage {
		return syscall.Mmap(-1, 0, size, prot, flags)
	}
	b, err := syscall.Mmap(-1, 0, size+hugePage, prot, flags)
	if err != nil {
		return nil, err
	}
	// Keep the aligned part; give the rest back at once.
	skip := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & (hugePage - 1))
	if skip > 0 {
		syscall.Munmap(b[:skip])
	}
	page := syscall.Getpagesize()
	if tail := b[(skip+size+page-1)/page*page:]; len(tail) > 0 {
		syscall.Munmap(tail)
	}
	b = b[skip : skip+size : skip+size]
	adviseHuge(b)
	return b, nil
}
