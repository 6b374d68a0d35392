package main

import (
	"errors"
	"os"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/diff"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// maxReportedChanges bounds the pages --report lists under "changes"; the
// counts are always whole, and "omitted" says how many were not listed.
var maxReportedChanges = 100_000

// reportChanges is what --report says changed against the set the output
// replaced (see feed2sitemap diff): counts, and the pages.
type reportChanges struct {
	Added   int            `json:"added"`
	Removed int            `json:"removed"`
	Changed int            `json:"changed"`
	Same    int            `json:"same"`
	Pages   []reportChange `json:"pages"`
	// Omitted counts the changed pages not listed, past the first
	// maxReportedChanges.
	Omitted int `json:"omitted,omitempty"`
}

type reportChange struct {
	Change string      `json:"change"`
	Loc    string      `json:"loc"`
	Fields []fieldJSON `json:"fields,omitempty"`
}

// setFiles reads the files of the set now at the output's path (the parts
// its index lists, or the single file) as one stream of entries.
func (c *convertCmd) setFiles(d *destination) (formats.Reader, func(), error) {
	paths, err := previousFiles(d.set)
	if err != nil {
		return nil, nil, err
	}
	inputs := make([]convert.Input, len(paths))
	for i, p := range paths {
		inputs[i] = c.Sources.local(p)
	}
	r, err := openFollowed(inputs, convert.Options{Read: convert.ReadOptions{Splits: true}}, nil)
	if err != nil {
		return nil, nil, err
	}
	return r, r.Close, nil
}

// previousForReport reads the set the output is about to replace, for
// --report's "changes"; nil when there is none, or when it cannot be read
// (the report then has no "changes").
func (c *convertCmd) previousForReport(d *destination) *diff.Comparison {
	if c.Report == "" || d.set == nil {
		return nil
	}
	if _, err := os.Stat(d.set.Path()); errors.Is(err, os.ErrNotExist) {
		if _, err := os.Stat(d.set.Path() + ".gz"); err != nil {
			return nil
		}
	}
	r, done, err := c.setFiles(d)
	if err != nil {
		return nil
	}
	defer done()
	cmp := diff.New(diff.Options{})
	if err := cmp.ReadOld(r); err != nil {
		cmp.Close()
		return nil
	}
	return cmp
}

// changesSince compares the set just placed with the previous one read
// by previousForReport.
func (c *convertCmd) changesSince(d *destination, cmp *diff.Comparison) *reportChanges {
	r, done, err := c.setFiles(d)
	if err != nil {
		return nil
	}
	defer done()
	ch := &reportChanges{Pages: []reportChange{}}
	st, err := cmp.Compare(r, func(dc diff.Change) error {
		if len(ch.Pages) == maxReportedChanges {
			ch.Omitted++
			return nil
		}
		j := changeJSON(&dc)
		ch.Pages = append(ch.Pages, reportChange{Change: j.Change, Loc: j.Loc, Fields: j.Fields})
		return nil
	})
	if err != nil {
		return nil
	}
	ch.Added, ch.Removed, ch.Changed, ch.Same = st.Added, st.Removed, st.Changed, st.Same
	return ch
}
