//go:build unix

package convert

import (
	"syscall"
	"unsafe"
)

// makeSlots returns n zeroed slots in memory mapped from the system, out of
// the garbage-collected heap: the table is one big block that holds no
// pointers, and keeping it out of the heap keeps the collector from letting
// the heap grow by as much again before it runs.
func makeSlots(n int) []slot {
	size := n * int(unsafe.Sizeof(slot{}))
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]slot, n)
	}
	return unsafe.Slice((*slot)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// freeSlots returns slots from makeSlots to the system.
func freeSlots(s []slot) {
	if len(s) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(slot{})))
	syscall.Munmap(b)
}
