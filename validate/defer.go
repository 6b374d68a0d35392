package validate

import (
	"encoding/xml"

	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// xmlProxy is the observer an Observation gives the caller's XML reader
// (XML): it hands each token to the rules, in step with the reading, or,
// once the check is deferred (Defer), records it for them.
type xmlProxy struct {
	ev  *xmlEvents
	rec *sitemapxml.Recording // nil: in step
}

// StartElement checks or records a start tag.
func (p *xmlProxy) StartElement(name xml.Name, attrs []xml.Attr, line, col int) bool {
	if p.rec != nil {
		return p.rec.StartElement(name, attrs, line, col)
	}
	return p.ev.StartElement(name, attrs, line, col)
}

// EndElement checks or records an end tag.
func (p *xmlProxy) EndElement(name xml.Name, line, col int) bool {
	if p.rec != nil {
		return p.rec.EndElement(name, line, col)
	}
	return p.ev.EndElement(name, line, col)
}

// Field checks or records a field of an entry.
func (p *xmlProxy) Field(name xml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	if p.rec != nil {
		return p.rec.Field(name, text, line, col, textLine, textCol, endLine, endCol)
	}
	return p.ev.Field(name, text, line, col, textLine, textCol, endLine, endCol)
}

// CharData checks or records text.
func (p *xmlProxy) CharData(text []byte, line, col int) {
	if p.rec != nil {
		p.rec.CharData(text, line, col)
		return
	}
	p.ev.CharData(text, line, col)
}

// ProcInst checks or records a processing instruction.
func (p *xmlProxy) ProcInst(target string, offset int64, line, col int) {
	if p.rec != nil {
		p.rec.ProcInst(target, offset, line, col)
		return
	}
	p.ev.ProcInst(target, offset, line, col)
}

// Directive checks or records a declaration.
func (p *xmlProxy) Directive(text []byte, line, col int) {
	if p.rec != nil {
		p.rec.Directive(text, line, col)
		return
	}
	p.ev.Directive(text, line, col)
}

// End checks or records the end of the document.
func (p *xmlProxy) End(err error, line, col int) {
	if p.rec != nil {
		p.rec.End(err, line, col)
		return
	}
	p.ev.End(err, line, col)
}

// SkipsSpace passes on that the rules skip white space between the
// children of an entry (see xmlEvents.SkipsSpace).
func (p *xmlProxy) SkipsSpace() {}

// NormalForm returns the normal form the rules computed for the url they
// checked last (see xmlEvents.NormalForm): deferred, once the Replay of
// its entry has run.
func (p *xmlProxy) NormalForm(loc string) (key string, scope int, ok bool) {
	return p.ev.NormalForm(loc)
}

// Deferred is the XML check of an Observation run behind the caller's
// reading, on a goroutine of the caller's (see Observation.Defer).
type Deferred struct {
	p         *xmlProxy
	free      chan *sitemapxml.Recording
	observing bool // the rules still take tokens; Replay's goroutine's
}

// Defer makes the XML rules of the Observation run behind the reader
// instead of in step with it: from now on the tokens the reader gives XML
// are recorded, and the rules check them when the function Cut returns is
// called, on one goroutine at a time, in the order of the cuts. The
// findings of the XML rules are then made through report (the finding of
// the bytes' rules, made on a goroutine of their own, still through the
// report given to Observe). Call it before the reader reads on, on the
// goroutine that reads.
func (o *Observation) Defer(report func(Finding)) *Deferred {
	o.doc.report = report
	p := o.proxy
	p.rec = new(sitemapxml.Recording)
	return &Deferred{p: p, free: make(chan *sitemapxml.Recording, 8), observing: !p.ev.done}
}

// Mark records the end of an entry the reader gave, on the goroutine
// that reads.
func (d *Deferred) Mark() { d.p.rec.Mark() }

// Bytes returns about how many bytes what was recorded since the last Cut
// holds (see sitemapxml.Recording.Bytes), on the goroutine that reads.
func (d *Deferred) Bytes() int { return d.p.rec.Bytes() }

// Cut returns, on the goroutine that reads, the check of what the reader
// gave since the last Cut: a function that gives it to the rules, calling
// onMark at each entry's end once the rules have checked it, so that
// XML().NormalForm then tells the entry's normal form.
func (d *Deferred) Cut() func(onMark func()) {
	rec := d.p.rec
	select {
	case d.p.rec = <-d.free:
	default:
		d.p.rec = new(sitemapxml.Recording)
	}
	return func(onMark func()) {
		d.observing = rec.Replay(d.p.ev, onMark, d.observing)
		rec.Reset()
		select {
		case d.free <- rec:
		default:
		}
	}
}
