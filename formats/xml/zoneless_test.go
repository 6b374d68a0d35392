package xml_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
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
