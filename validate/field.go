package validate

import "encoding/xml"

// Field checks a field of an entry the XML reader's fast path read whole
// (sitemapxml.FieldObserver): <name>text</name>, without attributes.
func (e *xmlEvents) Field(name xml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	e.done = !e.d.field(name, text, line, col, textLine, textCol, endLine, endCol)
	return !e.done
}

// field checks <name>text</name> as startElement, charData and
// endElement do, without opening the element when its value is all there
// is to check: a field of an entry (loc, lastmod...) is its parent's child
// in the content model, and its value. False stops the check.
func (d *doc) field(name xml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	x := d.x
	n := len(x.stack)
	if name.Space != "" || n == 0 || n+1 >= maxDepth || x.rootDone {
		// Not the child of an element being checked: token by token.
		if !d.startElement(name, nil, line, col) {
			return false
		}
		d.charData(text, textLine, textCol)
		return d.endElement(name, endLine, endCol)
	}
	parent := &x.stack[n-1]
	if parent.def == nil {
		return true // an element not checked, and its text
	}
	ns := x.defaultNS // resolve(""), without the call: it changes seldom
	if !x.defaultKnown {
		ns, _ = x.resolve("")
	}
	// Not on the stack: the hooks are given its address. Its other fields
	// stay zero (only def and text are ever set, here and by open), so
	// that the frame is what startElement would open, without writing it
	// whole.
	f := &x.field
	f.raw, f.name, f.ns, f.line, f.col, f.text = name.Local, name.Local, ns, line, col, nil
	f.def = d.child(parent, name.Local, ns, f.raw, line, col)
	if def := f.def; def == nil || def.value == nil || def.seq != nil || def.start != nil || def.end != nil || len(text) > maxText {
		// Not a value alone (or nothing to check, nil): opened, as
		// startElement would.
		d.open(f, nil)
		d.charData(text, textLine, textCol)
		return d.endElement(name, endLine, endCol)
	}
	d.checkDecl(f.def, nil, f.raw, line, col)
	// The value, as endElement gives it from the text charData keeps.
	f.text = text
	if f.def.transient {
		f.def.value(d, f, textView(text))
	} else {
		f.def.value(d, f, string(text))
	}
	f.text = nil
	return true
}
