package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/diff"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// diffCmd compares two inputs and prints the pages added, removed and
// changed.
type diffCmd struct {
	Old     string `arg:"" name:"old" help:"The old set: a sitemap, index (its sitemaps are read), feed, URL list or robots.txt; a file path, an http(s) URL, or - for standard input."`
	New     string `arg:"" name:"new" help:"The new set, as OLD."`
	Format  string `enum:"text,json,jsonl" default:"text" placeholder:"text|json|jsonl" help:"Output: text (+ added, - removed, ~ changed, a line each), json (one document) or jsonl (one object a change); see docs/behaviour.md#diff."`
	Added   bool   `help:"Show the pages added (with --removed and --changed: those kinds only; default: every kind)."`
	Removed bool   `help:"Show the pages removed."`
	Changed bool   `help:"Show the pages changed: lastmod, changefreq, priority or extension data."`
	To      string `placeholder:"FORMAT" enum:"${to_enum}" default:"" help:"Instead of a report, write the pages shown as a document of FORMAT (text: their URLs, to pipe into submit; the new entry of a page, the old one of a removed page)."`
	TempDir string `name:"temp-dir" placeholder:"DIR" help:"Where to spill the sets when they are too large to compare in memory (default: the system's temporary directory)."`

	Source sourceFlags     `embed:""`
	Memory diffMemoryFlags `embed:""`
}

// statusError ends a run with an exit status of its own, printing err
// unless it is nil.
type statusError struct {
	status int
	err    error
}

func (e statusError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.status)
	}
	return e.err.Error()
}

func (e statusError) Unwrap() error { return e.err }

// errDiffer is the exit status of a diff that found changes: 1, quietly.
var errDiffer = statusError{status: exitFail}

// trouble makes err a failure of diff, exit status 2, as diff(1) has it.
func trouble(err error) error {
	if err == nil {
		return nil
	}
	return statusError{status: exitUsage, err: err}
}

// Run compares the sets. Exit status: 0 when they hold the same pages with
// the same data (among the kinds shown), 1 when they differ, 2 on trouble.
func (c *diffCmd) Run(e *env, net network) error {
	c.Source.net = net
	if c.Old == "-" && c.New == "-" {
		return usageError{errors.New("standard input (-) can be read only once")}
	}
	show := map[diff.Kind]bool{diff.Added: c.Added, diff.Removed: c.Removed, diff.Changed: c.Changed}
	if !c.Added && !c.Removed && !c.Changed {
		show = map[diff.Kind]bool{diff.Added: true, diff.Removed: true, diff.Changed: true}
	}
	oldSet, closeOld, err := c.read(e, c.Old)
	if err != nil {
		return trouble(err)
	}
	defer closeOld()
	newSet, closeNew, err := c.read(e, c.New)
	if err != nil {
		return trouble(err)
	}
	defer closeNew()

	out := bufio.NewWriter(e.Stdout)
	rep, err := c.reporter(out)
	if err != nil {
		return err
	}
	shown := 0
	st, err := diff.Compare(oldSet, newSet, diff.Options{TempDir: c.TempDir, MaxEntries: c.Memory.maxEntries()}, func(ch diff.Change) error {
		if !show[ch.Kind] {
			return nil
		}
		shown++
		return rep.change(&ch)
	})
	if err == nil {
		err = errors.Join(closeOld(), closeNew())
	}
	if err != nil {
		return trouble(err)
	}
	if err := rep.end(st); err != nil {
		return trouble(err)
	}
	if err := out.Flush(); err != nil {
		return trouble(err)
	}
	if shown > 0 {
		return errDiffer
	}
	return nil
}

// read opens one side: its input, and the sitemaps it lists when it is an
// index or robots.txt (unless --no-follow). The close function returns why
// the side could not be read whole (a child that failed, unless
// --keep-going); it may be called more than once.
func (c *diffCmd) read(e *env, name string) (formats.Reader, func() error, error) {
	inputs, err := c.Source.inputs(e, []string{name})
	if err != nil {
		return nil, nil, err
	}
	var opts convert.Options
	c.Source.apply(&opts)
	opts.Read.Splits = true
	obs := convert.Observe{Warn: func(pe *formats.ParseError) {
		fmt.Fprintf(e.Stderr, "feed2sitemap: warning: %v\n", pe)
	}}
	r, err := openFollowed(inputs, opts, obs)
	if err != nil {
		return nil, nil, err
	}
	closed := false
	var failed error
	closeFn := func() error {
		if closed {
			return failed
		}
		closed = true
		r.Close()
		if c.Source.KeepGoing {
			return nil
		}
		for _, in := range r.src.Inputs() {
			if in.Err != nil {
				failed = errors.Join(failed, fmt.Errorf("%s: %w", in.Name, in.Err))
			}
		}
		return failed
	}
	return r, closeFn, nil
}

