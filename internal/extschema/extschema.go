// Package extschema declares the sitemap extensions (image, video, news,
// xhtml alternates and the mobile marker) once: for each, its element and
// namespace, and its children in schema order, each with its cardinality,
// the kind of its value and the check the value must pass, its attributes,
// and the field of the model (formats.Extensions) it is read into and
// written from.
//
// The XML reader and writer (formats/xml), the jsonl format, the spool
// codec (internal/spool) and validate's content model walk these tables
// instead of naming the fields themselves. Adding a field to an extension
// is its field in the model struct, one row in tables.go (name, kind,
// cardinality, check and an example it accepts, accessor) and its test:
// TestEveryFieldOneRow fails for a field of the model no row reaches, and
// Full sets every row, so the lossless tests of every user cover the new
// one without an edit.
//
// The rows declare where a value is with accessors (a function from the
// item to the field); the walkers reach it through the offset taken from
// the accessor once, at init (Field.Text, Items.Item...), with items as
// unsafe.Pointer: walking a table then costs no call per field.
package extschema

import (
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Kind is the kind of value an element or attribute holds.
type Kind uint8

// The kinds of values.
const (
	// Text is text, kept as the source gave it (trimmed, for an
	// element); "" is absent.
	Text Kind = iota
	// Loc is a URL, kept as formats.ParseLoc returns it; "" is absent.
	Loc
	// Date is a W3C datetime (formats.LastMod); zero is absent.
	Date
	// Int is a whole number from max(Lo, 1) to Hi, kept as an int; 0 is
	// absent. Lo is the schema's bound: 0 for xsd:nonNegativeInteger
	// (validate then checks it up to Hi), 1 for xsd:positiveInteger.
	Int
	// Count is a non-negative whole number, kept as text.
	Count
	// Decimal is a decimal number from Lo to Hi, kept as text.
	Decimal
	// Group is an element holding the elements of Fields and no text.
	Group
	// Empty is an element with attributes only.
	Empty
)

// Field is an element: an extension's top element (an Extension's Field)
// or one of its descendants.
type Field struct {
	// Name is the element's local name; QName its name with the
	// extension's conventional prefix ("video:title").
	Name, QName string
	Kind        Kind
	// Min and Max are how many times the element may occur in its
	// parent: Min 1 is required, Max 1 a single element, 0 a list of any
	// length, n a list of at most n.
	Min, Max int
	// Lo and Hi bound an Int or a Decimal.
	Lo, Hi int
	// Check, when set, is what a value must pass beside its kind, and
	// Want says what it accepts ("yes or no"), for messages; Want also
	// says what a Count or Decimal must be. A failing optional value is
	// dropped; a failing required one drops its parent's item, as do
	// failing Qualifies attributes. Example is a value Check accepts, for
	// tests.
	Check   func(string) bool
	Want    string
	Example string
	// Deprecated elements are reported as such by validate.
	Deprecated bool
	// Attrs are the element's attributes, in the order they are written.
	Attrs []Attr
	// Fields are the children of a Group, in schema order.
	Fields []Field
	// Items, for a list, an optional group or a marker, reaches the
	// items in the parent; nil for a single value of the parent's struct
	// (or a group of fields of the parent's struct, news:publication).
	Items *Items
	// TextOf, IntOf and DateOf reach the value of an item (the parent's
	// struct for a single element, Items.Item for a list's): TextOf for
	// a Text, Loc, Count or Decimal, IntOf for an Int, DateOf for a Date.
	// They declare where the value is; the walkers use Text, Int and
	// Date, which reach it by the offset taken from them once.
	TextOf func(item unsafe.Pointer) *string
	IntOf  func(item unsafe.Pointer) *int
	DateOf func(item unsafe.Pointer) *formats.LastMod
	// Missing, for a Group, names the required fields an item lacks (the
	// model's Missing method): an item lacking one is not written.
	Missing func(item unsafe.Pointer) []string

	off   uintptr // of the value in its item
	plain bool    // see Plain
}

// Plain reports whether f is a single element of text (a Text, Loc, Count
// or Decimal) without attributes, the most common kind of child: walkers
// handle it inline.
func (f *Field) Plain() bool { return f.plain }

// Attr is an attribute of an element.
type Attr struct {
	Name string
	// Kind is Text, Loc or Int.
	Kind Kind
	// Fixed is the value of an attribute every element has (rel =
	// "alternate"), written always; the model holds no field for it.
	Fixed string
	// Required attributes must be present (validate; the reader checks
	// an empty one too).
	Required bool
	// Lo and Hi bound an Int, as a Field's.
	Lo, Hi int
	// Check, Want and Example are as a Field's. Qualifies says the
	// element means nothing without a good value: a bad one drops the
	// element, not only the attribute.
	Check     func(string) bool
	Want      string
	Example   string
	Qualifies bool
	// Deprecated attributes are reported as such by validate.
	Deprecated bool
	// TextOf reaches a Text or Loc value, IntOf an Int value, in the
	// element's item, as a Field's.
	TextOf func(item unsafe.Pointer) *string
	IntOf  func(item unsafe.Pointer) *int

	off uintptr // of the value in the element's item
}

// Items reaches the items of a list, an optional group or a marker, in the
// struct of the parent. Items are reached as pointers into the model
// (unsafe.Pointer, so that walking a table costs no call per field): the
// item of a list is an element of its slice, that of an optional group the
// struct its pointer points to, that of a marker the parent itself.
type Items struct {
	hold hold
	off  uintptr // of the slice, pointer or bool in the parent
	size uintptr // of an element of a slice
	// add, cut and make are Add, Cut and Make.
	add       func(p unsafe.Pointer) unsafe.Pointer
	cut, make func(p unsafe.Pointer, n int)
	// holder returns the field of the model holding the items.
	holder func(p unsafe.Pointer) unsafe.Pointer
}

// hold is how a parent holds items.
type hold uint8

const (
	holdSlice hold = iota
	holdPointer
	holdBool
)

// Len returns how many items p holds (0 or 1 for an optional group or a
// marker).
func (it *Items) Len(p unsafe.Pointer) int {
	switch h := unsafe.Add(p, it.off); it.hold {
	case holdSlice:
		return len(*(*[]struct{})(h))
	case holdPointer:
		if *(*unsafe.Pointer)(h) == nil {
			return 0
		}
		return 1
	default:
		if *(*bool)(h) {
			return 1
		}
		return 0
	}
}

// Item returns the ith item of p.
func (it *Items) Item(p unsafe.Pointer, i int) unsafe.Pointer {
	switch h := unsafe.Add(p, it.off); it.hold {
	case holdSlice:
		return unsafe.Add(unsafe.Pointer(unsafe.SliceData(*(*[]struct{})(h))), uintptr(i)*it.size)
	case holdPointer:
		return *(*unsafe.Pointer)(h)
	}
	return p
}

// Add adds a zero item to p (sets the marker) and returns it.
func (it *Items) Add(p unsafe.Pointer) unsafe.Pointer { return it.add(p) }

// Cut keeps the first n items of p: n 0 removes an optional group, clears
// a marker.
func (it *Items) Cut(p unsafe.Pointer, n int) { it.cut(p, n) }

// Make replaces the items of p with n zero ones (nil for none).
func (it *Items) Make(p unsafe.Pointer, n int) { it.make(p, n) }

// Holder returns the field of the model holding the items of p.
func (it *Items) Holder(p unsafe.Pointer) unsafe.Pointer { return it.holder(p) }

// Text returns the Text, Loc, Count or Decimal value of f in item.
func (f *Field) Text(item unsafe.Pointer) *string { return (*string)(unsafe.Add(item, f.off)) }

// Int returns the Int value of f in item.
func (f *Field) Int(item unsafe.Pointer) *int { return (*int)(unsafe.Add(item, f.off)) }

// Date returns the Date value of f in item.
func (f *Field) Date(item unsafe.Pointer) *formats.LastMod {
	return (*formats.LastMod)(unsafe.Add(item, f.off))
}

// Text returns the Text or Loc value of a in item, the item of its
// element.
func (a *Attr) Text(item unsafe.Pointer) *string { return (*string)(unsafe.Add(item, a.off)) }

// Int returns the Int value of a in item.
func (a *Attr) Int(item unsafe.Pointer) *int { return (*int)(unsafe.Add(item, a.off)) }

// Extension is one extension: its namespace, its conventional prefix, its
// bit in a formats.ExtensionSet and its top element, whose Items reach its
// data in a formats.Extensions.
type Extension struct {
	Space, Prefix string
	Set           formats.ExtensionSet
	Field
}

// Extensions are the extensions, in the order the writer writes their
// elements and declares their namespaces.
var Extensions = []*Extension{Image, Video, News, Alternates, Mobile}

// Child returns the child of f named name, or nil.
func (f *Field) Child(name string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Name == name {
			return &f.Fields[i]
		}
	}
	return nil
}

