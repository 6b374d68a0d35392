package output

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"

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
// this output's part pattern but are not in the set just written, and the
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
		} else if !s.isPartName(name) {
			continue
		}
		os.Remove(filepath.Join(s.dir, name))
	}
}
