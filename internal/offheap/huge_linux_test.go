package offheap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vmFlags returns the VmFlags of the mapping of this process that holds
// address a (/proc/self/smaps).
func vmFlags(t *testing.T, a uintptr) string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		// A mapping's line starts with its range; the lines of its
		// fields with their names and a colon.
		if fields := strings.Fields(line); len(fields) > 0 && !strings.HasSuffix(fields[0], ":") {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(fields[0], "%x-%x", &lo, &hi); err == nil {
				in = lo <= a && a < hi
			}
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("no mapping holds %#x", a)
	return ""
}

func TestMapMarksTheStartOfAReservationForLargePages(t *testing.T) {
	// A reservation larger than maxHuge: its first maxHuge bytes are
	// marked for large pages (VmFlags "hg"), the rest not; a block up to
	// maxHuge is marked whole.
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this system has no transparent large pages to mark memory for")
	}
	big, free, ok := Map[byte](4 * maxHuge)
	require.True(t, ok)
	defer free()
	start := uintptr(unsafe.Pointer(&big[0]))
	assert.Contains(t, strings.Fields(vmFlags(t, start)), "hg", "the start")
	assert.Contains(t, strings.Fields(vmFlags(t, start+maxHuge-1)), "hg", "the last byte of the start")
	assert.NotContains(t, strings.Fields(vmFlags(t, start+maxHuge)), "hg", "past the start")

	small, free2, ok := Map[byte](maxHuge)
	require.True(t, ok)
	defer free2()
	end := uintptr(unsafe.Pointer(&small[len(small)-1]))
	assert.Contains(t, strings.Fields(vmFlags(t, end)), "hg", "a block up to maxHuge, whole")
}
