package xml

import (
	"strconv"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// appendExt appends the extension elements of a <url>, in the order the
// Writer writes them: each extension of extschema.Extensions in turn, its
// elements in schema order, and the foreign elements where
// Extensions.ForeignAt places them (after all the others when it does
// not). An extension outside uses declares its namespace on each of its
// elements. Images, videos, news data and tvshows that lack a required
// field are left out (never an empty required element; Writer.Close says
// so); they still count as items where foreign elements are placed.
func appendExt(b []byte, x *formats.Extensions, uses formats.ExtensionSet) []byte {
	p := extWriter{b: b}
	xp := unsafe.Pointer(x)
	next, items := 0, 0 // the next foreign element to write; the items written before it
	for _, e := range extschema.Extensions {
		n := e.Items.Len(xp)
		for i := 0; i < n; i++ {
			for x.ForeignAt != nil && next < len(x.Foreign) && x.ForeignAt[next] <= items {
				p.b = append(p.b, x.Foreign[next]...)
				next++
			}
			items++
			item := e.Items.Item(xp, i)
			if e.Missing != nil && e.Missing(item) != nil {
				continue
			}
			p.b = append(p.b, '<')
			p.b = append(p.b, e.QName...)
			if uses&e.Set == 0 {
				p.b = append(p.b, " xmlns:"...)
				p.b = append(p.b, e.Prefix...)
				p.b = append(p.b, `="`...)
				p.b = append(p.b, e.Space...)
				p.b = append(p.b, '"')
			}
			p.rest(&e.Field, item)
		}
	}
	for _, f := range x.Foreign[next:] {
		p.b = append(p.b, f...)
	}
	return p.b
}

// appendForeign appends the foreign elements of x, verbatim.
func appendForeign(b []byte, x *formats.Extensions) []byte {
	for _, f := range x.Foreign {
		b = append(b, f...)
	}
	return b
}

// extWriter appends extension elements.
type extWriter struct{ b []byte }

// fields appends the elements of fs that s holds, in order. A single
// element is written when it has a value or an attribute, a required
// text always; every item of a list is written, but a group lacking a
// required field.
func (p *extWriter) fields(fs []extschema.Field, s unsafe.Pointer) {
	for i := range fs {
		f := &fs[i]
		if f.Plain() {
			if v := *f.Text(s); v != "" || f.Min > 0 {
				p.b = append(p.b, '<')
				p.b = append(p.b, f.QName...)
				p.b = append(p.b, '>')
				p.b = appendEscapedXML(p.b, v, false)
				p.close(f)
			}
			continue
		}
		if f.Items == nil {
			if p.present(f, s) {
				p.open(f)
				p.rest(f, s)
			}
			continue
		}
		n := f.Items.Len(s)
		for j := 0; j < n; j++ {
			item := f.Items.Item(s, j)
			if f.Missing != nil && f.Missing(item) != nil {
				continue
			}
			p.open(f)
			p.rest(f, item)
		}
	}
}

// present reports whether the single element f of s is written.
func (p *extWriter) present(f *extschema.Field, s unsafe.Pointer) bool {
	switch f.Kind {
	case extschema.Group:
		return true
	case extschema.Int:
		return *f.Int(s) != 0
	case extschema.Date:
		return !f.Date(s).IsZero()
	}
	if f.Min > 0 || *f.Text(s) != "" {
		return true
	}
	for i := range f.Attrs {
		if *f.Attrs[i].TextOf(s) != "" {
			return true
		}
	}
	return false
}

// open appends '<' and the name of f.
func (p *extWriter) open(f *extschema.Field) {
	p.b = append(p.b, '<')
	p.b = append(p.b, f.QName...)
}

// rest appends the rest of the element f of item, after its name: its
// attributes, then its content and end tag.
func (p *extWriter) rest(f *extschema.Field, item unsafe.Pointer) {
	for i := range f.Attrs {
		a := &f.Attrs[i]
		switch {
		case a.Fixed != "":
			p.b = append(p.b, ' ')
			p.b = append(p.b, a.Name...)
			p.b = append(p.b, `="`...)
			p.b = append(p.b, a.Fixed...) // a constant of the table: nothing to escape
			p.b = append(p.b, '"')
		case a.Kind == extschema.Int:
			if v := *a.Int(item); v != 0 {
				p.b = append(p.b, ' ')
				p.b = append(p.b, a.Name...)
				p.b = append(p.b, `="`...)
				p.b = strconv.AppendInt(p.b, int64(v), 10)
				p.b = append(p.b, '"')
			}
		default:
			p.attr(a.Name, *a.Text(item))
		}
	}
	switch f.Kind {
	case extschema.Empty:
		p.b = append(p.b, "/>"...)
		return
	case extschema.Group:
		p.b = append(p.b, '>')
		p.fields(f.Fields, item)
	case extschema.Int:
		p.b = append(p.b, '>')
		p.b = strconv.AppendInt(p.b, int64(*f.Int(item)), 10)
	case extschema.Date:
		p.b = append(p.b, '>')
		p.b = f.Date(item).AppendText(p.b)
	default:
		p.b = append(p.b, '>')
		p.b = appendEscapedXML(p.b, *f.Text(item), false)
	}
	p.close(f)
}

// close appends the end tag of f.
func (p *extWriter) close(f *extschema.Field) {
	p.b = append(p.b, "</"...)
	p.b = append(p.b, f.QName...)
	p.b = append(p.b, '>')
}

// attr appends name="v" when v is not empty.
func (p *extWriter) attr(name, v string) {
	if v == "" {
		return
	}
	p.b = append(p.b, ' ')
	p.b = append(p.b, name...)
	p.b = append(p.b, `="`...)
	p.b = appendEscapedXML(p.b, v, true)
	p.b = append(p.b, '"')
}
