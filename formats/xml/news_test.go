package xml_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// newsDoc is a news sitemap with one entry in language lang.
func newsDoc(lang string) string {
	return urlset + `<url><loc>https://a.example/</loc><news:news xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">` +
		`<news:publication><news:name>A</news:name><news:language>` + lang + `</news:language></news:publication>` +
		`<news:publication_date>2024-06-04</news:publication_date><news:title>T</news:title></news:news></url></urlset>`
}

// TestNewsLanguageMadeISO639: a publication language the schema refuses
// whose meaning is clear is written as the code it takes, with a warning
// unless only the case changes; one with no such code is dropped with
// its news data, as before.
func TestNewsLanguageMadeISO639(t *testing.T) {
	for _, tt := range []struct {
		lang, want string
		warned     bool
	}{
		{"en", "en", false},
		{"en-US", "en", true},
		{"pt_BR", "pt", true},
		{"zh-cn", "zh-cn", false},
		{"zh-TW", "zh-tw", false},
		{"zh-Hant", "zh-tw", true},
		{"EN", "en", false},
		{"english", "", true},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			doc := newsDoc(tt.lang)
			res := readString(t, doc, formats.ReadOptions{})
			require.NoError(t, res.err)
			require.Len(t, res.entries, 1)
			e := res.entries[0]
			if tt.want == "" {
				assert.True(t, e.Ext == nil || e.Ext.News == nil, "dropped")
			} else {
				require.NotNil(t, e.Ext)
				require.NotNil(t, e.Ext.News)
				assert.Equal(t, tt.want, e.Ext.News.PublicationLanguage)
			}
			assert.Equal(t, tt.warned, len(res.warnings) > 0, "%v", res.warnings)
			checkSameOnBothPaths(t, []byte(doc))
		})
	}
}

// TestWriterWarnsOfOldNews: a news sitemap written with articles over two
// days old says so once, at Close; fresh ones are not warned about.
func TestWriterWarnsOfOldNews(t *testing.T) {
	entry := func(published time.Time) formats.Entry {
		return formats.Entry{Loc: "https://a.example/" + published.Format("2006"), Ext: &formats.Extensions{News: &formats.News{
			PublicationName: "A", PublicationLanguage: "en", Title: "T",
			PublicationDate: formats.NewLastMod(published, formats.PrecisionSecond)}}}
	}
	for _, tt := range []struct {
		name     string
		dates    []time.Time
		warnings []string
	}{
		{"fresh", []time.Time{time.Now().Add(-time.Hour)}, nil},
		{"old", []time.Time{time.Now().Add(-time.Hour), time.Date(2013, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2014, 1, 2, 0, 0, 0, 0, time.UTC)},
			[]string{"2 entries with news data published more than two days ago (the first: https://a.example/2013): Google News sitemaps should list only the articles of the last two days"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var warnings []string
			var out bytes.Buffer
			w := xml.NewWriter(&out, formats.WriteOptions{Uses: formats.ExtNews, Warn: func(msg string) { warnings = append(warnings, msg) }})
			for _, d := range tt.dates {
				require.NoError(t, w.Write(entry(d)))
			}
			require.NoError(t, w.Close())
			assert.Equal(t, tt.warnings, warnings)
			assert.Equal(t, len(tt.dates), strings.Count(out.String(), "<news:news>"))
		})
	}
}
