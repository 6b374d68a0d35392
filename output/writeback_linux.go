//go:build linux && (amd64 || arm64 || riscv64 || loong64 || mips64 || mips64le || s390x)

package output

import (
	"os"
	"syscall"
)

// startWriteback asks the system to start writing n bytes of f from off to
// the disk (sync_file_range with SYNC_FILE_RANGE_WRITE), and does not
// wait. It promises nothing about durability, which the sync gives; a
// failure is left for the sync to report.
func startWriteback(f *os.File, off, n int64) {
	const syncFileRangeWrite = 2
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, fd, uintptr(off), uintptr(n), syncFileRangeWrite, 0, 0)
	})
}
