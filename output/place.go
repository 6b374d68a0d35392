package output

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// place moves the complete temporary file tmp to path, unless path already
// holds the same bytes: then it is kept, modification time and all. A link
// at path is written through (atomicfile.PlaceChanged).
func (s *Set) place(tmp, path string) error {
	target, replaced, err := atomicfile.PlaceChanged(tmp, path, 0o644)
	if err != nil {
		return err
	}
	if replaced && path != s.path && path != s.indexPath {
		s.created = append(s.created, target)
	}
	return nil
}

// removeLeftovers removes the files in the output's directory that match
// this output's part pattern, or that the replaced index listed and are
// named as the parts of a section (listed), but are not in the set just
// written, and the
// temporary files of runs of this output that were killed: only under the
// lock, which no live run of this output holds then, and only those of
// processes that are gone.
func (s *Set) removeLeftovers() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	q := regexp.QuoteMeta
	temp := regexp.MustCompile(`^\.(?:` + q(s.stem) + `-part|` + q(filepath.Base(s.path)) + `|` + q(filepath.Base(s.indexPath)) + `)\.tmp-([0-9]+)-[0-9]+$`)
	keep := map[string]bool{}
	for _, f := range s.files {
		keep[filepath.Base(f.Path)] = true
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || keep[name] {
			continue
		}
		if m := temp.FindStringSubmatch(name); m != nil {
			if pid, err := strconv.Atoi(m[1]); err != nil || s.lock == nil || pid == os.Getpid() || processAlive(pid) {
				continue
			}
		} else if !s.isPartName(name) && !s.listed[name] {
			continue
		}
		os.Remove(filepath.Join(s.dir, name))
	}
}

// previousChildren returns the files the index now at the index's path
// lists (the set this run replaces) that are in the output's directory and
// named as parts of a section of this output: what a set written by
// section left, which no pattern may claim (another output's parts could
// match it), is removed when the index that listed it is replaced. A file
// that is no index, or does not read, lists nothing. At most maxParts
// names are kept, as one index lists.
func (s *Set) previousChildren() map[string]bool {
	f, err := os.Open(s.indexPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	r, _, err := formats.Open(f, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: s.indexPath}})
	if err != nil {
		return nil
	}
	listed := map[string]bool{}
	for e, err := range formats.All(r) {
		if err != nil || e.Kind != formats.KindSitemap || len(listed) >= maxParts {
			break
		}
		name, err := url.PathUnescape(e.Loc[strings.LastIndexByte(e.Loc, '/')+1:])
		if err == nil && s.sectionRe.MatchString(name) {
			listed[name] = true
		}
	}
	return listed
}