// AttrNames returns the names of f's attributes.
func (f *Field) AttrNames() []string {
	names := make([]string, len(f.Attrs))
	for i, a := range f.Attrs {
		names[i] = a.Name
	}
	return names
}

func init() {
	x := unsafe.Pointer(&formats.Extensions{})
	for _, e := range Extensions {
		qualify(&e.Field, e.Prefix)
		locate(&e.Field, x)
	}
}

// qualify sets the QName of f and its descendants.
func qualify(f *Field, prefix string) {
	f.QName = prefix + ":" + f.Name
	if len(f.Fields) > 64 {
		panic("extschema: " + f.QName + " has more than 64 children") // readers keep a 64-bit set of those seen
	}
	for i := range f.Fields {
		qualify(&f.Fields[i], prefix)
	}
}

// locate sets the offsets of f, a child of the item s, and of its
// descendants, from their accessors.
func locate(f *Field, s unsafe.Pointer) {
	offset := func(p, base unsafe.Pointer) uintptr { return uintptr(p) - uintptr(base) }
	item := s
	if f.Items != nil {
		f.Items.off = offset(f.Items.holder(s), s)
		item = f.Items.add(s)
	}
	f.plain = f.Items == nil && len(f.Attrs) == 0 && f.TextOf != nil
	switch {
	case f.TextOf != nil:
		f.off = offset(unsafe.Pointer(f.TextOf(item)), item)
	case f.IntOf != nil:
		f.off = offset(unsafe.Pointer(f.IntOf(item)), item)
	case f.DateOf != nil:
		f.off = offset(unsafe.Pointer(f.DateOf(item)), item)
	}
	for i := range f.Attrs {
		a := &f.Attrs[i]
		switch {
		case a.TextOf != nil:
			a.off = offset(unsafe.Pointer(a.TextOf(item)), item)
		case a.IntOf != nil:
			a.off = offset(unsafe.Pointer(a.IntOf(item)), item)
		}
	}
	for i := range f.Fields {
		locate(&f.Fields[i], item)
	}
}

