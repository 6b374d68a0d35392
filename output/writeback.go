package output

import "os"

// writebackEvery is how many bytes of a file being stored are written
// before the system is asked to start writing them to the disk.
const writebackEvery = 1 << 20

// writeback is the file of a part as its content is written to it: past
// every writebackEvery bytes, the system is asked to start writing them
// to the disk (startWriteback), without waiting for it, so that the sync
// before the part is placed (see store) waits only for the last of them.
// Each part's data then goes to the disk while the next parts are made,
// instead of all at the end.
type writeback struct {
	f    *os.File
	off  int64 // the bytes written
	from int64 // where the bytes not yet handed to the system's writeback start
}

func (w *writeback) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.off += int64(n)
	if w.off-w.from >= writebackEvery {
		startWriteback(w.f, w.from, w.off-w.from)
		w.from = w.off
	}
	return n, err
}
