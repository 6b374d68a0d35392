package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
)

// memoryFlags are the flag of the memory cap: convert and diff embed them
// (`embed:""`).
type memoryFlags struct {
	MaxMemory byteSize `name:"max-memory" group:"Merging and URLs" placeholder:"SIZE" help:"Hold at most SIZE in memory for the dedupe table and the sort runs (512MiB, 2GiB, 64KiB; K, M, G and T are powers of 1024, KB, MB, GB and TB of 1000). Past it, entries spill to temporary files (in $TMPDIR) and the output is the same, byte for byte (default: a quarter of the machine's memory, at most 1GiB)."`
}

// capMemory returns the cap --max-memory sets, or the default: a quarter
// of the machine's memory, at most convert.DefaultMaxMemory (1 GiB), or
// that when the machine's memory is not known. It also sets the runtime's
// soft memory limit (unless GOMEMLIMIT does) to the cap plus
// heapHeadroom, so that the collector, which main lets the heap grow to
// five times what is live, collects sooner rather than let the heap pass
// the cap: what dedupe holds outside the heap is at most the cap, and
// never together with a heap near it.
func (f *memoryFlags) capMemory() int64 {
	n := int64(f.MaxMemory)
	if n == 0 {
		n = defaultMaxMemory()
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(n + heapHeadroom)
	}
	return n
}

// heapHeadroom is what the heap may hold beyond the memory cap: the
// entries on their way through the steps, the buffers of the readers and
// writers.
const heapHeadroom = 32 << 20

// byteSize is a flag's size in bytes, written as parseSize reads it.
type byteSize int64

// UnmarshalText parses a size.
func (b *byteSize) UnmarshalText(text []byte) error {
	n, err := parseSize(string(text))
	*b = byteSize(n)
	return err
}

// defaultMaxMemory is a quarter of the machine's memory, at most
// convert.DefaultMaxMemory.
func defaultMaxMemory() int64 {
	if total := machineMemory(); total > 0 {
		return min(total/4, convert.DefaultMaxMemory)
	}
	return convert.DefaultMaxMemory
}

// machineMemory returns the machine's memory in bytes, from /proc/meminfo
// (MemTotal), or 0 where that is not known.
func machineMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// MemTotal:       24684540 kB
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// sizeUnits are the multipliers of the units of a size.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
	"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
}

// parseSize parses a size in bytes: a whole number and a unit (64KiB,
// 512M, 2GB, 1000).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	unit, known := sizeUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	switch {
	case err != nil || !known:
		return 0, fmt.Errorf("%q is not a size like 512MiB, 2GiB or 64KiB", s)
	case n <= 0:
		return 0, fmt.Errorf("%q: the size must be above zero", s)
	case n > (1<<62)/unit:
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * unit, nil
}

// diffMemoryFlags are diff's flag of the memory cap: the size is read as
// convert's, but what it bounds, and what spilling changes, are diff's.
type diffMemoryFlags struct {
	MaxMemory byteSize `name:"max-memory" placeholder:"SIZE" help:"Hold about SIZE of entries in memory at most (sizes as for convert: 512MiB, 2GiB), ~384 bytes an entry; past it, both sets spill to temporary files (--temp-dir) and are compared a partition at a time: the changes are the same, ordered by URL within each partition instead of all together (default: 1,048,576 entries, a few hundred MiB)."`
}

// diffEntryBytes is what diff is counted to hold in memory per entry of a
// set: the entry, its normal form and their places in a map and a list.
const diffEntryBytes = 384

// maxEntries returns diff.Options.MaxEntries for the cap: 0 (diff's
// default) when none is given.
func (f *diffMemoryFlags) maxEntries() int {
	if f.MaxMemory == 0 {
		return 0
	}
	return int(max(1, int64(f.MaxMemory)/diffEntryBytes))
}
