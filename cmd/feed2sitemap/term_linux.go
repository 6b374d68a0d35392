package main

import (
	"os"
	"syscall"
	"unsafe"
)

// fileIsTerminal reports whether f is a terminal: whether it answers the
// terminal's ioctl (a character device such as /dev/null does not).
func fileIsTerminal(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
