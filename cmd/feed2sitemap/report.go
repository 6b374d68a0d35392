package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// report is what --report writes: the account of a run, as JSON.
type report struct {
	Inputs []reportInput `json:"inputs"`
	Totals reportTotals  `json:"totals"`
	// Failures are the inputs that could not be read (child sitemaps
	// that could not be fetched or parsed), with the reason.
	Failures []reportFailure `json:"failures"`
	// Files are the files written, the index last; empty when nothing
	// was written (or the output was standard output).
	Files []reportFile `json:"files"`
	// Changes says what changed against the set the output replaced
	// (when there was one, and it could be read).
	Changes *reportChanges `json:"changes,omitempty"`
	// Error is why the run failed; empty on success.
	Error string `json:"error,omitempty"`
}

type reportInput struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	// Parent names the index that listed a child sitemap read when
	// following, and Depth is how far below a top-level input it is
	// (0 for a top-level input).
	Parent string `json:"parent,omitempty"`
	Depth  int    `json:"depth"`
	// Children counts the child sitemaps a followed index listed.
	Children   int            `json:"children,omitempty"`
	Error      string         `json:"error,omitempty"`
	Read       int            `json:"read"`
	Invalid    int            `json:"invalid"`
	Warnings   int            `json:"warnings"`
	Filtered   map[string]int `json:"filtered"`
	Duplicates int            `json:"duplicates"`
	Written    int            `json:"written"`
	// LeftOut counts the entries the reader left out as no pages to
	// list: pages that say noindex or name another canonical URL, a
	// crawler export's non-indexable rows.
	LeftOut int `json:"left_out,omitempty"`

	// SkippedChildren counts, by reason (include, exclude, since), the
	// children of a followed index that --include-sitemaps,
	// --exclude-sitemaps and --since left out: they were not fetched.
	SkippedChildren map[string]int `json:"skipped_children,omitempty"`
}

type reportFailure struct {
	Name   string `json:"name"`
	Parent string `json:"parent,omitempty"`
	Error  string `json:"error"`
}

type reportTotals struct {
	Read       int `json:"read"`
	Invalid    int `json:"invalid"`
	Warnings   int `json:"warnings"`
	Filtered   int `json:"filtered"`
	Duplicates int `json:"duplicates"`
	Written    int `json:"written"`
	// Limited counts the entries --limit left out.
	Limited int `json:"limited,omitempty"`
	// LeftOut counts the entries the readers left out as no pages to list.
	LeftOut int `json:"left_out,omitempty"`
	// ExtensionsDropped counts, by extension (image, video, news,
	// alternates, mobile, foreign), the entries whose data of that kind
	// the output format could not hold.
	ExtensionsDropped map[string]int `json:"extensions_dropped,omitempty"`
	// HeadDropped counts the document-level foreign elements (ResourceSync's
	// rs:md and rs:ln) the output did not keep.
	HeadDropped int `json:"document_elements_dropped,omitempty"`
}

type reportFile struct {
	Path    string `json:"path"`
	Entries int    `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

// checkReport refuses, before anything is read, a --report that cannot be
// written (a directory, a FIFO, a device) or that would overwrite the
// output (any file of its set) or an input. "-" and /dev/stdout name
// standard output, when the output is a file.
func (c *convertCmd) checkReport(d *destination) error {
	switch {
	case c.Report == "":
		return nil
	case isStdout(c.Report):
		if d.set == nil {
			return usageError{errors.New("--report " + c.Report + ": standard output carries the output; give -o a file, or --report a file")}
		}
		return nil
	}
	if err := checkOutput("--report", c.Report); err != nil {
		return err
	}
	if d.set != nil && d.set.Owns(c.Report) {
		return sameFileError("--report", c.Report, fmt.Sprintf("a file of the output %s", d.set.Path()))
	}
	for _, in := range c.Inputs {
		if in != "-" && !isRemote(in) && atomicfile.Same(c.Report, in) {
			return sameFileError("--report", c.Report, "the input "+in)
		}
	}
	return nil
}

// writeReport writes the account of the run to path, replacing it whole,
// or to stdout when path names standard output.
func writeReport(path string, stdout io.Writer, s *convert.Stats, d *destination, changes *reportChanges, runErr error) error {
	r := report{Files: []reportFile{}, Failures: []reportFailure{}, Changes: changes}
	for _, in := range s.Inputs {
		f := in.Filtered
		if f == nil {
			f = map[string]int{}
		}
		ri := reportInput{Name: in.Name, Format: in.Format, Depth: in.Depth, Children: in.Children, SkippedChildren: in.SkippedChildren, Read: in.Read, Invalid: in.Skipped,
			Warnings: in.Warnings, Filtered: f, Duplicates: in.Duplicates, Written: in.Written(), LeftOut: in.LeftOut}
		if in.Depth > 0 {
			ri.Parent = s.Inputs[in.Parent].Name
		}
		if in.Err != nil {
			ri.Error = in.Err.Error()
			r.Failures = append(r.Failures, reportFailure{Name: in.Name, Parent: ri.Parent, Error: ri.Error})
		}
		r.Inputs = append(r.Inputs, ri)
	}
	r.Totals = reportTotals{Read: s.Read(), Invalid: s.Skipped(), Warnings: s.Warnings(), Filtered: s.Filtered(),
		Duplicates: s.Duplicates, Written: s.Written, Limited: s.Limited, LeftOut: s.LeftOut(), ExtensionsDropped: s.ExtDropped, HeadDropped: s.HeadDropped}
	if runErr != nil {
		r.Error = runErr.Error()
	} else if d.set != nil {
		for _, f := range d.set.Files() {
			r.Files = append(r.Files, reportFile{Path: f.Path, Entries: f.Entries, Bytes: f.Bytes})
		}
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if isStdout(path) {
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}
