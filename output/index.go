package output

import (
	"fmt"

	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// indexEntry returns the index's entry for a part whose content has the hex
// hash sum.
func (s *Set) indexEntry(p *part, sum string) formats.Entry {
	loc := s.base.ResolveReference(&url.URL{Path: s.fileName(p, sum)}).String()
	return formats.Entry{Loc: loc, LastMod: p.lastmod, Kind: formats.KindSitemap}
}

// commitSplit names the parts, then writes the index that lists them.
func (s *Set) commitSplit() error {
	if err := s.indexFits(0); err != nil {
		return err
	}
	var index []formats.Entry
	for _, p := range s.parts {
		path := filepath.Join(s.dir, s.fileName(p, p.sum))
		if err := s.place(p.tmp, path); err != nil {
			return err
		}
		s.files = append(s.files, File{Path: path, Entries: p.entries, Bytes: s.size(p)})
		index = append(index, s.indexEntry(p, p.sum))
	}
	// The index is stored as the parts are: hashed (for nothing),
	// gzipped with them, synced, then placed.
	f, err := s.openFile(filepath.Base(s.indexPath), nil)
	if err != nil {
		return err
	}
	enc := s.index.NewEncoder(s.indexOptions())
	s.scratch = enc.AppendHeader(s.scratch[:0])
	f.chunks.Write(s.scratch)
	for i := range index {
		if s.scratch, err = enc.AppendEntry(s.scratch[:0], &index[i]); err != nil {
			break
		}
		f.chunks.Write(s.scratch)
	}
	s.scratch = enc.AppendFooter(s.scratch[:0])
	f.chunks.Write(s.scratch)
	f.chunks.close()
	if werr := f.wait(); err == nil {
		err = werr
	}
	if err == nil {
		err = s.place(f.tmp, s.indexPath)
	}
	if err != nil {
		os.Remove(f.tmp)
		return err
	}
	s.files = append(s.files, File{Path: s.indexPath, Entries: len(index), Bytes: s.indexBytes})
	return nil
}

// FileURL returns the URL the file named name (a base name, such as
// "sitemap.xml.gz") is served at when the set's files are served from base,
// which is given as Options.BaseURL takes it: the directory, or the URL of
// the index itself. The name is joined to the directory the way the index
// joins its parts.
func FileURL(base *url.URL, name string) (string, error) {
	dir, err := baseDir(base, name)
	if err != nil {
		return "", err
	}
	return dir.ResolveReference(&url.URL{Path: name}).String(), nil
}

// baseDir returns the directory URL files are served from, given the URL
// of the directory (with or without a final slash) or of the index file
// named index.
func baseDir(u *url.URL, index string) (*url.URL, error) {
	if u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || u.User != nil {
		return nil, fmt.Errorf("base URL %q has a query, fragment or user name; it must be where the files are served", u)
	}
	loc, err := formats.ParseLoc(u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("base URL: %w", err)
	}
	c, err := url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("base URL: %w", err)
	}
	b := *c
	segs := strings.Split(b.Path, "/")
	last := segs[len(segs)-1]
	switch {
	case last == "":
	case last == index || slices.Contains([]string{".xml", ".gz", ".txt"}, filepath.Ext(last)) && strings.Contains(last, "."):
		// The URL of a file: its directory.
		b.Path = strings.Join(segs[:len(segs)-1], "/") + "/"
	default:
		b.Path += "/"
	}
	if b.Path == "" {
		b.Path = "/"
	}
	b.RawPath = ""
	return &b, nil
}

// indexOptions returns the options the sitemap index is written with. The
// document-level elements (WriteOptions.Head) are in the index as in every
// part: a ResourceSync list split in parts is an index and parts that each
// say what they are (rs:md capability) and where they belong (rs:ln).
func (s *Set) indexOptions() formats.WriteOptions {
	return formats.WriteOptions{Index: true, Stylesheet: s.opts.Write.Stylesheet, Head: s.opts.Write.Head}
}
