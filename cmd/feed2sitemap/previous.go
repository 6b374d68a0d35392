package main

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
	"github.com/feed2sitemap/feed2sitemap/output"
)

// The previous set of an output, read again by --accumulate.

// previousFiles returns the files of the sitemap set now at the path of
// the output s, the one it will replace, as inputs to read again: the parts an
// existing index lists (in its order), or the existing sitemap itself. It
// returns nothing when there is no previous output. Of a text sitemap and
// an index of text parts, the newer is the previous output.
//
// When the index does not read cleanly (it is cut short, malformed, or an
// entry of it cannot be read), or a part it lists is missing,
// previousFiles returns the files it could find with a *damageError:
// accumulating over them would lose the rest for good.
// The parts themselves are read by the caller, who must check them in turn.
// An index that lists a file which is not a part of this output is an
// error of its own.
func previousFiles(s *output.Set) ([]string, error) {
	// The newest of the index, the single file, and the same two of the
	// other compression (a set written with --gzip before, or without):
	// the one the last run put in place.
	var newest string
	var newestTime time.Time
	locations := s.Locations()
	for _, path := range slices.Compact(slices.Clone(locations)) {
		if fi, err := os.Stat(path); err == nil && (newest == "" || fi.ModTime().After(newestTime)) {
			newest, newestTime = path, fi.ModTime()
		}
	}
	candidates := []string{newest}
	if newest == "" {
		// Nothing there, or nothing to stat: what opening says.
		candidates = slices.Compact(locations[:2])
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
				return nil, &damageError{Problems: problems}
			}
			return []string{path}, nil
		}
		var parts []string
		for _, loc := range children {
			name, err := url.PathUnescape(loc[strings.LastIndexByte(loc, '/')+1:])
			if err != nil || !s.IsPart(name) {
				return nil, fmt.Errorf("the index %s lists %s, which is not a part of this output", path, loc)
			}
			part := filepath.Join(filepath.Dir(path), name)
			if fi, err := os.Stat(part); err != nil || !fi.Mode().IsRegular() {
				problems = append(problems, fmt.Errorf("the index %s lists %s, which is missing", path, name))
				continue
			}
			parts = append(parts, part)
		}
		if len(problems) > 0 {
			return parts, &damageError{Problems: problems}
		}
		return parts, nil
	}
	return nil, nil
}

// damageError is the error of previousFiles for a previous set that does
// not read cleanly.
type damageError struct {
	// Problems are what was found, each naming the file and, where it
	// can, the place (a *formats.ParseError).
	Problems []error
}

// Error describes the first problem, and counts the others.
func (e *damageError) Error() string {
	msg := e.Problems[0].Error()
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problems)", n)
	}
	return msg
}

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
