package output

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// gzExt returns the name extension of gzipped files, or "".
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

// IsPart reports whether the file name name (a base name) is the name of
// a part of this output, written by any run, gzipped or not: a numbered
// part, or a part of a section (Options.SectionOf).
func (s *Set) IsPart(name string) bool {
	return s.isPartName(name) || s.isPartName(otherForm(name)) ||
		s.sectionRe.MatchString(name) || s.sectionRe.MatchString(otherForm(name))
}

// Locations returns where the sitemap set of this output may be: the
// index of a split set, the single sitemap (the same path for XML), then
// the same two in the other compression (sitemap.xml.gz beside
// sitemap.xml).
func (s *Set) Locations() []string {
	return []string{s.indexPath, s.path, otherForm(s.indexPath), otherForm(s.path)}
}

// otherForm returns path with .gz added, or removed when it has it: the
// name of the same file in the other compression.
func otherForm(path string) string {
	if strings.HasSuffix(strings.ToLower(path), ".gz") {
		return path[:len(path)-len(".gz")]
	}
	return path + ".gz"
}

// Stale returns the files of this output written in the other compression
// (sitemap.xml beside the sitemap.xml.gz of a run with --gzip, or the
// reverse), which this run does not update: whatever names them (robots.txt,
// a search console) reads an old set. They are left in place, for they
// may be served on purpose; the caller says so.
func (s *Set) Stale() []string {
	var stale []string
	for _, path := range slices.Compact([]string{otherForm(s.indexPath), otherForm(s.path)}) {
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
			stale = append(stale, path)
		}
	}
	return stale
}

// Owns reports whether path leads to a file of this output: the sitemap or
// the index, a part (of any run, of a section too), the lock file or a
// temporary file of a run, links followed. Another command's file must not
// be one of them.
func (s *Set) Owns(path string) bool {
	if atomicfile.Same(path, s.path) || atomicfile.Same(path, s.indexPath) {
		return true
	}
	if !atomicfile.Same(filepath.Dir(path), s.dir) {
		return false
	}
	name := filepath.Base(path)
	if target, err := atomicfile.Target(path); err == nil {
		name = filepath.Base(target)
	}
	return s.isPartName(name) || s.sectionRe.MatchString(name) || filepath.Join(s.dir, name) == s.LockPath() ||
		strings.HasPrefix(name, "."+s.stem+"-part.tmp-") || strings.Contains(name, ".tmp-") &&
		(strings.HasPrefix(name, "."+filepath.Base(s.path)) || strings.HasPrefix(name, "."+filepath.Base(s.indexPath)))
}
