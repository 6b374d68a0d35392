package jsonl

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// checker turns the object of one line into an entry, holding its values
// to the rules every reader applies: URLs through formats.ParseLoc, dates
// through formats.ParseLastMod, extension values by the checks of the
// extension schema, and Extensions.Complete. A bad value is dropped with a
// warning naming its key.
type checker struct {
	r   *Reader
	err error // the first warning, in strict mode
}

// warn reports a problem of the line; in strict mode the first one becomes
// the error Next returns.
func (c *checker) warn(skipped bool, format string, args ...any) {
	if err := c.r.opts.Warningf(c.r.line, 0, skipped, format, args...); err != nil && c.err == nil {
		c.err = err
	}
}

// coreKeys are the keys of an entry's object that are not extension data.
var coreKeys = []string{"head", "loc", "kind", "lastmod", "changefreq", "priority", "title", "summary", "foreign", "foreign_at"}

// entry returns the entry of an object whose "loc" is loc, and false when
// its loc or kind is bad.
func (c *checker) entry(loc json.RawMessage, obj map[string]json.RawMessage) (formats.Entry, bool) {
	var s string
	if err := json.Unmarshal(loc, &s); err != nil {
		c.warn(true, "loc: %s where a string belongs: line skipped", jsonKind(loc))
		return formats.Entry{}, false
	}
	u, err := formats.ParseLoc(s, c.r.opts.Base)
	if err != nil {
		c.warn(true, "loc %s: %v: line skipped", clip(s), err)
		return formats.Entry{}, false
	}
	e := formats.Entry{Loc: u}
	if raw, ok := obj["kind"]; ok && c.decode("kind", raw, &s, "a string") {
		switch s {
		case formats.KindURL.String():
		case formats.KindSitemap.String():
			e.Kind = formats.KindSitemap
		default:
			c.warn(true, `kind %s is neither "url" nor "sitemap": line skipped`, clip(s))
			return formats.Entry{}, false
		}
	}
	if raw, ok := obj["lastmod"]; ok && c.decode("lastmod", raw, &s, "a string") {
		e.LastMod = c.date("lastmod", s)
	}
	if raw, ok := obj["changefreq"]; ok && c.decode("changefreq", raw, &s, "a string") {
		if cf, ok := formats.ParseChangeFreq(s); ok {
			e.ChangeFreq = cf
		} else {
			c.warn(false, "changefreq %s ignored: not always, hourly, daily, weekly, monthly, yearly or never", clip(s))
		}
	}
	if raw, ok := obj["priority"]; ok && string(raw) != "null" {
		e.Priority = c.priority(raw)
	}
	if raw, ok := obj["title"]; ok {
		c.decode("title", raw, &e.Title, "a string")
	}
	if raw, ok := obj["summary"]; ok {
		c.decode("summary", raw, &e.Summary, "a string")
	}
	e.Ext = c.extensions(obj)
	var unknown []string
	for k := range obj {
		if !slices.Contains(coreKeys, k) && extensionOf(k) == nil {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		c.warn(false, "unknown key %q ignored", k)
	}
	return e, true
}

// priority reads a priority written as a number (or as a string holding
// one).
func (c *checker) priority(raw json.RawMessage) formats.Priority {
	v := []byte(raw)
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			v = []byte(s)
		}
	}
	p, ok := vocab.ParsePriority(v)
	if !ok {
		c.warn(false, "priority %s ignored: not a number from 0.0 to 1.0", clip(string(raw)))
	}
	return p
}

// date reads a date of the key name. A date and time without a time zone
// keeps its date, as the XML reader does.
func (c *checker) date(name, s string) formats.LastMod {
	if s == "" {
		return formats.LastMod{}
	}
	l, err := formats.ParseLastMod(s)
	if err == nil {
		return l
	}
	if d, ok := vocab.DateOfZoneless(s); ok {
		c.warn(false, "%s %s has no time zone: only its date is kept", name, clip(s))
		return d
	}
	c.warn(false, "%s ignored: %v", name, err)
	return formats.LastMod{}
}

// url reads a URL of the key name.
func (c *checker) url(name, s string) string {
	if s == "" {
		return ""
	}
	loc, err := formats.ParseLoc(s, c.r.opts.Base)
	if err != nil {
		c.warn(false, "%s %s ignored: %v", name, clip(s), err)
	}
	return loc
}

// checked returns s when it is empty or check (if any) accepts it, else
// "" after a warning saying what it should be.
func (c *checker) checked(name, s string, check func(string) bool, want string) string {
	if s == "" || check == nil || check(s) {
		return s
	}
	c.warn(false, "%s %s ignored: not %s", name, clip(s), want)
	return ""
}

// extensions returns the extension data of an entry's object, as the
// extension schema declares it (see ext.go), and its foreign elements;
// nil when it has none. Items lacking a required field are left out, with
// a warning, as every reader leaves them (Extensions.Complete).
func (c *checker) extensions(obj map[string]json.RawMessage) *formats.Extensions {
	x := &formats.Extensions{}
	for _, e := range extschema.Extensions {
		key := extensionKey(e)
		if raw, ok := obj[key]; ok && string(raw) != "null" {
			c.field(&e.Field, raw, unsafe.Pointer(x), key)
		}
	}
	var foreign []string
	var at []int
	if raw, ok := obj["foreign_at"]; ok {
		c.decode("foreign_at", raw, &at, "an array of whole numbers")
	}
	if raw, ok := obj["foreign"]; ok && c.decode("foreign", raw, &foreign, "an array of strings") {
		if at != nil && len(at) != len(foreign) {
			c.warn(false, "foreign_at ignored: %d places for %d foreign elements", len(at), len(foreign))
			at = nil
		}
		for i, f := range foreign {
			if err := checkElement(f); err != nil {
				c.warn(false, "foreign element ignored: %v", err)
				continue
			}
			x.Foreign = append(x.Foreign, f)
			if at != nil {
				x.ForeignAt = append(x.ForeignAt, at[i])
			}
		}
	}
	if err := x.CheckForeignAt(); err != nil {
		c.warn(false, "foreign_at ignored: %v", err)
		x.ForeignAt = nil
	}
	x.Complete(func(what string) error {
		c.warn(false, "%s: left out", what)
		return nil
	})
	if x.IsEmpty() {
		return nil
	}
	return x
}

// checkElement reports why s is not one self-contained XML element, as
// foreign elements and head elements must be: well-formed, one element,
// nothing before or after it. An XML writer writes them verbatim, so that
// anything else would break the document it is written into.
func checkElement(s string) error {
	if !strings.HasPrefix(s, "<") || strings.HasPrefix(s, "<?") || strings.HasPrefix(s, "<!") {
		return fmt.Errorf("%s is not an XML element", clip(s))
	}
	d := xml.NewDecoder(strings.NewReader(s))
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return fmt.Errorf("%s is not a complete XML element", clip(s))
		}
		if err != nil {
			return fmt.Errorf("%s is not well-formed XML: %v", clip(s), err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
		if depth == 0 {
			if d.InputOffset() != int64(len(s)) {
				return fmt.Errorf("%s is more than one XML element", clip(s))
			}
			return nil
		}
	}
}

// clip quotes s for a message, cut to 80 bytes.
func clip(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%q…", s[:77])
	}
	return fmt.Sprintf("%q", s)
}
