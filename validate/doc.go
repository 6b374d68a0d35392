package validate

import (
	"fmt"
	"net/url"
	"strings"
)

// maxCharFindings is how many invalid-utf8 or invalid-char findings one
// document reports before it only counts them.
const maxCharFindings = 10

// doc is the state of one document being checked.
type doc struct {
	v          *Validator
	src        Source
	id         uint32
	report     func(Finding)
	info       Document
	parentKind parentKind
	scope      *url.URL // the document's directory URL, or nil
	check      *checker // the check of the document's format; nil until known
	stopped    bool     // the input ended early (too large, corrupt gzip, read error)
	readErr    error    // a read error of the underlying reader
	followed   int
	errors     int // error findings reported

	charCount [2]int // invalid-utf8, invalid-char findings
	news      int
	hreflang  hreflangState
	x         *xmlCheck
}

func (v *Validator) newDoc(src Source, report func(Finding)) *doc {
	d := &doc{v: v, src: src, report: report, id: uint32(len(v.docs))}
	v.docs = append(v.docs, src.Name)
	d.info.Source = src.Name
	if src.URL != nil && (src.URL.Scheme == "http" || src.URL.Scheme == "https") && src.URL.Host != "" {
		dir := *src.URL
		dir.RawQuery, dir.Fragment, dir.RawFragment = "", "", ""
		if i := strings.LastIndexByte(dir.EscapedPath(), '/'); i >= 0 {
			p := dir.EscapedPath()[:i+1]
			dir.RawPath = ""
			if unesc, err := url.PathUnescape(p); err == nil {
				dir.Path = unesc
				dir.RawPath = p
			}
		} else {
			dir.Path, dir.RawPath = "/", ""
		}
		d.scope = &dir
	}
	return d
}

// reportAt reports a finding of rule at a position of the document.
func (d *doc) reportAt(r *Rule, line, col int, format string, args ...any) {
	d.reportMsg(r, line, col, fmt.Sprintf(format, args...))
}

// reportMsg is reportAt with the message made: for the findings a
// document may hold one of for each element, whose arguments fmt would
// copy to the heap first.
func (d *doc) reportMsg(r *Rule, line, col int, msg string) {
	if r.Severity == Error {
		d.errors++
	}
	d.report(Finding{Rule: r, Source: d.src.Name, Line: line, Column: col, Message: msg})
}

// finish runs the checks made at the end of a document.
func (d *doc) finish() {
	for i, r := range []*Rule{ruleInvalidUTF8, ruleInvalidChar} {
		if n := d.charCount[i] - maxCharFindings; n > 0 {
			d.reportAt(r, 0, 0, "%d more like these not shown", n)
		}
	}
	d.hreflang.finish(d)
}
