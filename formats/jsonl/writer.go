package jsonl

import (
	"errors"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

var errNoLoc = errors.New("jsonl: entry without a loc")

// Encoder renders a JSON Lines document (formats.Encoder): the head line,
// when the options hold document-level elements, then one line per entry,
// every field it has; no footer. Entries of both kinds may share a
// document. The format's Writer, which formats.Register gives it, writes
// what the Encoder renders.
type Encoder struct {
	head []string
}

// NewEncoder returns the Encoder of a document written with opts. Of the
// options it uses only Head: a JSON Lines document has no root element,
// namespaces, stylesheet or feed description.
func NewEncoder(opts formats.WriteOptions) *Encoder {
	return &Encoder{head: opts.Head}
}

// AppendHeader appends the head line {"head":[…]} when the document has
// document-level elements, else nothing.
func (enc *Encoder) AppendHeader(dst []byte) []byte {
	if len(enc.head) == 0 {
		return dst
	}
	dst = append(dst, `{"head":`...)
	return append(appendStrings(dst, enc.head), '}', '\n')
}

// AppendEntry appends the line of e, newline included: its keys in the
// order the package documentation lists them. An entry without a loc is
// refused.
func (enc *Encoder) AppendEntry(dst []byte, e *formats.Entry) ([]byte, error) {
	if e.Loc == "" {
		return dst, errNoLoc
	}
	b := append(dst, `{"loc":`...)
	b = appendString(b, e.Loc)
	if e.Kind == formats.KindSitemap {
		b = appendKey(b, "kind")
		b = appendString(b, formats.KindSitemap.String())
	}
	if !e.LastMod.IsZero() {
		b = appendKey(b, "lastmod")
		b = appendString(b, dateText(e.LastMod))
	}
	if e.ChangeFreq != "" {
		b = appendKey(b, "changefreq")
		b = appendString(b, string(e.ChangeFreq))
	}
	if e.Priority.IsSet() {
		b = appendKey(b, "priority")
		b = e.Priority.AppendText(b)
	}
	if e.Title != "" {
		b = appendKey(b, "title")
		b = appendString(b, e.Title)
	}
	if e.Summary != "" {
		b = appendKey(b, "summary")
		b = appendString(b, e.Summary)
	}
	if e.Ext != nil {
		b = appendExt(b, e.Ext)
		if len(e.Ext.Foreign) > 0 {
			b = appendKey(b, "foreign")
			b = appendStrings(b, e.Ext.Foreign)
		}
		if e.Ext.ForeignAt != nil {
			b = appendKey(b, "foreign_at")
			b = append(b, '[')
			for i, at := range e.Ext.ForeignAt {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(at), 10)
			}
			b = append(b, ']')
		}
	}
	return append(b, '}', '\n'), nil
}

// appendStrings appends ss as a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// dateText returns a date at the precision it was given, so that it reads
// back (formats.ParseLastMod) as the same instant at the same precision: a
// year or a month alone stays one, and a time to the minute has no
// seconds. Unknown is "".
func dateText(l formats.LastMod) string {
	t := l.Time()
	switch l.Precision() {
	case formats.PrecisionUnknown:
		return ""
	case formats.PrecisionYear:
		return t.Format("2006")
	case formats.PrecisionMonth:
		return t.Format("2006-01")
	case formats.PrecisionMinute:
		return t.Format("2006-01-02T15:04Z07:00")
	}
	return l.String()
}

// Wrote does nothing: a JSON Lines document has nothing to say about its
// entries as a whole.
func (enc *Encoder) Wrote(*formats.Entry) {}

// AppendFooter appends nothing: a JSON Lines document has no footer.
func (enc *Encoder) AppendFooter(dst []byte) []byte { return dst }

// Warnings returns nil: the format holds every field of the model.
func (enc *Encoder) Warnings() []string { return nil }
