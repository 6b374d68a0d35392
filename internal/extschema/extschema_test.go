package extschema

import (
	"reflect"
	"testing"

	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// addrOf returns the address a pointer holds.
func addrOf[T any](p *T) uintptr { return uintptr(unsafe.Pointer(p)) }

// covered walks the element f of the item pv (a pointer to its struct) in
// the data Full made, counting the fields of the model its accessors reach
// (by address) in reached, and adding to structs every struct it reaches
// items in.
func covered(t *testing.T, f *Field, pv reflect.Value, reached map[uintptr]int, structs *[]reflect.Value) {
	s := unsafe.Pointer(pv.Pointer())
	if f.Items != nil {
		h := f.Items.Holder(s)
		reached[uintptr(h)]++
		require.NotZero(t, f.Items.Len(s), "%s: Full holds none", f.QName)
		item := f.Items.Item(s, 0)
		// The item's type, as the field holding it says.
		var typ reflect.Type
		for i := 0; i < pv.Elem().NumField(); i++ {
			if fv := pv.Elem().Field(i); unsafe.Pointer(fv.Addr().Pointer()) == h {
				typ = fv.Type()
			}
		}
		require.NotNil(t, typ, "%s: its holder is a field of %s", f.QName, pv.Elem().Type())
		switch typ.Kind() {
		case reflect.Slice, reflect.Pointer:
			pv = reflect.NewAt(typ.Elem(), item)
			if typ.Elem().Kind() == reflect.Struct {
				*structs = append(*structs, pv)
			}
		default:
			require.Equal(t, s, item, "%s: a marker's item is its parent", f.QName)
		}
		s = item
	}
	for i := range f.Attrs {
		a := &f.Attrs[i]
		switch {
		case a.Fixed != "":
			assert.True(t, a.TextOf == nil && a.IntOf == nil, "%s@%s: a fixed attribute has no field", f.QName, a.Name)
		case a.Kind == Int:
			require.True(t, a.TextOf == nil && a.IntOf != nil, "%s@%s: an Int has IntOf only", f.QName, a.Name)
			reached[addrOf(a.IntOf(s))]++
			require.Equal(t, a.IntOf(s), a.Int(s), "%s@%s: its offset", f.QName, a.Name)
		default:
			require.True(t, a.TextOf != nil && a.IntOf == nil && (a.Kind == Text || a.Kind == Loc), "%s@%s: a Text or Loc has TextOf only", f.QName, a.Name)
			reached[addrOf(a.TextOf(s))]++
			require.Equal(t, a.TextOf(s), a.Text(s), "%s@%s: its offset", f.QName, a.Name)
		}
		checked(t, f.QName+"@"+a.Name, a.Check, a.Example, a.Want, a.Qualifies)
	}
	checked(t, f.QName, f.Check, f.Example, f.Want, false)
	value := map[Kind]int{Group: 0, Empty: 0, Date: 1, Int: 2}
	want, ok := value[f.Kind]
	if !ok {
		want = 3 // Text, Loc, Count, Decimal
	}
	got := 0
	if f.DateOf != nil {
		got, reached[addrOf(f.DateOf(s))] = got+1, reached[addrOf(f.DateOf(s))]+1
		assert.Equal(t, 1, want, "%s: DateOf on a %d", f.QName, f.Kind)
		require.Equal(t, f.DateOf(s), f.Date(s), "%s: its offset", f.QName)
	}
	if f.IntOf != nil {
		got, reached[addrOf(f.IntOf(s))] = got+2, reached[addrOf(f.IntOf(s))]+1
		assert.Equal(t, 2, want, "%s: IntOf on a %d", f.QName, f.Kind)
		require.Equal(t, f.IntOf(s), f.Int(s), "%s: its offset", f.QName)
	}
	if f.TextOf != nil {
		got, reached[addrOf(f.TextOf(s))] = got+3, reached[addrOf(f.TextOf(s))]+1
		assert.Equal(t, 3, want, "%s: TextOf on a %d", f.QName, f.Kind)
		require.Equal(t, f.TextOf(s), f.Text(s), "%s: its offset", f.QName)
	}
	assert.Equal(t, want, got, "%s: the accessor of its kind, only", f.QName)
	if f.Kind == Int {
		assert.Greater(t, f.Hi, f.Lo, f.QName)
	}
	if f.Kind == Count || f.Kind == Decimal {
		assert.NotEmpty(t, f.Want, "%s: what it must be, for messages", f.QName)
		assert.NotEmpty(t, f.Example, f.QName)
	}
	assert.Equal(t, f.Kind == Group, f.Missing != nil || len(f.Fields) > 0, "%s: only a group has children", f.QName)
	for i := range f.Fields {
		covered(t, &f.Fields[i], pv, reached, structs)
	}
}

// checked checks the check of a row: it has a Want and an Example it
// accepts.
func checked(t *testing.T, name string, check func(string) bool, example, want string, qualifies bool) {
	t.Helper()
	if check == nil {
		return
	}
	assert.True(t, want != "" || qualifies, "%s: a check says what it wants", name)
	assert.True(t, check(example), "%s: its example %q passes its check", name, example)
}

// TestEveryFieldOneRow holds the tables to the model: every exported field
// of formats.Extensions and of the structs of its items (Image, Video,
// VideoSegment, VideoPrice, VideoID, TVShow, News, Alternate) is reached
// by exactly one accessor of one row (but Extensions.Foreign, verbatim XML
// outside every schema, and ForeignAt, its places). A field added to the model without its row fails
// here; one with its row is then read, written, spooled and validated by
// every user of the tables, and covered by their lossless tests, which
// use Full.
func TestEveryFieldOneRow(t *testing.T) {
	x := Full()
	reached := map[uintptr]int{}
	structs := []reflect.Value{reflect.ValueOf(x)}
	for _, e := range Extensions {
		covered(t, &e.Field, reflect.ValueOf(x), reached, &structs)
	}
	reached[addrOf(&x.Foreign)]++   // not a schema's: kept verbatim
	reached[addrOf(&x.ForeignAt)]++ // where they stand among the rows' items
	types := map[reflect.Type]bool{}
	for _, s := range structs {
		v := s.Elem()
		types[v.Type()] = true
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			n := reached[v.Field(i).Addr().Pointer()]
			assert.Equal(t, 1, n, "%s.%s is reached by %d rows of the tables, not one", v.Type().Name(), v.Type().Field(i).Name, n)
		}
	}
	for _, want := range []any{formats.Extensions{}, formats.Image{}, formats.Video{}, formats.VideoSegment{}, formats.VideoPrice{},
		formats.VideoID{}, formats.TVShow{}, formats.News{}, formats.Alternate{}} {
		assert.True(t, types[reflect.TypeOf(want)], "%T has rows", want)
	}
}

