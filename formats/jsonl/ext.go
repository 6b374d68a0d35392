package jsonl

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// The extension data of an entry is written and read by walking the
// extension schema (package extschema), so that a field added there is
// held here without an edit. An element becomes a key named as the schema
// names the element, whose value is:
//
//   - a group (video:video, news:publication): an object of its children;
//   - an element with attributes (video:player_loc, video:price,
//     xhtml:link): an object of "value" (its text, if it has one) and its
//     attributes;
//   - any other element: its value, a string, a number (a whole number
//     of the schema) or a date written as lastmod is;
//   - a list (images, videos, video:tag): an array of those; an optional
//     group (news:news, video:tvshow) one of them; a marker (mobile)
//     true.
//
// An absent element (empty text, zero, no item) has no key; an item of a
// list is always written, so that the list keeps its length.

// extensionKeys are the keys of the extensions' top elements in an entry's
// object; an extension not listed here is keyed by its element's name.
var extensionKeys = map[string]string{
	"image": "images", "video": "videos", "news": "news", "xhtml": "alternates", "mobile": "mobile",
}

// extensionKey returns the key of extension e in an entry's object.
func extensionKey(e *extschema.Extension) string {
	if k, ok := extensionKeys[e.Prefix]; ok {
		return k
	}
	return e.Name
}

// valueKey is the key of an element's text beside its attributes.
const valueKey = "value"

// isList reports whether f is a list (an array in JSON), rather than a
// single element, an optional group or a marker.
func isList(f *extschema.Field) bool { return f.Items != nil && f.Max != 1 }

// isMarker reports whether f is a marker: an element that is there or not.
func isMarker(f *extschema.Field) bool {
	return f.Items != nil && f.Max == 1 && f.Kind == extschema.Empty && len(f.Attrs) == 0
}

// appendExt appends the keys of the extension data x holds, each after a
// comma.
func appendExt(b []byte, x *formats.Extensions) []byte {
	for _, e := range extschema.Extensions {
		if e.Items.Len(unsafe.Pointer(x)) > 0 {
			b = appendKey(b, extensionKey(e))
			b = appendField(b, &e.Field, unsafe.Pointer(x))
		}
	}
	return b
}

// appendField appends the value of the element f of parent, which holds
// it: for a list, an array of its items.
func appendField(b []byte, f *extschema.Field, parent unsafe.Pointer) []byte {
	switch {
	case f.Items == nil:
		return appendItem(b, f, parent)
	case isMarker(f):
		return append(b, "true"...)
	case !isList(f):
		return appendItem(b, f, f.Items.Item(parent, 0))
	}
	b = append(b, '[')
	for i := 0; i < f.Items.Len(parent); i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(b, f, f.Items.Item(parent, i))
	}
	return append(b, ']')
}

// appendItem appends one element f, of the model's item.
func appendItem(b []byte, f *extschema.Field, item unsafe.Pointer) []byte {
	if f.Kind != extschema.Group && f.Kind != extschema.Empty && len(f.Attrs) == 0 {
		return appendValue(b, f, item)
	}
	b = append(b, '{')
	start := len(b)
	if f.Kind != extschema.Group && f.Kind != extschema.Empty && !isAbsent(f, item) {
		b = appendKey(b, valueKey)
		b = appendValue(b, f, item)
	}
	for i := range f.Attrs {
		a := &f.Attrs[i]
		switch {
		case a.Fixed != "":
		case a.Kind == extschema.Int && *a.Int(item) != 0:
			b = appendKey(b, a.Name)
			b = strconv.AppendInt(b, int64(*a.Int(item)), 10)
		case a.Kind != extschema.Int && *a.Text(item) != "":
			b = appendKey(b, a.Name)
			b = appendString(b, *a.Text(item))
		}
	}
	for i := range f.Fields {
		c := &f.Fields[i]
		if c.Items != nil && c.Items.Len(item) == 0 || c.Items == nil && isEmpty(c, item) {
			continue
		}
		b = appendKey(b, c.Name)
		b = appendField(b, c, item)
	}
	if len(b) > start {
		// Drop the comma appendKey put before the first key.
		b = append(b[:start], b[start+1:]...)
	}
	return append(b, '}')
}

// appendValue appends the value of the element f of item.
func appendValue(b []byte, f *extschema.Field, item unsafe.Pointer) []byte {
	switch f.Kind {
	case extschema.Int:
		return strconv.AppendInt(b, int64(*f.Int(item)), 10)
	case extschema.Date:
		return appendString(b, dateText(*f.Date(item)))
	}
	return appendString(b, *f.Text(item))
}

// isAbsent reports whether the value of element f of item is absent.
func isAbsent(f *extschema.Field, item unsafe.Pointer) bool {
	switch f.Kind {
	case extschema.Group, extschema.Empty:
		return true
	case extschema.Int:
		return *f.Int(item) == 0
	case extschema.Date:
		return f.Date(item).IsZero()
	}
	return *f.Text(item) == ""
}

// isEmpty reports whether a single element f of item (not a list) holds
// nothing: no value, no attribute, no child.
func isEmpty(f *extschema.Field, item unsafe.Pointer) bool {
	if !isAbsent(f, item) {
		return false
	}
	for i := range f.Attrs {
		a := &f.Attrs[i]
		if a.Fixed == "" && (a.Kind == extschema.Int && *a.Int(item) != 0 || a.Kind != extschema.Int && *a.Text(item) != "") {
			return false
		}
	}
	for i := range f.Fields {
		c := &f.Fields[i]
		if c.Items != nil && c.Items.Len(item) > 0 || c.Items == nil && !isEmpty(c, item) {
			return false
		}
	}
	return true
}

// appendKey appends a comma and the key with its colon.
func appendKey(b []byte, key string) []byte {
	b = append(b, ',')
	b = appendString(b, key)
	return append(b, ':')
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string, as encoding/json writes it but
// with <, > and & as they are (foreign elements stay readable): quotes,
// backslashes and control characters escaped, bytes that are not UTF-8 as
// U+FFFD, U+2028 and U+2029 escaped for JavaScript.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			switch r {
			case utf8.RuneError:
				b = append(b, `\ufffd`...)
			case '\u2028':
				b = append(b, `\u2028`...)
			default:
				b = append(b, `\u2029`...)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
