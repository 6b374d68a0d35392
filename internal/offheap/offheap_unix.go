//go:build unix

package offheap

import (
	"syscall"
	"unsafe"
)

// Make returns n zeroed values of T, out of the heap when the system gives
// the memory, and the function that returns them to the system (after
// which the slice must not be used; it does nothing for memory the
// collector manages). T must hold no pointers: the collector does not see
// into the block.
func Make[T any](n int) (s []T, free func()) {
	var zero T
	size := n * int(unsafe.Sizeof(zero))
	if size == 0 {
		return make([]T, n), func() {}
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]T, n), func() {}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { syscall.Munmap(b) }
}
