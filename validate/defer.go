package validate

import sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"

// xmlProxy is the observer an Observation gives the caller's XML reader
// (XML): it hands each token to the rules (ev), in step with the reading,
// or, once the check is deferred (Defer), to the recording of them (rec).
type xmlProxy struct {
	sitemapxml.FieldObserver // ev, or rec once deferred
	ev                       *xmlEvents
	rec                      *sitemapxml.Recording
}

// SkipsSpace passes on that the rules skip white space between the
// children of an entry (see xmlEvents.SkipsSpace), as a Recording does.
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
	p.FieldObserver = p.rec
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
	d.p.FieldObserver = d.p.rec
	return func(onMark func()) {
		d.observing = rec.Replay(d.p.ev, onMark, d.observing)
		rec.Reset()
		select {
		case d.free <- rec:
		default:
		}
	}
}
