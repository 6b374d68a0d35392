package xml_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
)

// TestLastModWithoutTimeZoneKeepsItsDate: a sitemap lastmod with a time of
// day and no time zone (valid for the schema's xsd:dateTime, ambiguous for
// W3C Datetime, a warning for validate) keeps its date, with a warning, as
// in feeds.
func TestLastModWithoutTimeZoneKeepsItsDate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lastmod_without_time_zone.xml"))
	require.NoError(t, err)
	for _, general := range []bool{false, true} {
		var warnings []string
		opts := formats.ReadOptions{Source: "s.xml", Warn: func(pe *formats.ParseError) {
			warnings = append(warnings, pe.Err.Error())
		}}
		var r formats.Reader = xml.NewReader(strings.NewReader(string(data)), opts)
		if general {
			r = xml.NewGeneralReader(strings.NewReader(string(data)), opts)
		}
		var lastmods []string
		for e, err := range formats.All(r) {
			require.NoError(t, err)
			lastmods = append(lastmods, e.LastMod.String())
		}
		assert.Equal(t, []string{"2024-05-06", "2024-05-06", "2024-05-06T23:30:00+02:00", ""}, lastmods)
		require.Len(t, warnings, 3)
		assert.Equal(t, `<lastmod> "2024-05-06T23:30:00" has no time zone: kept as the date 2024-05-06`, warnings[0])
		assert.Contains(t, warnings[2], "<lastmod> ignored")
	}
}

// TestExtensionDatesWithoutTimeZoneKeepTheirDate: a news publication_date
// and video expiration and publication dates with a time of day and no time
// zone (what CMS exports write) keep their date, with a note each, as a
// lastmod does: the news data, whose date is required, is no longer
// dropped, and the sitemap written of them passes the schemas.
func TestExtensionDatesWithoutTimeZoneKeepTheirDate(t *testing.T) {
	for _, read := range readOnBothPaths(t, "news_video_dates_without_time_zone.xml") {
		entries, warnings := read.entries, read.warnings
		require.Len(t, entries, 2)
		require.NotNil(t, entries[0].Ext)
		require.NotNil(t, entries[0].Ext.News, "the news data is kept")
		assert.Equal(t, "2024-05-06", entries[0].Ext.News.PublicationDate.String())
		require.Len(t, entries[1].Ext.Videos, 1)
		v := entries[1].Ext.Videos[0]
		assert.Equal(t, "2025-05-06", v.ExpirationDate.String())
		assert.Equal(t, "2024-05-06", v.PublicationDate.String())
		assert.Equal(t, []string{
			`<news:publication_date> "2024-05-06T23:30:00" has no time zone: kept as the date 2024-05-06`,
			`<video:expiration_date> "2025-05-06T00:00:00.000" has no time zone: kept as the date 2025-05-06`,
			`<video:publication_date> "2024-05-06 08:15:00" has no time zone: kept as the date 2024-05-06`,
		}, warnings)
		doc := writeAll(t, entries, formats.WriteOptions{Uses: formats.ExtNews | formats.ExtVideo})
		assert.Contains(t, string(doc), "<news:publication_date>2024-05-06</news:publication_date>")
		conformance.ValidateXML(t, doc)
	}
}

// pathRead is what one reader path gave of a document: its entries and the
// text of its warnings.
type pathRead struct {
	entries  []formats.Entry
	warnings []string
}

// readOnBothPaths reads testdata/name with the fast path's reader and the
// general one, and returns what each gave.
func readOnBothPaths(t *testing.T, name string) [2]pathRead {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var out [2]pathRead
	for i := range out {
		p := &out[i]
		opts := formats.ReadOptions{Source: name, Warn: func(pe *formats.ParseError) { p.warnings = append(p.warnings, pe.Err.Error()) }}
		var r formats.Reader = xml.NewReader(bytes.NewReader(data), opts)
		if i == 1 {
			r = xml.NewGeneralReader(bytes.NewReader(data), opts)
		}
		for e, err := range formats.All(r) {
			require.NoError(t, err)
			p.entries = append(p.entries, e)
		}
	}
	return out
}
