package offheap

import "testing"

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
