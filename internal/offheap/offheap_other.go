//go:build !unix

package offheap

// Make returns n zeroed values of T from the heap (no other memory is
// asked for on this system), and a function that does nothing, for the
// collector frees them.
func Make[T any](n int) (s []T, free func()) { return make([]T, n), func() {} }

// Map maps nothing on this system: ok is always false.
func Map[T any](int) (s []T, free func(), ok bool) { return nil, nil, false }

// MakeTable is Make on this system: the pages come as they are used.
func MakeTable[T any](n int) (s []T, free func()) { return Make[T](n) }
