package output

import "io"

// SetMaxParts lowers the number of parts an index may list, for a test, and
// returns the function that restores it.
func SetMaxParts(n int) func() {
	old := maxParts
	maxParts = n
	return func() { maxParts = old }
}

// SetSectionBuffer lowers how many bytes of entries the sections hold in
// memory before they go to the spool, for a test, and returns the function
// that restores it.
func SetSectionBuffer(n int) func() {
	old := sectionBuffer
	sectionBuffer = n
	return func() { sectionBuffer = old }
}

// Gzip writes the chunks to w as one gzip file, deflated in parallel as a
// gzipped part is, and returns the error of the last write.
func Gzip(w io.Writer, chunks [][]byte) error {
	z := newGzipper(w, nil)
	for _, c := range chunks {
		z.add(append(getChunk(chunkSize), c...))
	}
	return z.close()
}