func TestExtensionsInSetOrder(t *testing.T) {
	// The writer declares the namespaces in this order; Set is each's bit.
	var all formats.ExtensionSet
	for i, e := range Extensions {
		assert.Equal(t, formats.ExtensionSet(1)<<i, e.Set, e.QName)
		assert.Equal(t, e.Prefix+":"+e.Name, e.QName)
		all |= e.Set
	}
	assert.Equal(t, formats.ExtAll, all)
}

// TestItemsCountedInTableOrder: formats.Extensions.Items, the count
// ForeignAt places foreign elements by, counts the items the tables
// reach, extension by extension in the order the writer writes them, so
// that a place counted by the reader is where the writer writes it.
func TestItemsCountedInTableOrder(t *testing.T) {
	x := FullForeign()
	n := 0
	for _, e := range Extensions {
		n += e.Items.Len(unsafe.Pointer(x))
	}
	assert.Equal(t, n, x.Items())
	require.NoError(t, x.CheckForeignAt())
	assert.Equal(t, []int{1, len(x.Images) + 1, n}, x.ForeignAt)
	assert.Equal(t, formats.ExtImage, Extensions[0].Set, "images first")
	assert.Equal(t, formats.ExtVideo, Extensions[1].Set, "then videos")
}

func TestFullIsComplete(t *testing.T) {
	// Full's data is what every reader keeps: Complete removes nothing.
	x := Full()
	assert.Empty(t, x.Incomplete())
	assert.Equal(t, formats.ExtAll, x.Uses())
}

func TestChild(t *testing.T) {
	f := Video.Child("tvshow")
	require.NotNil(t, f)
	assert.Equal(t, "video:tvshow", f.QName)
	assert.Equal(t, "video:video_type", f.Child("video_type").QName)
	assert.Nil(t, Video.Child("nope"))
	assert.Equal(t, []string{"currency", "type", "resolution"}, Video.Child("price").AttrNames())
}
