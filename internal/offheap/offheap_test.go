package offheap

import (
	"fmt"
	"os"
	"testing"
	"unsafe"
)

// TestMake writes every value of a block and reads it back, then frees it.
func TestMake(t *testing.T) {
	type slot struct{ a, b uint64 }
	for _, n := range []int{0, 1, 1000, 1 << 16} {
		s, free := Make[slot](n)
		if len(s) != n {
			t.Fatalf("Make(%d): %d values", n, len(s))
		}
		for i := range s {
			if s[i] != (slot{}) {
				t.Fatalf("Make(%d): value %d is not zero", n, i)
			}
			s[i] = slot{uint64(i), uint64(n)}
		}
		for i := range s {
			if s[i] != (slot{uint64(i), uint64(n)}) {
				t.Fatalf("Make(%d): value %d reads back %v", n, i, s[i])
			}
		}
		free()
	}
}

// TestMapLargeIsAligned checks that a block of several large pages starts
// on a large-page boundary (where the system maps memory) and that all of
// it, to its last byte, can be written and read.
func TestMapLargeIsAligned(t *testing.T) {
	for _, n := range []int{2*hugeBlock + 1, 3*hugeBlock - 7} {
		s, free, ok := Map[byte](n)
		if !ok {
			t.Skip("this system maps no memory")
		}
		if len(s) != n {
			t.Fatalf("Map(%d): %d bytes", n, len(s))
		}
		if mapped && uintptr(unsafe.Pointer(&s[0]))%hugeBlock != 0 {
			t.Errorf("Map(%d) starts at %p, not on a %d-byte boundary", n, &s[0], hugeBlock)
		}
		for i := 0; i < n-1; i += 4096 {
			s[i] = byte(i)
		}
		s[n-1] = 0xff
		for i := 0; i < n-1; i += 4096 {
			if s[i] != byte(i) {
				t.Fatalf("Map(%d): byte %d reads back %d", n, i, s[i])
			}
		}
		if s[n-1] != 0xff {
			t.Fatalf("Map(%d): the last byte does not read back", n)
		}
		free()
	}
}

// TestFreeGivesMemoryBack checks, where the system tells, that a freed
// block no longer counts in the process's resident memory.
func TestFreeGivesMemoryBack(t *testing.T) {
	rss := func() int64 {
		b, err := os.ReadFile("/proc/self/statm")
		if err != nil {
			t.Skip("no /proc/self/statm on this system")
		}
		var size, resident int64
		fmt.Sscan(string(b), &size, &resident)
		return resident * int64(os.Getpagesize())
	}
	const n = 64 << 20
	before := rss()
	s, free := Make[byte](n)
	for i := 0; i < n; i += 4096 {
		s[i] = 1
	}
	if got := rss() - before; got < n/2 {
		t.Skipf("the block counts %d bytes when touched: resident memory tells nothing here", got)
	}
	free()
	if got := rss() - before; got > n/4 {
		t.Errorf("%d bytes of the %d-byte block still resident once freed", got, n)
	}
}

// Map gives nothing for no values, and n zeroed values where the system
// maps memory.
func TestMap(t *testing.T) {
	if _, _, ok := Map[byte](0); ok {
		t.Error("Map(0) says it mapped")
	}
	s, free, ok := Map[uint64](1 << 20)
	if !ok {
		t.Skip("this system maps no memory")
	}
	defer free()
	if len(s) != 1<<20 || s[0] != 0 || s[len(s)-1] != 0 {
		t.Fatalf("Map(1<<20): %d values, first %d, last %d", len(s), s[0], s[len(s)-1])
	}
	s[len(s)-1] = 7
}
