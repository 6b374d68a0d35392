package output

import (
	"fmt"
)

func (s *Set) gzExt() string {
	if s.opts.Gzip {
		return ".gz"
	}
	return ""
}

// partName returns the file name of part n whose content has the hex hash
// sum.
func (s *Set) partName(n int, sum string) string {
	return fmt.Sprintf("%s-%d-%s%s%s", s.stem, n, sum[:8], s.ext, s.gzExt())
}

// stored is what stands for the hash of a part still being stored, to
// measure index entries: it has the same length.
const stored = "00000000"

// isPartName reports whether name is the name of a part of this output.
func (s *Set) isPartName(name string) bool { return s.partRe.MatchString(name) }
