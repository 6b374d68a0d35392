//go:build !purego

package asciiset

import "golang.org/x/sys/cpu"

// vector says whether span may be called: the processor has AVX2.
var vector = cpu.X86.HasAVX2

// span is Span of the n bytes at p, n >= 16, with the set in the form
// of Set.nib.
//
//go:noescape
func span(p *byte, n int, nib *[48]byte) int
