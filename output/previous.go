package output

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// Previous returns the files of the sitemap set now at the output's path,
// the one this Set will replace, as inputs to read again: the parts an
// existing index lists (in its order), or the existing sitemap itself. It
// returns nothing when there is no previous output. Of a text sitemap and
// an index of text parts, the newer is the previous output.
//
// When the index does not read cleanly (it is cut short, malformed, or an
// entry of it cannot be read), or a part it lists is missing, Previous
// returns the files it could find with a *DamageError, which matches
// ErrPreviousDamaged: accumulating over them would lose the rest for good.
// The parts themselves are read by the caller, who must check them in turn.
// An index that lists a file which is not a part of this output is an
// error of its own.
func (s *Set) Previous() ([]string, error) {
	// The newest of the index, the single file, and the same two of the
	// other compression (a set written with --gzip before, or without):
	// the one the last run put in place.
	var newest string
	var newestTime time.Time
	for _, path := range slices.Compact([]string{s.indexPath, s.path, otherForm(s.indexPath), otherForm(s.path)}) {
		if fi, err := os.Stat(path); err == nil && (newest == "" || fi.ModTime().After(newestTime)) {
			newest, newestTime = path, fi.ModTime()
		}
	}
	candidates := []string{newest}
	if newest == "" {
		// Nothing there, or nothing to stat: what opening says.
		candidates = []string{s.indexPath, s.path}
	}
	for _, path := range candidates {
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		children, isIndex, problems := readIndex(f, path)
		f.Close()
		if !isIndex {
			if len(problems) > 0 {
				return nil, &DamageError{Problems: problems}
			}
			return []string{path}, nil
		}
		var parts []string
		for _, loc := range children {
			name, err := url.PathUnescape(loc[strings.LastIndexByte(loc, '/')+1:])
			if err != nil || !s.isPartName(name) && !s.isPartName(otherForm(name)) {
				return nil, fmt.Errorf("the index %s lists %s, which is not a part of this output", path, loc)
			}
			part := filepath.Join(s.dir, name)
			if fi, err := os.Stat(part); err != nil || !fi.Mode().IsRegular() {
				problems = append(problems, fmt.Errorf("the index %s lists %s, which is missing", path, name))
				continue
			}
			parts = append(parts, part)
		}
		if len(problems) > 0 {
			return parts, &DamageError{Problems: problems}
		}
		return parts, nil
	}
	return nil, nil
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

// DamageError is the error of Previous for a previous set that does not
// read cleanly. It matches ErrPreviousDamaged.
type DamageError struct {
	// Problems are what was found, each naming the file and, where it
	// can, the place (a *formats.ParseError).
	Problems []error
}

// Error describes the first problem, and counts the others.
func (e *DamageError) Error() string {
	msg := e.Problems[0].Error()
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problems)", n)
	}
	return msg
}

// Is makes a DamageError match ErrPreviousDamaged.
func (e *DamageError) Is(target error) bool { return target == ErrPreviousDamaged }

// readIndex reads the child locs of the file at path when it is a sitemap
// index; isIndex is false for any other sitemap, which is not read further.
// Problems are what kept it from reading cleanly: the file cannot be read
// as a sitemap at all, or, of an index, a warning (an entry skipped) or an
// error part-way (the children before it are returned).
func readIndex(f io.Reader, path string) (children []string, isIndex bool, problems []error) {
	var warnings []error
	r, _, err := formats.Open(f, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: path,
		Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe) }}})
	if err != nil {
		return nil, false, []error{err}
	}
	for e, err := range formats.All(r) {
		if err != nil {
			return children, len(children) > 0, append(warnings, err)
		}
		if e.Kind != formats.KindSitemap {
			return nil, false, nil
		}
		children = append(children, e.Loc)
	}
	return children, len(children) > 0, warnings
}

// Owns reports whether path leads to a file of this output: the sitemap or
// the index, a part (of any run), the lock file or a temporary file of a
// run, links followed. Another command's file must not be one of them.
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
	return s.isPartName(name) || filepath.Join(s.dir, name) == s.LockPath() ||
		strings.HasPrefix(name, "."+s.stem+"-part.tmp-") || strings.Contains(name, ".tmp-") &&
		(strings.HasPrefix(name, "."+filepath.Base(s.path)) || strings.HasPrefix(name, "."+filepath.Base(s.indexPath)))
}
