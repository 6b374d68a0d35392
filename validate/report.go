package validate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// Report gathers the findings and documents of a run and writes them for
// people (WriteText) or programs (WriteJSON). Its Finding and Document
// methods are the callbacks Check and Options.OnDocument take.
type Report struct {
	// Max is how many findings are kept to be shown; 0 keeps all. Counts
	// include every finding.
	Max int
	// Hint, when set, returns a program's own words for what the text
	// report says of key (the program's flag, say), "" for the report's
	// own: for ErrFindingsNotShown, what sets Max; for ErrScopeUnknown,
	// how to give the documents' URL.
	Hint func(key error) string
	// FixHint, when set, returns a program's own way to fix the findings
	// of rule (its flag, say), which the text and JSON reports add to the
	// rule's Fix in a parenthesis; "" adds nothing.
	FixHint func(rule *Rule) string

	files    []*fileReport
	byName   map[string]*fileReport
	shown    int
	errors   int
	warnings int
	unscoped int
}

type fileReport struct {
	doc      Document
	known    bool
	errors   int
	warnings int
	findings []Finding
}

// The keys of Report.Hint: what the text report says of, for a program to
// add its own advice (a flag, say).
var (
	// ErrFindingsNotShown is the findings counted but not kept (Omitted).
	ErrFindingsNotShown = errors.New("validate: findings not shown")
	// ErrScopeUnknown is documents whose URL is unknown, for which the
	// host and directory rules were skipped.
	ErrScopeUnknown = errors.New("validate: the URL a document is served at is unknown")
)

// hint returns what Hint says of key, or else def.
func (r *Report) hint(key error, def string) string {
	if r.Hint != nil {
		if h := r.Hint(key); h != "" {
			return h
		}
	}
	return def
}

// fix returns how to fix the findings of rule: its Fix, with FixHint's.
func (r *Report) fix(rule *Rule) string {
	if r.FixHint != nil {
		if h := r.FixHint(rule); h != "" {
			return rule.Fix + " (" + h + ")"
		}
	}
	return rule.Fix
}

// NewReport returns a Report that keeps at most max findings (0: all).
func NewReport(max int) *Report {
	return &Report{Max: max, byName: map[string]*fileReport{}}
}

func (r *Report) file(name string) *fileReport {
	f := r.byName[name]
	if f == nil {
		f = &fileReport{doc: Document{Source: name}}
		r.byName[name] = f
		r.files = append(r.files, f)
	}
	return f
}

// Finding records a finding.
func (r *Report) Finding(f Finding) {
	fr := r.file(f.Source)
	if f.Rule.Severity == Error {
		r.errors++
		fr.errors++
	} else {
		r.warnings++
		fr.warnings++
	}
	if r.Max == 0 || r.shown < r.Max {
		r.shown++
		fr.findings = append(fr.findings, f)
	}
}

// Document records a document that was checked.
func (r *Report) Document(d Document) {
	fr := r.file(d.Source)
	fr.doc, fr.known = d, true
	if !d.ScopeKnown {
		r.unscoped++
	}
}

// Errors returns the number of error findings.
func (r *Report) Errors() int { return r.errors }

// Warnings returns the number of warning findings.
func (r *Report) Warnings() int { return r.warnings }

// Omitted returns the number of findings counted but not kept (beyond Max).
func (r *Report) Omitted() int { return r.errors + r.warnings - r.shown }

