package offheap

import "syscall"

// adviseHuge asks the system to back b with large pages (transparent huge
// pages; the system may decline, and then b works as it is).
func adviseHuge(b []byte) { syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
