// Package asciiset finds the first byte of a text that is not in a set of
// ASCII bytes: 32 bytes at a time with AVX2 on amd64, a byte at a time
// elsewhere and for texts under 16 bytes. The checks every reader and
// writer makes on every URL (printable text, the bytes a URI holds as they
// are, the bytes XML escapes) are such scans, and on long lists they are
// most of the work of reading and writing them.
package asciiset

import "unsafe"

// Set is a set of ASCII bytes. Bytes from 0x80 up are never in a Set.
type Set struct {
	// nib is the set in the form the vector scan reads: for the low
	// nibble l, the bits k of the bytes k<<4|l in the set; for the high
	// nibble h, the bit h (none for h >= 8); then sixteen 0x0f.
	nib [48]byte
	has [256]bool
}

// Of returns the set of the bytes below 0x80 for which in says true.
func Of(in func(c byte) bool) *Set {
	s := &Set{}
	for c := 0; c < 0x80; c++ {
		if in(byte(c)) {
			s.has[c] = true
			s.nib[c&15] |= 1 << (c >> 4)
		}
	}
	for h := 0; h < 8; h++ {
		s.nib[16+h] = 1 << h
	}
	for i := 32; i < 48; i++ {
		s.nib[i] = 0x0f
	}
	return s
}

// Has reports whether c is in s.
func (s *Set) Has(c byte) bool { return s.has[c] }

// Span returns the length of the longest prefix of t whose bytes are all
// in s: the index of the first byte not in s, or len(t).
func (s *Set) Span(t string) int {
	if len(t) >= 16 && vector {
		return span(unsafe.StringData(t), len(t), &s.nib)
	}
	i := 0
	for i < len(t) && s.has[t[i]] {
		i++
	}
	return i
}

// SpanBytes is Span of a byte slice.
func (s *Set) SpanBytes(b []byte) int {
	return s.Span(unsafe.String(unsafe.SliceData(b), len(b)))
}
