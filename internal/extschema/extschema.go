// Package extschema declares the sitemap extensions (image, video, news,
// xhtml alternates and the mobile marker) once: for each, its element and
// namespace, and its children in schema order, each with its cardinality,
// the kind of its value and the check the value must pass, its attributes,
// and the field of the model (formats.Extensions) it is read into and
// written from.
//
// The XML reader and writer (formats/xml), the spool codec
// (internal/spool) and validate's content model walk these tables instead
// of naming the fields themselves, so a field added to an extension is one
// row here (with its field in the model); TestEveryFieldOneRow fails when a
// field of the model has no row.
package extschema

import "github.com/feed2sitemap/feed2sitemap/formats"

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
	// Text, Int and Date reach the value of an item (the parent's struct
	// for a single element, Items.Item for a list's). One is set for a
	// Text, Loc, Count or Decimal, an Int and a Date element.
	TextOf func(item any) *string
	IntOf  func(item any) *int
	DateOf func(item any) *formats.LastMod
	// Missing, for a Group, names the required fields an item lacks (the
	// model's Missing method): an item lacking one is not written.
	Missing func(item any) []string
}

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
	// element's item.
	TextOf func(item any) *string
	IntOf  func(item any) *int
}

// Items reaches the items of a list, an optional group or a marker, in the
// struct of the parent.
type Items struct {
	// Len returns how many items p holds (0 or 1 for an optional group or
	// a marker).
	Len func(p any) int
	// Item returns the ith item (a pointer into the model).
	Item func(p any, i int) any
	// Add adds a zero item (sets the marker) and returns it.
	Add func(p any) any
	// Cut keeps the first n items (n 0 removes an optional group, clears
	// a marker); Make replaces them with n zero ones, nil for none.
	Cut, Make func(p any, n int)
	// Holder returns a pointer to the field of the model holding the
	// items, for tests.
	Holder func(p any) any
}

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
	for _, x := range Extensions {
		qualify(&x.Field, x.Prefix)
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

// slice returns the Items of a list field of a T, reached by f.
func slice[T, E any](f func(*T) *[]E) *Items {
	return &Items{
		Len:  func(p any) int { return len(*f(p.(*T))) },
		Item: func(p any, i int) any { return &(*f(p.(*T)))[i] },
		Add: func(p any) any {
			s := f(p.(*T))
			var zero E
			*s = append(*s, zero)
			return &(*s)[len(*s)-1]
		},
		Cut: func(p any, n int) { s := f(p.(*T)); *s = (*s)[:n] },
		Make: func(p any, n int) {
			s := f(p.(*T))
			if n == 0 {
				*s = nil
			} else {
				*s = make([]E, n)
			}
		},
		Holder: func(p any) any { return f(p.(*T)) },
	}
}

// optional returns the Items of an optional group of a T, a pointer
// reached by f.
func optional[T, E any](f func(*T) **E) *Items {
	set := func(p any, n int) {
		if n == 0 {
			*f(p.(*T)) = nil
		} else {
			*f(p.(*T)) = new(E)
		}
	}
	return &Items{
		Len: func(p any) int {
			if *f(p.(*T)) == nil {
				return 0
			}
			return 1
		},
		Item:   func(p any, _ int) any { return *f(p.(*T)) },
		Add:    func(p any) any { e := new(E); *f(p.(*T)) = e; return e },
		Cut:    set,
		Make:   set,
		Holder: func(p any) any { return f(p.(*T)) },
	}
}

// marker returns the Items of a marker of a T, a bool reached by f.
func marker[T any](f func(*T) *bool) *Items {
	set := func(p any, n int) { *f(p.(*T)) = n > 0 }
	return &Items{
		Len: func(p any) int {
			if *f(p.(*T)) {
				return 1
			}
			return 0
		},
		Item:   func(p any, _ int) any { return p },
		Add:    func(p any) any { *f(p.(*T)) = true; return p },
		Cut:    set,
		Make:   set,
		Holder: func(p any) any { return f(p.(*T)) },
	}
}

// self is the TextOf of a list of strings: its items are the strings.
func self(item any) *string { return item.(*string) }
