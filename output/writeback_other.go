//go:build !linux || !(amd64 || arm64 || riscv64 || loong64 || mips64 || mips64le || s390x)

package output

import "os"

// startWriteback does nothing here: the sync writes the whole file. (On
// Linux it asks for the writeback where sync_file_range takes its 64-bit
// offset and length in single registers, in that order; 32-bit systems
// split them, and arm and ppc64 take the flags second.)
func startWriteback(*os.File, int64, int64) {}
