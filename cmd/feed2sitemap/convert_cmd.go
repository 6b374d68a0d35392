package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// convertCmd converts inputs into one sitemap.
type convertCmd struct {
	Inputs         []string `arg:"" name:"input" help:"A feed, sitemap, sitemap index, URL list or robots.txt: a file path, or - for standard input. Several are read in order into one output. Gzip is recognized by content."`
	Output         string   `short:"o" placeholder:"PATH" help:"Write to PATH instead of standard output. A name ending in .gz is gzipped. The file is replaced only when everything succeeded."`
	To             string   `placeholder:"FORMAT" enum:"${to_enum}" default:"" help:"Output format: ${writers} (default: from the output file's extension, else xml)."`
	From           string   `placeholder:"FORMAT" enum:"${from_enum}" default:"" help:"Read every input as FORMAT: ${readers} (default: recognized from each input's content)."`
	KeepDuplicates bool     `help:"Keep every entry, even the same URL twice (by default a URL appears once, with its newest lastmod)."`
	NoFollow       bool     `help:"Read a sitemap index (or robots.txt) as its list of child sitemaps instead of following it. Following is not available yet, so this is always the case for now."`
	Strict         bool     `help:"Treat every warning as an error."`
	Quiet          bool     `short:"q" xor:"verbosity" help:"Print only errors: no warnings, no summary."`
	Verbose        bool     `short:"v" xor:"verbosity" help:"Print every warning and an account of each input."`
}

// Run converts the inputs and reports what it did on standard error.
func (c *convertCmd) Run(e *env) error {
	out, err := c.outputFormat()
	if err != nil {
		return err
	}
	stdin := 0
	inputs := make([]convert.Input, len(c.Inputs))
	for i, name := range c.Inputs {
		if name == "-" {
			if stdin++; stdin > 1 {
				return usageError{errors.New("standard input (-) can be read only once")}
			}
			inputs[i] = convert.Input{Name: "<stdin>", Open: func() (io.ReadCloser, error) { return io.NopCloser(e.Stdin), nil }}
			continue
		}
		inputs[i] = convert.Input{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }}
	}

	rep := &reporter{w: e.Stderr, quiet: c.Quiet, verbose: c.Verbose}
	dest := &destination{path: c.Output, stdout: e.Stdout, format: out}
	defer dest.abort()
	stats, err := convert.Run(inputs, dest.create, convert.Options{
		From:           c.From,
		KeepDuplicates: c.KeepDuplicates,
		Strict:         c.Strict,
		Warn:           rep.warn,
	})
	if err == nil {
		err = dest.commit()
	}
	if errors.Is(err, convert.ErrNoEntries) {
		err = errors.New("nothing to write: the inputs hold no entries (an empty sitemap is not valid)")
	}
	if err == nil && (stats.Written > maxURLs || dest.size.n > maxBytes) {
		rep.notice(fmt.Sprintf("%s holds %d entries and %d bytes: over the protocol's limit of %d per file or %d bytes uncompressed; "+
			"search engines may reject it (automatic splitting into an index is not available yet)",
			dest.name(), stats.Written, dest.size.n, maxURLs, maxBytes))
	}
	rep.finish(stats, dest, err)
	return err
}

// The protocol's limits on one sitemap file.
const (
	maxURLs  = 50000
	maxBytes = 52428800
)

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// outputFormat returns the format --to names, or the one the output file's
// extension selects, or xml.
func (c *convertCmd) outputFormat() (*formats.Format, error) {
	name := c.To
	if name == "" {
		if f := formats.ForFileName(c.Output); f != nil {
			return f, nil
		}
		name = "xml"
	}
	f, err := formats.Lookup(name)
	if err != nil {
		return nil, usageError{err}
	}
	if !f.CanWrite() {
		return nil, usageError{fmt.Errorf("format %q can be read but not written", name)}
	}
	return f, nil
}

