package offheap

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
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

// mappingRss returns the Rss of the mapping of this process that holds
// address a, in kB (/proc/self/smaps).
func mappingRss(t *testing.T, a uintptr) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if fields := strings.Fields(line); len(fields) > 0 && !strings.HasSuffix(fields[0], ":") {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(fields[0], "%x-%x", &lo, &hi); err == nil {
				in = lo <= a && a < hi
			}
			continue
		}
		var kb int
		if _, err := fmt.Sscanf(line, "Rss: %d kB", &kb); err == nil && in {
			return kb
		}
	}
	t.Fatalf("no mapping holds %#x", a)
	return 0
}

func TestMakeTableProvidesThePagesAndKeepsTheContent(t *testing.T) {
	probe, freeProbe, ok := Map[byte](MinBytes)
	require.True(t, ok)
	if err := populate(probe[:4096]); err != nil {
		freeProbe()
		t.Skipf("this system does not prefault: %v", err)
	}
	freeProbe()

	// Freed at once: free waits for the pages to come before it gives
	// the memory back.
	s, free := MakeTable[uint64](2 * MinBytes / 8)
	s[0] = 1
	free()

	s, free = MakeTable[uint64](2 * MinBytes / 8)
	defer free()
	start := uintptr(unsafe.Pointer(&s[0]))
	// Written while the pages come, in its first (large) page only.
	s[0], s[1] = 1, 2
	for range 1000 {
		if mappingRss(t, start) >= 2*MinBytes/1024 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	assert.GreaterOrEqual(t, mappingRss(t, start), 2*MinBytes/1024, "every page provided")
	assert.Equal(t, []uint64{1, 2}, s[:2], "the content as written")
	assert.Zero(t, s[len(s)/2], "the rest zero")

	// Beyond what is marked for large pages too, in small pages: the
	// block is two mappings, the first maxHuge bytes marked, the rest not.
	big, freeBig := MakeTable[byte](2 * maxHuge)
	defer freeBig()
	big[0] = 1
	first, last := uintptr(unsafe.Pointer(&big[0])), uintptr(unsafe.Pointer(&big[len(big)-1]))
	for range 5000 {
		if mappingRss(t, first) >= maxHuge/1024 && mappingRss(t, last) >= maxHuge/1024 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	assert.GreaterOrEqual(t, mappingRss(t, first), maxHuge/1024, "a block larger than maxHuge: its start")
	assert.GreaterOrEqual(t, mappingRss(t, last), maxHuge/1024, "and the rest")
	assert.Equal(t, byte(1), big[0])
}
