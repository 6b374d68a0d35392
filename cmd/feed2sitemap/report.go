package main

import (
	"encoding/json"

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
	// ExtensionsDropped counts, by extension (image, video, news,
	// alternates, mobile, foreign), the entries whose data of that kind
	// the output format could not hold.
	ExtensionsDropped map[string]int `json:"extensions_dropped,omitempty"`
}

type reportFile struct {
	Path    string `json:"path"`
	Entries int    `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

// writeReport writes the account of the run to path, replacing it whole.
func writeReport(path string, s *convert.Stats, d *destination, runErr error) error {
	r := report{Files: []reportFile{}, Failures: []reportFailure{}}
	for _, in := range s.Inputs {
		f := in.Filtered
		if f == nil {
			f = map[string]int{}
		}
		ri := reportInput{Name: in.Name, Format: in.Format, Depth: in.Depth, Children: in.Children, Read: in.Read, Invalid: in.Skipped,
			Warnings: in.Warnings, Filtered: f, Duplicates: in.Duplicates, Written: in.Written()}
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
		Duplicates: s.Duplicates, Written: s.Written, Limited: s.Limited, ExtensionsDropped: s.ExtDropped}
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
	return atomicfile.WriteFile(path, append(b, '\n'), 0o644)
}
