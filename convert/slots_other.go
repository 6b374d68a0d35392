//go:build !unix

package convert

// makeSlots returns n zeroed slots.
func makeSlots(n int) []slot { return make([]slot, n) }

// freeSlots leaves slots to the garbage collector.
func freeSlots([]slot) {}
