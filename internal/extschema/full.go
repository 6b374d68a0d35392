package extschema

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Full returns extension data with every element and attribute of the
// tables set, two items in each list, each value one its row accepts
// (its Example, else one of its kind), distinct from the others: the
// fixture of the tests that hold every user of the tables lossless, so
// that a row added here is covered by them without an edit.
func Full() *formats.Extensions {
	x := &formats.Extensions{}
	for _, e := range Extensions {
		fill(&e.Field, unsafe.Pointer(x), 0)
	}
	return x
}

// fill sets the element f of s: its value, or two items (one for an
// optional group or a marker).
func fill(f *Field, s unsafe.Pointer, n int) {
	if f.Items == nil {
		fillItem(f, s, n)
		return
	}
	count := 2
	if f.Max == 1 {
		count = 1
	}
	for i := 0; i < count; i++ {
		fillItem(f, f.Items.Add(s), n+i)
	}
}

// fillItem sets the attributes and value or children of the element f of
// item; n tells the items of a list apart.
func fillItem(f *Field, item unsafe.Pointer, n int) {
	for i := range f.Attrs {
		a := &f.Attrs[i]
		switch {
		case a.Fixed != "":
		case a.Kind == Int:
			*a.Int(item) = a.Hi - n
		default:
			*a.Text(item) = example(a.Kind, a.Example, f.QName+"@"+a.Name, n)
		}
	}
	switch f.Kind {
	case Group:
		for i := range f.Fields {
			fill(&f.Fields[i], item, n)
		}
	case Empty:
	case Int:
		*f.Int(item) = f.Hi - n
	case Date:
		lm, err := formats.ParseLastMod("2024-05-0" + strconv.Itoa(1+n) + "T07:08:09+02:00")
		if err != nil {
			panic(err)
		}
		*f.Date(item) = lm
	default:
		*f.Text(item) = example(f.Kind, f.Example, f.QName, n)
	}
}

// example returns the value of the nth item of a Text or Loc named name
// whose row gives the example ex: ex, else a URL or text made of the name.
func example(k Kind, ex, name string, n int) string {
	switch {
	case ex != "":
		return ex
	case k == Loc:
		return "https://example.com/" + strings.NewReplacer(":", "/", "@", "/").Replace(name) + "/" + strconv.Itoa(n)
	}
	return name + " " + strconv.Itoa(n)
}

// FullForeign returns Full with three foreign elements placed among its
// items (Extensions.ForeignAt): one after the first image, one after the
// first video, one after the last item (no place is 0, so that a test of
// zero values finds each set). The XML writer writes them there; every
// format that holds foreign elements must keep both them and their places.
func FullForeign() *formats.Extensions {
	x := Full()
	x.Foreign = []string{
		`<p:first xmlns:p="urn:example:pagemap">1 &amp; 2</p:first>`,
		`<p:between xmlns:p="urn:example:pagemap" a="b"><p:c/></p:between>`,
		`<last xmlns="urn:example:other"/>`,
	}
	x.ForeignAt = []int{1, len(x.Images) + 1, x.Items()}
	return x
}
