// Package strblock makes strings from bytes that are reused (a reader's
// buffer) with one allocation for many of them: each string is copied into
// a block of memory shared with the strings made before it, and a block is
// freed once no string of it is left.
package strblock

import "unsafe"

// Strings copies byte slices into strings cut from blocks of Size bytes.
// The zero value is not usable: set Size. A slice longer than a quarter
// block gets a string of its own.
type Strings struct {
	// Size is the size of a block.
	Size  int
	block []byte
}

// String returns b as a string. The bytes of a block are never written
// again once appended, so the strings stay immutable.
func (s *Strings) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > s.Size/4 {
		return string(b)
	}
	if cap(s.block)-len(s.block) < len(b) {
		s.block = make([]byte, 0, s.Size)
	}
	n := len(s.block)
	s.block = append(s.block, b...)
	return unsafe.String(&s.block[n], len(b))
}