// destination is where the output goes: standard output, or a file that is
// created only when the first entry is ready and replaces the old file only
// when the run succeeded.
type destination struct {
	path   string
	stdout io.Writer
	format *formats.Format

	file *atomicfile.File
	gz   *gzip.Writer
	w    formats.Writer
	size counter // uncompressed bytes written
}

func (d *destination) create(opts formats.WriteOptions) (formats.Writer, error) {
	if d.path == "" {
		d.size.w = d.stdout
		d.w = d.format.NewWriter(&d.size, opts)
		return d.w, nil
	}
	f, err := atomicfile.Create(d.path)
	if err != nil {
		return nil, err
	}
	d.file = f
	var w io.Writer = f
	if strings.HasSuffix(strings.ToLower(d.path), ".gz") {
		d.gz = gzip.NewWriter(f)
		w = d.gz
	}
	d.size.w = w
	d.w = d.format.NewWriter(&d.size, opts)
	return d.w, nil
}

// commit puts the written file in place.
func (d *destination) commit() error {
	if d.file == nil {
		return nil
	}
	if d.gz != nil {
		if err := d.gz.Close(); err != nil {
			return err
		}
	}
	err := d.file.Commit()
	d.file = nil
	return err
}

// abort throws away a file that was not committed.
func (d *destination) abort() {
	if d.file != nil {
		d.file.Abort()
	}
}

// name describes the destination in the summary.
func (d *destination) name() string {
	if d.path == "" {
		return "standard output"
	}
	return d.path
}

// maxWarnings is how many warnings per input are printed without -v.
const maxWarnings = 10

// reporter prints warnings and the closing summary on standard error.
type reporter struct {
	w              io.Writer
	quiet, verbose bool
	shown          map[string]int
	hidden         int
}

func (r *reporter) warn(pe *formats.ParseError) {
	if r.quiet {
		return
	}
	if r.shown == nil {
		r.shown = map[string]int{}
	}
	if !r.verbose && r.shown[pe.Source] >= maxWarnings {
		r.hidden++
		return
	}
	r.shown[pe.Source]++
	fmt.Fprintf(r.w, "feed2sitemap: warning: %v\n", pe)
}

// notice prints a warning about the output, unless quiet.
func (r *reporter) notice(msg string) {
	if !r.quiet {
		fmt.Fprintf(r.w, "feed2sitemap: warning: %s\n", msg)
	}
}

// finish prints the account of the run: one summary line, and with -v a
// line per input before it.
func (r *reporter) finish(s *convert.Stats, d *destination, err error) {
	if r.quiet || s == nil {
		return
	}
	if r.hidden > 0 {
		fmt.Fprintf(r.w, "feed2sitemap: %d more warnings not shown (-v shows all)\n", r.hidden)
	}
	if r.verbose {
		for _, in := range s.Inputs {
			format := in.Format
			if format == "" {
				format = "not read"
			}
			fmt.Fprintf(r.w, "feed2sitemap:   %s (%s): %d entries, %d skipped, %d warnings\n",
				in.Name, format, in.Read, in.Skipped, in.Warnings)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "read %d %s from %d %s", s.Read(), plural(s.Read(), "entry", "entries"),
		len(s.Inputs), plural(len(s.Inputs), "input", "inputs"))
	if sk, w := s.Skipped(), s.Warnings(); sk > 0 || w > 0 {
		fmt.Fprintf(&b, " (%d skipped, %d %s)", sk, w, plural(w, "warning", "warnings"))
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(&b, ", merged %d %s", s.Duplicates, plural(s.Duplicates, "duplicate", "duplicates"))
	}
	switch {
	case err != nil && d.path != "":
		fmt.Fprintf(&b, "; %s not written", d.path)
	case err != nil:
		b.WriteString("; stopped")
	default:
		fmt.Fprintf(&b, ", wrote %d to %s", s.Written, d.name())
	}
	fmt.Fprintf(r.w, "feed2sitemap: %s\n", b.String())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