// slice returns the Items of a list field of a T, reached by f.
func slice[T, E any](f func(*T) *[]E) *Items {
	return &Items{
		hold: holdSlice,
		size: unsafe.Sizeof(*new(E)),
		add: func(p unsafe.Pointer) unsafe.Pointer {
			s := f((*T)(p))
			var zero E
			*s = append(*s, zero)
			return unsafe.Pointer(&(*s)[len(*s)-1])
		},
		cut: func(p unsafe.Pointer, n int) { s := f((*T)(p)); *s = (*s)[:n] },
		make: func(p unsafe.Pointer, n int) {
			s := f((*T)(p))
			if n == 0 {
				*s = nil
			} else {
				*s = make([]E, n)
			}
		},
		holder: func(p unsafe.Pointer) unsafe.Pointer { return unsafe.Pointer(f((*T)(p))) },
	}
}

// optional returns the Items of an optional group of a T, a pointer
// reached by f.
func optional[T, E any](f func(*T) **E) *Items {
	set := func(p unsafe.Pointer, n int) {
		if n == 0 {
			*f((*T)(p)) = nil
		} else {
			*f((*T)(p)) = new(E)
		}
	}
	return &Items{
		hold:   holdPointer,
		add:    func(p unsafe.Pointer) unsafe.Pointer { e := new(E); *f((*T)(p)) = e; return unsafe.Pointer(e) },
		cut:    set,
		make:   set,
		holder: func(p unsafe.Pointer) unsafe.Pointer { return unsafe.Pointer(f((*T)(p))) },
	}
}

// marker returns the Items of a marker of a T, a bool reached by f.
func marker[T any](f func(*T) *bool) *Items {
	set := func(p unsafe.Pointer, n int) { *f((*T)(p)) = n > 0 }
	return &Items{
		hold:   holdBool,
		add:    func(p unsafe.Pointer) unsafe.Pointer { *f((*T)(p)) = true; return p },
		cut:    set,
		make:   set,
		holder: func(p unsafe.Pointer) unsafe.Pointer { return unsafe.Pointer(f((*T)(p))) },
	}
}

// self is the TextOf of a list of strings: its items are the strings.
func self(item unsafe.Pointer) *string { return (*string)(item) }
