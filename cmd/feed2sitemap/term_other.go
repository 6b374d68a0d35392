//go:build !linux

package main

import "os"

// fileIsTerminal reports whether f is a character device, the nearest to a
// terminal that this system's files say without a terminal ioctl.
func fileIsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && f.Name() != os.DevNull
}
