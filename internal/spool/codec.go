package spool

import (
	"encoding/binary"
	"errors"
	"time"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
)

// errCorrupt is returned for a record that does not decode: a bug, or a
// spool file changed under the process.
var errCorrupt = errors.New("spool: corrupt record")

// appendEntry appends the encoding of e to b: the entry's fields in a fixed
// order, strings and numbers as varints. A flags byte says whether the
// title and summary, and extension data, follow.
func appendEntry(b []byte, e *formats.Entry) []byte {
	b = appendString(b, e.Loc)
	b = appendLastMod(b, e.LastMod)
	b = appendString(b, string(e.ChangeFreq))
	b = appendPriority(b, e.Priority)
	b = append(b, byte(e.Kind))
	var flags byte
	if e.Title != "" || e.Summary != "" {
		flags |= hasText
	}
	if e.Ext != nil {
		flags |= hasExt
	}
	b = append(b, flags)
	if flags&hasText != 0 {
		b = appendStrings(b, e.Title, e.Summary)
	}
	if e.Ext == nil {
		return b
	}
	return appendExt(b, e.Ext)
}

// appendExt appends the encoding of extension data: every field of every
// extension, as extschema declares them, then the foreign elements and
// their places.
func appendExt(b []byte, x *formats.Extensions) []byte {
	for _, e := range extschema.Extensions {
		b = appendField(b, &e.Field, unsafe.Pointer(x))
	}
	b = binary.AppendUvarint(b, uint64(len(x.Foreign)))
	b = appendStrings(b, x.Foreign...)
	b = binary.AppendUvarint(b, uint64(len(x.ForeignAt)))
	for _, at := range x.ForeignAt {
		b = binary.AppendUvarint(b, uint64(at))
	}
	return b
}

// appendField appends the encoding of the element f of s: its value, or
// for a list, an optional group or a marker, the count of its items then
// each.
func appendField(b []byte, f *extschema.Field, s unsafe.Pointer) []byte {
	if f.Items == nil {
		return appendItem(b, f, s)
	}
	n := f.Items.Len(s)
	b = binary.AppendUvarint(b, uint64(n))
	for i := 0; i < n; i++ {
		b = appendItem(b, f, f.Items.Item(s, i))
	}
	return b
}

// appendItem appends the encoding of one element f of item: its
// attributes, then its value or its children.
func appendItem(b []byte, f *extschema.Field, item unsafe.Pointer) []byte {
	for i := range f.Attrs {
		switch a := &f.Attrs[i]; {
		case a.Fixed != "":
		case a.Kind == extschema.Int:
			b = binary.AppendVarint(b, int64(*a.Int(item)))
		default:
			b = appendString(b, *a.Text(item))
		}
	}
	switch f.Kind {
	case extschema.Group:
		for i := range f.Fields {
			if c := &f.Fields[i]; c.Plain() {
				b = appendString(b, *c.Text(item)) // the most common child, inline
			} else {
				b = appendField(b, c, item)
			}
		}
	case extschema.Empty:
	case extschema.Int:
		b = binary.AppendVarint(b, int64(*f.Int(item)))
	case extschema.Date:
		b = appendLastMod(b, *f.Date(item))
	default:
		b = appendString(b, *f.Text(item))
	}
	return b
}

// The flags of an encoded entry.
const (
	hasExt  = 1 << iota // extension data follows
	hasText             // the title and summary follow
)

// appendPriority appends the priority in thousandths plus one; 0 is unset.
func appendPriority(b []byte, p formats.Priority) []byte {
	if !p.IsSet() {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(p.Value()*1000+0.5)+1)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// appendLastMod appends the precision, then for a known lastmod the Unix
// seconds, nanoseconds and zone offset, so that it is written back
// byte for byte as it was read.
func appendLastMod(b []byte, l formats.LastMod) []byte {
	b = append(b, byte(l.Precision()))
	if l.IsZero() {
		return b
	}
	t := l.Time()
	_, offset := t.Zone()
	b = binary.AppendVarint(b, t.Unix())
	b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	return binary.AppendVarint(b, int64(offset))
}

// decoder decodes records, keeping the time zones it made so that decoding
// allocates only the strings.
type decoder struct {
	b     []byte
	err   error
	zones map[int]*time.Location
	strs  strblock.Strings // where decoded strings are copied, many to one allocation (arenaSize)
}

// arenaSize is the size of the blocks decoded strings are cut from.
const arenaSize = 64 << 10

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := d.copy(d.b[:n])
	d.b = d.b[n:]
	return s
}

