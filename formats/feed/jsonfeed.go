package feed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	jsonfeed "github.com/mmcdole/gofeed/json"
)

// A JSON Feed is read leniently, field by field. gofeed decodes it with
// encoding/json into typed structures, where one mistyped field ("tags":
// "one", "authors": {…}, "date_modified": 5) fails the whole document. So
// the reader walks the document itself: the top-level object, then each
// item. An object whose members all decode is decoded in one go; otherwise
// each member is tried on its own, and those gofeed cannot decode are
// dropped with a warning that names the item, the field and where it is,
// while the rest of the item is kept. An item that is not an object is
// skipped with a warning; "items" written as an object (as PHP encodes an
// array with gaps in its keys) gives its members as the items, with a
// warning. Only input that is not JSON, or has no top-level object or no
// "items" at all, fails.

// skipValue is a JSON value decoded into nothing: the decoder checks it and
// moves past it without copying it.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// jsonMember is a member of a JSON object: its key and its value, which
// starts at offset at of the document.
type jsonMember struct {
	key   string
	value []byte
	at    int64
}

// jsonFeedReader walks a JSON Feed document.
type jsonFeedReader struct {
	r    *Reader
	data []byte
	// Where position last stopped, so that positions asked in document
	// order cost one pass over the document, however many warnings.
	off, lineStart int64
	line           int
	afterCR        bool
}

// position returns the line and column of offset off of the document
// (0, 0 when off is not in it). Lines end with LF, CRLF or CR, as the text
// readers count them.
func (j *jsonFeedReader) position(off int64) (int, int) {
	if off < 0 || off > int64(len(j.data)) {
		return 0, 0
	}
	if off < j.off || j.line == 0 {
		j.off, j.lineStart, j.line, j.afterCR = 0, 0, 1, false
	}
	for ; j.off < off; j.off++ {
		switch c := j.data[j.off]; {
		case c == '\n' && j.afterCR:
			j.lineStart = j.off + 1
		case c == '\n' || c == '\r':
			j.line++
			j.lineStart = j.off + 1
		}
		j.afterCR = j.data[j.off] == '\r'
	}
	return j.line, int(off-j.lineStart) + 1
}

// decodeJSONFeed decodes the JSON Feed data, dropping with a warning what
// gofeed cannot decode. It returns the feed and its items in order.
func (r *Reader) decodeJSONFeed(data []byte) (*jsonfeed.Feed, []jsonFeedItem, error) {
	j := &jsonFeedReader{r: r, data: data}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, j.syntaxError(err, 0)
	}
	if tok != json.Delim('{') {
		line, col := j.position(int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n"))))
		return nil, nil, r.opts.Errorf(line, col, "not a valid JSON Feed: the top level is %s, not an object", jsonKindOf(tok))
	}
	var top []jsonMember
	var items []jsonFeedItem
	seenItems := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, j.syntaxError(err, 0)
		}
		key, _ := tok.(string)
		start := dec.InputOffset()
		if key == "items" && !seenItems {
			seenItems = true
			if items, err = j.items(dec, start); err != nil {
				return nil, nil, err
			}
			continue
		}
		if err := dec.Decode(&skipValue{}); err != nil {
			return nil, nil, j.syntaxError(err, 0)
		}
		if key != "items" {
			v, at := j.value(start, dec.InputOffset())
			top = append(top, jsonMember{key: key, value: v, at: at})
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, j.syntaxError(err, 0)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := j.position(dec.InputOffset())
		return nil, nil, r.opts.Errorf(line, col, "not a valid JSON Feed: content after the top-level object")
	}
	if !seenItems {
		return nil, nil, r.opts.Errorf(0, 0, `not a valid JSON Feed: no "items"`)
	}
	f := &jsonfeed.Feed{}
	if err := j.decodeObject(f, func() any { return &jsonfeed.Feed{} }, "the feed", top); err != nil {
		return nil, nil, err
	}
	return f, items, nil
}

// jsonFeedItem is an item of a JSON Feed: decoded, or, when it is not an
// object, what it is instead ("a string").
type jsonFeedItem struct {
	item      *jsonfeed.Item
	notObject string
}

