package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/feed2sitemap/feed2sitemap/convert"
)

// report is what --report writes: the account of a run, as JSON.
type report struct {
	Inputs []reportInput `json:"inputs"`
	Totals reportTotals  `json:"totals"`
	// Files are the files written, the index last; empty when nothing
	// was written (or the output was standard output).
	Files []reportFile `json:"files"`
	// Error is why the run failed; empty on success.
	Error string `json:"error,omitempty"`
}

type reportInput struct {
	Name       string         `json:"name"`
	Format     string         `json:"format"`
	Read       int            `json:"read"`
	Invalid    int            `json:"invalid"`
	Warnings   int            `json:"warnings"`
	Filtered   map[string]int `json:"filtered"`
	Duplicates int            `json:"duplicates"`
	Written    int            `json:"written"`
}

type reportTotals struct {
	Read       int `json:"read"`
	Invalid    int `json:"invalid"`
	Warnings   int `json:"warnings"`
	Filtered   int `json:"filtered"`
	Duplicates int `json:"duplicates"`
	Written    int `json:"written"`
}

type reportFile struct {
	Path    string `json:"path"`
	Entries int    `json:"entries"`
	Bytes   int64  `json:"bytes"`
}

// writeReport writes the account of the run to path, replacing it whole.
func writeReport(path string, s *convert.Stats, d *destination, runErr error) error {
	r := report{Files: []reportFile{}}
	for _, in := range s.Inputs {
		f := in.Filtered
		if f == nil {
			f = map[string]int{}
		}
		r.Inputs = append(r.Inputs, reportInput{Name: in.Name, Format: in.Format, Read: in.Read, Invalid: in.Skipped,
			Warnings: in.Warnings, Filtered: f, Duplicates: in.Duplicates, Written: in.Written()})
	}
	r.Totals = reportTotals{Read: s.Read(), Invalid: s.Skipped(), Warnings: s.Warnings(), Filtered: s.Filtered(),
		Duplicates: s.Duplicates, Written: s.Written}
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
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
