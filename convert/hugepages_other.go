//go:build unix && !linux

package convert

// adviseHuge does nothing where huge pages are not asked for.
func adviseHuge([]byte) {}