// items reads the value of "items", whose key ends at offset at: an array
// of items, or an object whose members are the items.
func (j *jsonFeedReader) items(dec *json.Decoder, at int64) ([]jsonFeedItem, error) {
	rest := bytes.TrimLeft(j.data[at:], " \t\r\n:")
	if len(rest) == 0 || rest[0] != '[' && rest[0] != '{' {
		if err := dec.Decode(&skipValue{}); err != nil {
			return nil, j.syntaxError(err, 0)
		}
		line, col := j.position(int64(len(j.data) - len(rest)))
		return nil, j.r.opts.Errorf(line, col, `not a valid JSON Feed: "items" is %s, not an array`, jsonKind(rest))
	}
	object := rest[0] == '{'
	if object {
		line, col := j.position(int64(len(j.data) - len(rest)))
		if err := j.r.opts.Warningf(line, col, false, `"items" is an object, not an array: its members are read as the items`); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, j.syntaxError(err, 0)
	}
	var items []jsonFeedItem
	for dec.More() {
		if object {
			if _, err := dec.Token(); err != nil {
				return nil, j.syntaxError(err, 0)
			}
		}
		start := dec.InputOffset()
		if err := dec.Decode(&skipValue{}); err != nil {
			return nil, j.syntaxError(err, 0)
		}
		raw, at := j.value(start, dec.InputOffset())
		if raw[0] != '{' {
			items = append(items, jsonFeedItem{notObject: jsonKind(raw)})
			continue
		}
		it, err := j.item(len(items)+1, raw, at)
		if err != nil {
			return nil, err
		}
		items = append(items, jsonFeedItem{item: it})
	}
	if _, err := dec.Token(); err != nil {
		return nil, j.syntaxError(err, 0)
	}
	return items, nil
}

// item decodes the nth item, the object raw, which starts at offset at.
func (j *jsonFeedReader) item(n int, raw []byte, at int64) (*jsonfeed.Item, error) {
	it := &jsonfeed.Item{}
	if json.Unmarshal(raw, it) == nil {
		return it, nil
	}
	*it = jsonfeed.Item{}
	members, err := j.members(raw, at)
	if err != nil {
		return nil, err
	}
	return it, j.decodeObject(it, func() any { return &jsonfeed.Item{} }, fmt.Sprintf("item %d", n), members)
}

// members returns the members of the JSON object raw, or the elements
// (without keys) of the JSON array raw, which starts at offset at of the
// document.
func (j *jsonFeedReader) members(raw []byte, at int64) ([]jsonMember, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, j.syntaxError(err, at)
	}
	object := tok == json.Delim('{')
	var members []jsonMember
	for dec.More() {
		var key string
		if object {
			tok, err := dec.Token()
			if err != nil {
				return nil, j.syntaxError(err, at)
			}
			key, _ = tok.(string)
		}
		start := dec.InputOffset()
		if err := dec.Decode(&skipValue{}); err != nil {
			return nil, j.syntaxError(err, at)
		}
		v, vat := j.value(at+start, at+dec.InputOffset())
		members = append(members, jsonMember{key: key, value: v, at: vat})
	}
	return members, nil
}

// decodeObject decodes the members into v, after dropping with a warning
// each member that, alone, does not decode into a fresh value of v's type
// (made by fresh). Of a member that holds an array where an array belongs
// (tags, authors, attachments), only the elements that do not decode are
// dropped. what names the object in the warnings.
func (j *jsonFeedReader) decodeObject(v any, fresh func() any, what string, members []jsonMember) error {
	var kept bytes.Buffer
	kept.WriteByte('{')
	for _, m := range members {
		key, _ := json.Marshal(m.key)
		field, err := j.decodes(fresh, key, m.value)
		if err != nil && m.value[0] == '[' {
			if _, err := j.decodes(fresh, key, []byte("[]")); err == nil {
				if field, err = j.decodeElements(fresh, what, key, m); err != nil {
					return err
				}
			}
		}
		if err != nil && field == nil {
			line, col := j.position(m.at)
			if werr := j.r.opts.Warningf(line, col, false, "%s: field %q dropped: %s", what, m.key, describeJSONError(m.key, err)); werr != nil {
				return werr
			}
			continue
		}
		if kept.Len() > 1 {
			kept.WriteByte(',')
		}
		kept.Write(field)
	}
	kept.WriteByte('}')
	if err := json.Unmarshal(kept.Bytes(), v); err != nil {
		// Members that decode alone decode together; this is not expected.
		return j.r.opts.Errorf(0, 0, "not a valid JSON Feed: %s: %v", what, err)
	}
	return nil
}

