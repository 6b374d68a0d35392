package offheap

import "syscall"

// adviseHuge asks the system to back b with large pages (transparent huge
// pages; the system may decline, and then b works as it is).
func adviseHuge(b []byte) { syscall.Madvise(b, syscall.MADV_HUGEPAGE) }

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14), which the syscall
// package does not name.
const madvPopulateWrite = 23

// populate has the system provide the pages of b as a write to each would,
// without writing: b's content stays as it is. It fails with EINVAL where
// the system does not know how.
func populate(b []byte) error { return syscall.Madvise(b, madvPopulateWrite) }