// copy returns b as a string that shares a block with other strings the
// decoder made, so that decoding costs one allocation per block rather than
// one per string.
func (d *decoder) copy(b []byte) string {
	if d.strs.Size == 0 {
		d.strs.Size = arenaSize
	}
	return d.strs.String(b)
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

// count returns a list length, bounded by what is left to decode.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) lastMod() formats.LastMod {
	p := formats.Precision(d.byte())
	if p == formats.PrecisionUnknown {
		return formats.LastMod{}
	}
	sec, nsec, offset := d.varint(), d.uvarint(), int(d.varint())
	if d.err != nil {
		return formats.LastMod{}
	}
	loc := time.UTC
	if offset != 0 {
		if d.zones == nil {
			d.zones = map[int]*time.Location{}
		}
		if loc = d.zones[offset]; loc == nil {
			loc = time.FixedZone("", offset)
			d.zones[offset] = loc
		}
	}
	return formats.NewLastMod(time.Unix(sec, int64(nsec)).In(loc), p)
}

// record decodes the body of a record (after its length).
func (d *decoder) record(body []byte) (Record, error) {
	var r Record
	err := d.recordInto(body, &r)
	return r, err
}

// recordInto decodes the record body into *r.
func (d *decoder) recordInto(body []byte, r *Record) error {
	if len(body) < 9 {
		*r = Record{}
		return errCorrupt
	}
	r.Off, r.Flags, r.Hash = 0, body[0], binary.LittleEndian.Uint64(body[1:9])
	d.b, d.err = body[9:], nil
	r.Input = int(d.uvarint())
	r.Link = int64(d.uvarint())
	d.entryInto(&r.Entry)
	return d.err
}

// entry decodes one entry from what is left to decode.
func (d *decoder) entry() formats.Entry {
	var e formats.Entry
	d.entryInto(&e)
	return e
}

// entryInto decodes one entry from what is left to decode into *e.
func (d *decoder) entryInto(e *formats.Entry) {
	*e = formats.Entry{}
	e.Loc = d.string()
	e.LastMod = d.lastMod()
	if cf := d.string(); cf != "" {
		e.ChangeFreq = formats.ChangeFreq(cf)
	}
	if m := d.uvarint(); m > 0 {
		e.Priority, _ = formats.NewPriority(float64(m-1) / 1000)
	}
	e.Kind = formats.Kind(d.byte())
	flags := d.byte()
	if flags&hasText != 0 {
		e.Title, e.Summary = d.string(), d.string()
	}
	if flags&hasExt != 0 {
		e.Ext = d.ext()
	}
}

func (d *decoder) ext() *formats.Extensions {
	x := &formats.Extensions{}
	for _, e := range extschema.Extensions {
		d.field(&e.Field, unsafe.Pointer(x))
	}
	x.Foreign = d.strings()
	if n := d.count(); n > 0 {
		x.ForeignAt = make([]int, n)
		for i := range x.ForeignAt {
			x.ForeignAt[i] = int(d.uvarint())
		}
	}
	return x
}

// field decodes the element f of s, as appendField encoded it.
func (d *decoder) field(f *extschema.Field, s unsafe.Pointer) {
	if f.Items == nil {
		d.item(f, s)
		return
	}
	n := d.count()
	if n > 1 && f.Max == 1 {
		d.fail()
		return
	}
	f.Items.Make(s, n)
	for i := 0; i < n && d.err == nil; i++ {
		d.item(f, f.Items.Item(s, i))
	}
}

// item decodes one element f into item, as appendItem encoded it.
func (d *decoder) item(f *extschema.Field, item unsafe.Pointer) {
	for i := range f.Attrs {
		switch a := &f.Attrs[i]; {
		case a.Fixed != "":
		case a.Kind == extschema.Int:
			*a.Int(item) = int(d.varint())
		default:
			*a.Text(item) = d.string()
		}
	}
	switch f.Kind {
	case extschema.Group:
		for i := range f.Fields {
			if c := &f.Fields[i]; c.Plain() {
				*c.Text(item) = d.string() // the most common child, inline
			} else {
				d.field(c, item)
			}
		}
	case extschema.Empty:
	case extschema.Int:
		*f.Int(item) = int(d.varint())
	case extschema.Date:
		*f.Date(item) = d.lastMod()
	default:
		*f.Text(item) = d.string()
	}
}

// strings decodes a counted list of strings; nil when empty.
func (d *decoder) strings() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.string()
	}
	return ss
}
