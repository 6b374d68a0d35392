package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/klauspost/compress/gzip"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// convertCmd converts inputs into one sitemap.
type convertCmd struct {
	Inputs         []string `arg:"" name:"input" help:"A feed, sitemap, sitemap index, URL list or robots.txt: a file path, or - for standard input. Several are read in order into one output. Gzip is recognized by content."`
	Output         string   `short:"o" placeholder:"PATH" help:"Write to PATH instead of standard output. When the entries exceed the limits of one file, PATH becomes a sitemap index and the entries go to numbered parts beside it (needs --base-url). Files are replaced only when everything succeeded."`
	To             string   `placeholder:"FORMAT" enum:"${to_enum}" default:"" help:"Output format: ${writers} (default: from the output file's extension, else xml)."`
	From           string   `placeholder:"FORMAT" enum:"${from_enum}" default:"" help:"Read every input as FORMAT: ${readers} (default: recognized from each input's content)."`
	BaseURL        *url.URL `name:"base-url" placeholder:"URL" help:"Where the output files will be served (their directory, or the URL of the index itself): the index lists the parts under it."`
	Gzip           bool     `help:"Gzip every file written, adding .gz to its name (an output name ending in .gz does the same)."`
	MaxURLs        int      `name:"max-urls" placeholder:"N" default:"50000" help:"At most N entries per file (1 to 50,000)."`
	MaxBytes       int64    `name:"max-bytes" placeholder:"N" default:"52428800" help:"At most N bytes per file, uncompressed, header and footer counted (1 to 52,428,800)."`
	KeepDuplicates bool     `help:"Keep every entry, even the same URL twice (by default a URL appears once, with its newest lastmod)."`
	NoFollow       bool     `help:"Read a sitemap index (or robots.txt) as its list of child sitemaps instead of following it. Following is not available yet, so this is always the case for now."`
	Strict         bool     `help:"Treat every warning as an error."`
	Quiet          bool     `short:"q" xor:"verbosity" help:"Print only errors: no warnings, no summary, no progress."`
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
	dest, err := c.destination(e, out)
	if err != nil {
		return err
	}
	defer dest.abort()

	rep := &reporter{w: e.Stderr, quiet: c.Quiet, verbose: c.Verbose}
	prog := newProgress(e.Stderr, c.Quiet, dest)
	stats, err := convert.Run(inputs, dest.create, convert.Options{
		From:           c.From,
		KeepDuplicates: c.KeepDuplicates,
		Strict:         c.Strict,
		Warn:           prog.clearing(rep.warn),
		Progress:       prog.update,
	})
	if err == nil {
		err = dest.commit()
	}
	prog.clear()
	if errors.Is(err, convert.ErrNoEntries) {
		err = errors.New("nothing to write: the inputs hold no entries (an empty sitemap is not valid)")
	}
	if errors.Is(err, output.ErrNeedBaseURL) {
		err = fmt.Errorf("%w (--base-url https://example.com/sitemaps/, say), or lower nothing and write fewer entries", err)
	}
	if err == nil && dest.set == nil && (stats.Written > output.MaxURLs || dest.size.n > output.MaxBytes) {
		rep.notice(fmt.Sprintf("%s holds %d entries and %d bytes: over the protocol's limit of %d per file or %d bytes uncompressed; "+
			"search engines may reject it (write to a file with -o and --base-url to split it into an index and parts)",
			dest.name(), stats.Written, dest.size.n, output.MaxURLs, output.MaxBytes))
	}
	rep.finish(stats, dest, err)
	return err
}

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

// destination returns where the output goes, checking the output flags
// before anything is read.
func (c *convertCmd) destination(e *env, f *formats.Format) (*destination, error) {
	d := &destination{stdout: e.Stdout, format: f, gzip: c.Gzip}
	if c.Output == "" || c.Output == "-" {
		if c.BaseURL != nil || c.MaxURLs != output.MaxURLs || c.MaxBytes != output.MaxBytes {
			return nil, usageError{errors.New("--base-url, --max-urls and --max-bytes need an output file (-o): standard output cannot be split")}
		}
		return d, nil
	}
	if c.MaxURLs < 1 || c.MaxBytes < 1 {
		return nil, usageError{errors.New("--max-urls and --max-bytes must be at least 1")}
	}
	if f.Layout == nil {
		return nil, usageError{fmt.Errorf("format %q cannot be written to a file yet", f.Name)}
	}
	set, err := output.New(output.Options{Path: c.Output, Format: f, Gzip: c.Gzip, BaseURL: c.BaseURL, MaxURLs: c.MaxURLs, MaxBytes: c.MaxBytes})
	if err != nil {
		return nil, usageError{err}
	}
	d.set = set
	return d, nil
}

// destination is where the output goes: standard output, or a sitemap set
// (one file, or an index and its parts) that replaces the old one only when
// the run succeeded.
type destination struct {
	stdout io.Writer
	format *formats.Format
	gzip   bool

	set  *output.Set
	gz   *gzip.Writer
	size counter // uncompressed bytes written to standard output
}

func (d *destination) create(opts formats.WriteOptions) (formats.Writer, error) {
	if d.set != nil {
		return d.set, nil
	}
	d.size.w = d.stdout
	if d.gzip {
		d.gz = gzip.NewWriter(d.stdout)
		d.size.w = d.gz
	}
	return d.format.NewWriter(&d.size, opts), nil
}

// commit puts the written files in place.
func (d *destination) commit() error {
	if d.gz != nil {
		return d.gz.Close()
	}
	return nil
}

// abort throws away what was not committed.
func (d *destination) abort() {
	if d.set != nil {
		d.set.Abort()
	}
}

// name describes the destination in the summary.
func (d *destination) name() string {
	if d.set == nil {
		return "standard output"
	}
	files := d.set.Files()
	if len(files) > 1 {
		return fmt.Sprintf("%s, an index of %d parts", d.set.Path(), len(files)-1)
	}
	return d.set.Path()
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
	case err != nil && d.set != nil:
		fmt.Fprintf(&b, "; %s not written", d.set.Path())
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