// ordered returns the files, each input followed by the documents it
// listed.
func (r *Report) ordered() []*fileReport {
	children := map[string][]*fileReport{}
	var roots []*fileReport
	for _, f := range r.files {
		if p := f.doc.Parent; p != "" && r.byName[p] != nil && p != f.doc.Source {
			children[p] = append(children[p], f)
		} else {
			roots = append(roots, f)
		}
	}
	out := make([]*fileReport, 0, len(r.files))
	done := map[*fileReport]bool{}
	var walk func(f *fileReport)
	walk = func(f *fileReport) {
		if done[f] {
			return
		}
		done[f] = true
		out = append(out, f)
		for _, c := range children[f.doc.Source] {
			walk(c)
		}
	}
	for _, f := range roots {
		walk(f)
	}
	for _, f := range r.files { // a cycle of parents, should one happen
		walk(f)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// WriteText writes the report for people: each file with its findings,
// then a summary line. Control characters of the documents and servers
// quoted (ESC, CR, C1 controls, bidirectional overrides) are escaped
// (package termsafe), so that the report is safe to show in a terminal.
func (r *Report) WriteText(w io.Writer) error {
	tw := termsafe.NewWriter(w)
	defer tw.Flush()
	bw := bufio.NewWriter(tw)
	for _, f := range r.ordered() {
		fmt.Fprintf(bw, "%s", f.doc.Source)
		if f.known {
			desc := f.doc.Format
			if desc == "" {
				desc = "unrecognized"
			}
			entries := "URL"
			if f.doc.Format == "index" || f.doc.Format == "robots" {
				entries = "sitemap"
			}
			fmt.Fprintf(bw, " (%s, %s", desc, plural(f.doc.URLs, entries, entries+"s"))
			if f.doc.Parent != "" {
				fmt.Fprintf(bw, ", listed by %s", f.doc.Parent)
			}
			fmt.Fprint(bw, ")")
		}
		switch {
		case f.errors+f.warnings == 0:
			fmt.Fprintln(bw, ": ok")
			continue
		default:
			fmt.Fprintf(bw, ": %s, %s\n", plural(f.errors, "error", "errors"), plural(f.warnings, "warning", "warnings"))
		}
		for _, x := range f.findings {
			pos := "-"
			switch {
			case x.Line > 0 && x.Column > 0:
				pos = fmt.Sprintf("%d:%d", x.Line, x.Column)
			case x.Line > 0:
				pos = fmt.Sprint(x.Line)
			}
			fmt.Fprintf(bw, "  %s: %s: %s [%s]\n      fix: %s\n", pos, x.Rule.Severity, x.Message, x.Rule.ID, r.fix(x.Rule))
		}
		if n := f.errors + f.warnings - len(f.findings); n > 0 {
			fmt.Fprintf(bw, "  (%s not shown)\n", plural(n, "more finding", "more findings"))
		}
	}
	fmt.Fprintf(bw, "\n%s, %s in %s\n", plural(r.errors, "error", "errors"), plural(r.warnings, "warning", "warnings"), plural(len(r.files), "file", "files"))
	if n := r.Omitted(); n > 0 {
		fmt.Fprintf(bw, "%s not shown (%s %d)\n", plural(n, "finding", "findings"), r.hint(ErrFindingsNotShown, "at most"), r.Max)
	}
	if r.unscoped > 0 {
		fmt.Fprintf(bw, "note: the host and directory rules were skipped for %s whose URL is unknown (%s)\n", plural(r.unscoped, "file", "files"),
			r.hint(ErrScopeUnknown, "give it: Source.URL"))
	}
	return bw.Flush()
}

// JSONReport is the document WriteJSON writes. Its fields are stable:
// new ones may be added, none renamed or removed.
type JSONReport struct {
	// Version is 1.
	Version int `json:"version"`
	// Valid is true when there is no error.
	Valid bool `json:"valid"`
	// Errors and Warnings count every finding; Omitted those beyond Max.
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Omitted  int `json:"omitted"`
	// Unscoped is how many files were checked without a known URL (so
	// without the host and directory rules).
	Unscoped int        `json:"unscoped"`
	Files    []JSONFile `json:"files"`
}

// JSONFile is one document of a JSONReport.
type JSONFile struct {
	Source   string        `json:"source"`
	Format   string        `json:"format"`
	Parent   string        `json:"parent,omitempty"`
	URLs     int           `json:"urls"`
	Bytes    int64         `json:"bytes"`
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Findings []JSONFinding `json:"findings"`
}

// JSONFinding is one finding of a JSONFile. Line and Column are 0 when the
// finding is about the whole file.
type JSONFinding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

// JSON returns the report as a JSONReport.
func (r *Report) JSON() JSONReport {
	out := JSONReport{Version: 1, Valid: r.errors == 0, Errors: r.errors, Warnings: r.warnings,
		Omitted: r.Omitted(), Unscoped: r.unscoped, Files: []JSONFile{}}
	for _, f := range r.ordered() {
		jf := JSONFile{Source: f.doc.Source, Format: f.doc.Format, Parent: f.doc.Parent, URLs: f.doc.URLs,
			Bytes: f.doc.Bytes, Errors: f.errors, Warnings: f.warnings, Findings: []JSONFinding{}}
		for _, x := range f.findings {
			jf.Findings = append(jf.Findings, JSONFinding{Rule: x.Rule.ID, Severity: x.Rule.Severity,
				Line: x.Line, Column: x.Column, Message: x.Message, Fix: r.fix(x.Rule)})
		}
		out.Files = append(out.Files, jf)
	}
	return out
}

// WriteJSON writes the report as JSON (a JSONReport), indented, with the
// control characters encoding/json leaves raw (C1 controls, bidirectional
// overrides) escaped as \u sequences too.
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r.JSON(), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(b), '\n'))
	return err
}
