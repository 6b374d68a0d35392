//go:build unix && !linux

package offheap

// adviseHuge does nothing: large pages are the system's choice here.
func adviseHuge([]byte) {}
