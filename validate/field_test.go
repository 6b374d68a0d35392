package validate

import (
	"bytes"
	"slices"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// tokensOnly is the XML check's observer without its Field method: the
// reader gives it every field token by token.
type tokensOnly struct{ sitemapxml.Observer }

// observedFindings checks data with the XML check as the observer of an
// XML reader in strict or lenient mode, taking fields whole or token by
// token, and returns the findings.
func observedFindings(data []byte, strict, whole bool) []string {
	var found []string
	v := New(Options{Now: testNow, NoFollow: true})
	d := v.newDoc(Source{Name: "doc.xml"}, func(f Finding) { found = append(found, f.String()) })
	d.x = &xmlCheck{}
	ev := &xmlEvents{d: d}
	var obs sitemapxml.Observer = ev
	if !whole {
		obs = tokensOnly{ev}
	}
	r := sitemapxml.NewObservedReader(bytes.NewReader(data), formats.ReadOptions{Source: "doc.xml", Strict: strict, Now: testNow}, obs)
	for n := 0; n <= len(data)+1 && !ev.done; n++ {
		if _, err := r.Next(); err != nil {
			found = append(found, "Next: "+err.Error())
			break
		}
	}
	d.finish()
	return found
}

// checkFieldsAsTokens fails when the XML check finds anything different
// in data when the reader gives it fields whole (field) than token by
// token.
func checkFieldsAsTokens(t *testing.T, data []byte) {
	t.Helper()
	for _, strict := range []bool{false, true} {
		want, got := observedFindings(data, strict, false), observedFindings(data, strict, true)
		if !slices.Equal(want, got) {
			t.Fatalf("strict=%v, on %q:\ntoken by token: %q\nfields whole:   %q", strict, data, want, got)
		}
	}
}

// TestFieldsAsTokens checks that the XML check finds the same taking the
// fields of entries whole as taking them token by token, on the test
// data and the shared corpus.
func TestFieldsAsTokens(t *testing.T) {
	for _, data := range xmlDifferentialSeeds(t) {
		checkFieldsAsTokens(t, data)
	}
}

// FuzzFieldsAsTokens is TestFieldsAsTokens on any input.
func FuzzFieldsAsTokens(f *testing.F) {
	for _, data := range xmlDifferentialSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(checkFieldsAsTokens)
}
