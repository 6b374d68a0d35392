//go:build unix && !linux

package offheap

import "errors"

// adviseHuge does nothing: large pages are the system's choice here.
func adviseHuge([]byte) {}

// populate does nothing: the pages come as they are used.
func populate([]byte) error { return errors.ErrUnsupported }
