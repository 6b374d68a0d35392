package jsonl

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// extensionOf returns the extension whose key in an entry's object is key,
// or nil.
func extensionOf(key string) *extschema.Extension {
	for _, e := range extschema.Extensions {
		if extensionKey(e) == key {
			return e
		}
	}
	return nil
}

// field reads the element f of parent from raw (see ext.go for the forms):
// an item of a list is added, and removed again when it is not kept. It
// reports false when a single element is bad.
func (c *checker) field(f *extschema.Field, raw json.RawMessage, parent unsafe.Pointer, path string) bool {
	switch {
	case f.Items == nil:
		return c.item(f, raw, parent, path)
	case isMarker(f):
		var on bool
		if c.decode(path, raw, &on, "true or false") && on {
			f.Items.Add(parent)
		}
	case !isList(f):
		if !c.item(f, raw, f.Items.Add(parent), path) {
			f.Items.Cut(parent, 0)
		}
	default:
		var list []json.RawMessage
		if !c.decode(path, raw, &list, "an array") {
			return true
		}
		if f.Max > 0 && len(list) > f.Max {
			c.warn(false, "%s past the first %d ignored", path, f.Max)
			list = list[:f.Max]
		}
		for _, r := range list {
			n := f.Items.Len(parent)
			if !c.item(f, r, f.Items.Add(parent), path) {
				f.Items.Cut(parent, n)
			}
		}
	}
	return true
}

// item reads one element f into item, and reports whether it is good: an
// item of a list that is not is removed (one not of its form, whose URL
// is bad or missing, or whose qualifying attribute is bad, as a video
// price's currency), and so is a group whose required value is bad (a
// news language, a tvshow's video type).
func (c *checker) item(f *extschema.Field, raw json.RawMessage, item unsafe.Pointer, path string) bool {
	hasValue := f.Kind != extschema.Group && f.Kind != extschema.Empty
	if hasValue && len(f.Attrs) == 0 {
		return c.value(f, raw, item, path)
	}
	var obj map[string]json.RawMessage
	if !c.decode(path, raw, &obj, "an object") {
		return false
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	keep := true
	for _, k := range keys {
		v, sub := obj[k], path+"."+k
		if string(v) == "null" {
			continue
		}
		if k == valueKey && hasValue {
			keep = c.value(f, v, item, path) && keep
			continue
		}
		if a := attrNamed(f, k); a != nil {
			keep = (c.attr(a, v, item, sub) || !a.Qualifies) && keep
			continue
		}
		if child := f.Child(k); child != nil {
			if !c.field(child, v, item, sub) && child.Min > 0 {
				keep = false
			}
			continue
		}
		c.warn(false, "unknown key %q ignored", sub)
	}
	if hasValue && f.Kind == extschema.Loc && f.Items != nil && isAbsent(f, item) && keep {
		c.warn(false, "%s: no URL: left out", path)
		return false
	}
	return keep
}

// attrNamed returns the attribute of f named name, or nil (a fixed one is
// not in the format).
func attrNamed(f *extschema.Field, name string) *extschema.Attr {
	for i := range f.Attrs {
		if a := &f.Attrs[i]; a.Name == name && a.Fixed == "" {
			return a
		}
	}
	return nil
}

// value reads the value of the element f of item, and reports false when
// it is bad (and dropped, with a warning).
func (c *checker) value(f *extschema.Field, raw json.RawMessage, item unsafe.Pointer, path string) bool {
	switch f.Kind {
	case extschema.Int:
		n, ok := c.integer(path, raw, max(f.Lo, 1), f.Hi)
		*f.Int(item) = n
		return ok
	case extschema.Date:
		var s string
		if !c.decode(path, raw, &s, "a date") {
			return false
		}
		*f.Date(item) = c.date(path, s)
		return s == "" || !f.Date(item).IsZero()
	}
	s, ok := c.text(path, raw, f.Kind == extschema.Count || f.Kind == extschema.Decimal)
	if !ok || s == "" {
		return ok
	}
	switch f.Kind {
	case extschema.Loc:
		s = c.url(path, s)
	case extschema.Count:
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			c.warn(false, "%s %s ignored: not %s", path, clip(s), f.Want)
			s = ""
		}
	case extschema.Decimal:
		if d, err := strconv.ParseFloat(s, 64); err != nil || !(d >= float64(f.Lo) && d <= float64(f.Hi)) {
			c.warn(false, "%s %s ignored: not %s", path, clip(s), f.Want)
			s = ""
		}
	default:
		s = c.checked(path, s, f.Check, f.Want)
	}
	*f.Text(item) = s
	return s != ""
}

// attr reads the attribute a of item, and reports false when it is bad
// (and dropped, with a warning).
func (c *checker) attr(a *extschema.Attr, raw json.RawMessage, item unsafe.Pointer, path string) bool {
	if a.Kind == extschema.Int {
		n, ok := c.integer(path, raw, max(a.Lo, 1), a.Hi)
		*a.Int(item) = n
		return ok
	}
	s, ok := c.text(path, raw, false)
	if !ok || s == "" {
		return ok
	}
	if a.Kind == extschema.Loc {
		s = c.url(path, s)
	} else {
		s = c.checked(path, s, a.Check, a.Want)
	}
	*a.Text(item) = s
	return s != ""
}

// text reads a string, or a number written as it is when number is set.
func (c *checker) text(path string, raw json.RawMessage, number bool) (string, bool) {
	if number && len(raw) > 0 && (raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9') {
		return string(raw), true
	}
	var s string
	return s, c.decode(path, raw, &s, "a string")
}

// integer reads a whole number from lo to hi (or a string holding one); 0
// is absent.
func (c *checker) integer(path string, raw json.RawMessage, lo, hi int) (int, bool) {
	var n int
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		v, err := strconv.Atoi(uri.TrimSpace(s))
		if err != nil && s != "" {
			c.warn(false, "%s %s ignored: not a whole number from %d to %d", path, clip(s), lo, hi)
			return 0, false
		}
		n = v
	} else if !c.decode(path, raw, &n, "a whole number") {
		return 0, false
	}
	if n != 0 && (n < lo || n > hi) {
		c.warn(false, "%s %d ignored: not a whole number from %d to %d", path, n, lo, hi)
		return 0, false
	}
	return n, true
}

// decode reads raw into v, and reports false after a warning naming what
// was expected when it is not of that type.
func (c *checker) decode(path string, raw json.RawMessage, v any, want string) bool {
	if p, ok := v.(*string); ok && isPlainString(raw) {
		*p = string(raw[1 : len(raw)-1])
		return true
	}
	if err := json.Unmarshal(raw, v); err != nil {
		c.warn(false, "%s ignored: %s where %s belongs", path, jsonKind(raw), want)
		return false
	}
	return true
}

// isPlainString reports whether raw, a value of a line json.Unmarshal
// found valid, is a string without escapes in UTF-8: its text is what is
// between its quotes, read without decoding it again.
func isPlainString(raw json.RawMessage) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	body := raw[1 : len(raw)-1]
	return bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body)
}

// jsonKind names the kind of a JSON value.
func jsonKind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}
