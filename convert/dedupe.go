package convert

import (
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Key returns the identity of a loc for deduplication: the loc as the model
// holds it (scheme and host already lower-case, see formats.ParseLoc) with
// the default port and the fragment removed. Two entries with the same Key
// are the same page.
func Key(loc string) string {
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		loc = loc[:i]
	}
	rest, port := "", ""
	switch {
	case strings.HasPrefix(loc, "http://"):
		rest, port = loc[len("http://"):], ":80"
	case strings.HasPrefix(loc, "https://"):
		rest, port = loc[len("https://"):], ":443"
	default:
		return loc
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	if strings.HasSuffix(rest[:end], port) {
		cut := len(loc) - len(rest) + end
		return loc[:cut-len(port)] + loc[cut:]
	}
	return loc
}

// Dedupe returns a reader of the entries of r with each page once: entries
// with the same Key are merged into the one with the newest lastmod (a known
// lastmod is newer than an unknown one; on a tie the earlier entry wins),
// placed where the page first appeared. merged, when not nil, counts the
// entries merged away.
//
// Dedupe reads all of r on the first call to Next.
func Dedupe(r formats.Reader, merged *int) formats.Reader {
	return &deduper{src: r, merged: merged}
}

type deduper struct {
	src     formats.Reader
	merged  *int
	entries []formats.Entry
	read    bool
	next    int
}

func (d *deduper) Next() (formats.Entry, error) {
	if !d.read {
		d.read = true
		if err := d.drain(); err != nil {
			return formats.Entry{}, err
		}
	}
	if d.next == len(d.entries) {
		d.entries = nil
		return formats.Entry{}, io.EOF
	}
	e := d.entries[d.next]
	d.entries[d.next] = formats.Entry{}
	d.next++
	return e, nil
}

func (d *deduper) drain() error {
	index := map[string]int{}
	for {
		e, err := d.src.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		k := Key(e.Loc)
		i, seen := index[k]
		if !seen {
			index[k] = len(d.entries)
			d.entries = append(d.entries, e)
			continue
		}
		if d.merged != nil {
			*d.merged++
		}
		if formats.Newer(e.LastMod, d.entries[i].LastMod) {
			d.entries[i] = e
		}
	}
}
