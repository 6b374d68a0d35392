package convert

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// A top-level input waiting for its turn holds what its reader was built
// with (the buffers of its decompression, decoding and parsing, some
// hundreds of KiB), so that Open holding every input would take memory
// growing with their number. A local regular file (Input.Path set) whose
// reader gave no warning when built is released instead once recognized:
// closed, and opened and recognized again when its turn comes (reopen).
// The first input, read at once, and any other input (standard input, a
// remote one, one whose content is checked as it is read) stay open.

// released is what is kept of a released input: the file as it was when
// recognized, to tell it did not change before it is opened again (its
// account keeps the format it was recognized as).
type released struct {
	info os.FileInfo
}

// errInputChanged is the error of a released input found changed when its
// turn came.
var errInputChanged = errors.New("changed while the inputs before it were read; run again")

// release closes the input of the top-level frame f, opened as rc, when
// it can be opened again as it was: it reports whether it did. warned
// says whether building its reader gave warnings, which must not be given
// twice.
func (s *Source) release(f *frame, rc io.Closer, warned bool) bool {
	if len(s.tops) == 0 || warned || f.in.Path == "" {
		return false
	}
	if _, ok := rc.(interface{ ReadObserver() any }); ok {
		return false // checked as read: opening it again would check it again
	}
	info, err := os.Stat(f.in.Path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	formats.Release(f.r) // its buffers serve the inputs opened after it
	rc.Close()
	f.rel = &released{info: info}
	f.r, f.route = nil, nil
	return true
}

// reopen opens and recognizes again the released input of f, failing
// when the file changed since it was recognized.
func (s *Source) reopen(f *frame) error {
	rel := f.rel
	f.rel = nil
	info, err := os.Stat(f.in.Path)
	if err == nil && !sameFile(rel.info, info) {
		err = fmt.Errorf("%s: %w", f.in.Name, errInputChanged)
	}
	if err != nil {
		return err
	}
	rc, err := f.in.Open()
	if err != nil {
		return err
	}
	f.closer = rc
	r, route, err := s.reader(f.account, f.in, rc, s.opts.From) // fails when it reads as another format
	if err != nil {
		return err
	}
	f.r, f.route = r, route
	return nil
}

// sameFile reports whether b is the file a was, unchanged: the same file,
// of the same size and time of modification.
func sameFile(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}
