package output

// SetMaxParts lowers the number of parts an index may list, for a test, and
// returns the function that restores it.
func SetMaxParts(n int) func() {
	old := maxParts
	maxParts = n
	return func() { maxParts = old }
}
