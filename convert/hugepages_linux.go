package convert

import "syscall"

// adviseHuge asks the system to back b with huge pages where it can: the
// dedupe table is read at random, one slot per key, and with 4 KiB pages
// nearly every lookup also misses the address translation cache.
func adviseHuge(b []byte) {
	if len(b) >= 4<<20 {
		syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	}
}