// decodes returns the member "key": value when it decodes, alone, into a
// fresh value (key is JSON-encoded), and the error otherwise.
func (j *jsonFeedReader) decodes(fresh func() any, key, value []byte) ([]byte, error) {
	field := make([]byte, 0, len(key)+1+len(value)+2)
	field = append(append(append(append(append(field, '{'), key...), ':'), value...), '}')
	if err := json.Unmarshal(field, fresh()); err != nil {
		return nil, err
	}
	return field[1 : len(field)-1], nil
}

// decodeElements returns the member m, an array, with only its elements
// that decode, and warns about each of the others.
func (j *jsonFeedReader) decodeElements(fresh func() any, what string, key []byte, m jsonMember) ([]byte, error) {
	elems, err := j.members(m.value, m.at)
	if err != nil {
		return nil, err
	}
	array := []byte{'['}
	for i, e := range elems {
		if _, err := j.decodes(fresh, key, append(append([]byte{'['}, e.value...), ']')); err != nil {
			line, col := j.position(e.at)
			if werr := j.r.opts.Warningf(line, col, false, "%s: field %q: element %d dropped: %s", what, m.key, i+1, describeJSONError(m.key, err)); werr != nil {
				return nil, werr
			}
			continue
		}
		if len(array) > 1 {
			array = append(array, ',')
		}
		array = append(array, e.value...)
	}
	array = append(array, ']')
	return append(append(key, ':'), array...), nil
}

// value returns the value that ends at offset end of the document and
// starts after offset start (where the decoder was before it: just after
// the key, or the value, before it), and the offset where it starts.
func (j *jsonFeedReader) value(start, end int64) ([]byte, int64) {
	v := bytes.TrimLeft(j.data[start:end], " \t\r\n:,")
	return v, end - int64(len(v))
}

// syntaxError returns the error of the decoder, whose input starts at
// offset base of the document, naming where it happened.
func (j *jsonFeedReader) syntaxError(err error, base int64) error {
	var off int64 = -1
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		off = base + syn.Offset
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		off = int64(len(j.data))
		err = errors.New("unexpected end of JSON input")
	}
	line, col := j.position(off)
	return j.r.opts.Errorf(line, col, "not a valid JSON Feed: %v", err)
}

// describeJSONError says why the member key did not decode, as "a string
// where an array of strings belongs".
func describeJSONError(key string, err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		got := typ.Value
		if i := strings.IndexByte(got, ' '); i >= 0 {
			got = got[:i] // "number 1e999"
		}
		s := fmt.Sprintf("%s where %s belongs", article(got), describeType(typ.Type))
		// The path below the member key, without the names of
		// gofeed's decoding helpers.
		var path []string
		below := false
		for _, p := range strings.Split(typ.Field, ".") {
			switch {
			case below && p != "alias":
				path = append(path, p)
			case p == key:
				below = true
			}
		}
		if len(path) > 0 {
			s += " (at " + strings.Join(path, ".") + ")"
		}
		return s
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// article names a JSON kind as encoding/json reports it, with its article.
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "bool":
		return "a boolean"
	}
	return "a " + kind
}

// describeType names the JSON value a Go type decodes from.
func describeType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		elem := strings.TrimPrefix(strings.TrimPrefix(describeType(t.Elem()), "an "), "a ")
		return "an array of " + elem + "s"
	}
	return "an object"
}

// jsonKind names the kind of the JSON value that starts raw.
func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch c := raw[0]; {
	case c == '"':
		return "a string"
	case c == '[':
		return "an array"
	case c == '{':
		return "an object"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	}
	return "a number"
}

// jsonKindOf names the kind of a value a decoder's Token returned.
func jsonKindOf(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return jsonKind([]byte{byte(t)})
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}
