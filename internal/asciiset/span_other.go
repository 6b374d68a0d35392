//go:build !amd64 || purego

package asciiset

// vector is false: Span scans a byte at a time.
const vector = false

func span(p *byte, n int, nib *[48]byte) int { panic("asciiset: no vector scan here") }
