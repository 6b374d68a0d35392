package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// formatsCmd lists the registered formats.
type formatsCmd struct{}

// Run prints one line per format: its name, whether it can be read (dir:
// as a directory of pages only) and written, the output file extensions
// that select it, and what it is.
func (formatsCmd) Run(e *env) error {
	tw := tabwriter.NewWriter(e.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tREAD\tWRITE\tEXTENSIONS\tACCEPTS")
	for _, f := range formats.Formats() {
		ext := strings.Join(f.Extensions, " ")
		if ext == "" {
			ext = "-"
		}
		read := yesNo(f.CanRead())
		if f.ReadDir != nil && !f.CanRead() {
			read = "dir" // reads a directory of pages only
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f.Name, read, yesNo(f.CanWrite()), ext, f.Description)
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}
