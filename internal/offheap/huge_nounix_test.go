//go:build !unix

package offheap

const hugeBlock, mapped = 2 << 20, false
