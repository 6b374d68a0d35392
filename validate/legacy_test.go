package validate

import (
	"slices"
	"strings"
	"testing"
)

// TestUndeclaredWindows1252AgreesWithReaders: a document that declares no
// encoding and is not UTF-8 is an error for the protocol, and its bytes are
// read as windows-1252 as the readers read them, so that the URLs checked
// are those a conversion writes: caf\xe9 is café, the same URL as
// caf%C3%A9 (a duplicate), not caf? with a query.
func TestUndeclaredWindows1252AgreesWithReaders(t *testing.T) {
	doc := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n" +
		"<url><loc>https://example.com/caf\xe9</loc></url>\n<url><loc>https://example.com/caf%C3%A9</loc></url>\n</urlset>\n"
	for _, decl := range []string{"", `<?xml version="1.0"?>` + "\n"} {
		got := run(t, New(Options{Now: testNow}), decl+doc, "legacy.xml", "")
		if ids := ruleIDs(got); !slices.Contains(ids, "duplicate-url") || !slices.Contains(ids, "invalid-utf8") {
			t.Errorf("%q: want invalid-utf8 and duplicate-url; got:%s", decl, describe(got))
		}
		for _, f := range got {
			if f.Rule.ID == "invalid-utf8" && !strings.Contains(f.Message, "read as windows-1252 'é'") {
				t.Errorf("the finding says how the byte is read: %s", f.Message)
			}
		}
	}
	// Declared UTF-8: the byte is no letter.
	got := run(t, New(Options{Now: testNow}), `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+doc, "utf8.xml", "")
	if slices.Contains(ruleIDs(got), "duplicate-url") {
		t.Errorf("declared UTF-8: caf\\xe9 is not café; got:%s", describe(got))
	}
}
