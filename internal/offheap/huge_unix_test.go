//go:build unix

package offheap

// hugeBlock is the large-page size blocks are aligned to, and mapped says
// that this system maps them (so they are aligned).
const hugeBlock, mapped = hugePage, true