// diffReporter writes the changes shown, one at a time, and what ends the
// report.
type diffReporter struct {
	change func(*diff.Change) error
	end    func(diff.Stats) error
}

func (c *diffCmd) reporter(w *bufio.Writer) (*diffReporter, error) {
	if c.To != "" {
		return entriesReporter(w, c.To)
	}
	switch c.Format {
	case "json":
		n := 0
		return &diffReporter{
			change: func(ch *diff.Change) error {
				if n++; n == 1 {
					w.WriteString("{\"changes\": [\n  ")
				} else {
					w.WriteString(",\n  ")
				}
				return writeJSON(w, changeJSON(ch))
			},
			end: func(st diff.Stats) error {
				if n == 0 {
					w.WriteString("{\"changes\": [")
				} else {
					w.WriteString("\n")
				}
				w.WriteString("], \"counts\": ")
				if err := writeJSON(w, countsJSON(st)); err != nil {
					return err
				}
				_, err := w.WriteString("}\n")
				return err
			},
		}, nil
	case "jsonl":
		return &diffReporter{
			change: func(ch *diff.Change) error {
				if err := writeJSON(w, changeJSON(ch)); err != nil {
					return err
				}
				return w.WriteByte('\n')
			},
			end: func(diff.Stats) error { return nil },
		}, nil
	}
	return &diffReporter{
		change: func(ch *diff.Change) error {
			_, err := w.WriteString(changeText(ch))
			return err
		},
		end: func(diff.Stats) error { return nil },
	}, nil
}

// entriesReporter writes the entries of the pages shown as a document of
// the named format.
func entriesReporter(w io.Writer, name string) (*diffReporter, error) {
	f, err := formats.Lookup(name)
	if err != nil || !f.CanWrite() {
		return nil, usageError{fmt.Errorf("--to %s: not a format that can be written", name)}
	}
	// The extensions used are not known before the first page: the format
	// declares every one it can hold.
	fw := f.NewWriter(w, formats.WriteOptions{Uses: f.Carries & formats.ExtAll})
	return &diffReporter{
		change: func(ch *diff.Change) error {
			if ch.Kind == diff.Removed {
				return fw.Write(ch.Old)
			}
			return fw.Write(ch.New)
		},
		end: func(diff.Stats) error { return fw.Close() },
	}, nil
}

// changeText is a change as a line of text: "+ URL", "- URL", or
// "~ URL field old -> new; ...", "(none)" standing for a missing value.
func changeText(ch *diff.Change) string {
	var b strings.Builder
	switch ch.Kind {
	case diff.Added:
		b.WriteString("+ ")
	case diff.Removed:
		b.WriteString("- ")
	default:
		b.WriteString("~ ")
	}
	b.WriteString(termsafe.String(ch.Loc()))
	for i, f := range ch.Fields {
		sep := "; "
		if i == 0 {
			sep = " "
		}
		fmt.Fprintf(&b, "%s%s %s -> %s", sep, f.Name, orNone(f.Old), orNone(f.New))
	}
	b.WriteByte('\n')
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return termsafe.String(s)
}

// The JSON forms of a change and of the counts.
type (
	fieldJSON struct {
		Name string `json:"name"`
		Old  string `json:"old"`
		New  string `json:"new"`
	}
	changeJSONForm struct {
		Change string      `json:"change"`
		Loc    string      `json:"loc"`
		Fields []fieldJSON `json:"fields,omitempty"`
	}
	countsJSONForm struct {
		Added   int `json:"added"`
		Removed int `json:"removed"`
		Changed int `json:"changed"`
		Same    int `json:"same"`
	}
)

func changeJSON(ch *diff.Change) changeJSONForm {
	j := changeJSONForm{Change: ch.Kind.String(), Loc: ch.Loc()}
	for _, f := range ch.Fields {
		j.Fields = append(j.Fields, fieldJSON(f))
	}
	return j
}

func countsJSON(st diff.Stats) countsJSONForm {
	return countsJSONForm{Added: st.Added, Removed: st.Removed, Changed: st.Changed, Same: st.Same}
}

// writeJSON writes v as JSON on one line, without the newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(termsafe.JSON(b))
	return err
}
