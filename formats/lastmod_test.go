package formats_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestParseLastModSchemaRange: a date the sitemap schema's xsd:date or
// xsd:dateTime would refuse once written (year 0000, a UTC offset beyond
// ±14:00, hour 24, a leap second) is refused with ErrBadDate (and so by
// the readers' byte parser: internal/vocab's test), never read into a
// lastmod the writers then write.
func TestParseLastModSchemaRange(t *testing.T) {
	for _, s := range []string{
		"0000", "0000-01", "0000-01-01", "0000-06-15T10:00:00Z", "0000-06-15T10:00Z", "0000-06-15T10:00:00.5Z",
		"2024-01-01T00:00:00+15:00", "2024-01-01T00:00:00-14:01", "2024-01-01T00:00:00+23:59",
		"2024-01-01T00:00+14:30", "2024-01-01T00:00:00.25-20:00",
		"Mon, 01 Jan 2024 10:00:00 +1500", "Mon, 01 Jan 2024 10:00:00 -2330", "1 Jan 2024 10:00:00 +1401",
		"2024-01-01T24:00:00Z", "2024-06-30T23:59:60Z", "2024-01-01T23:60:00Z", "2024-02-30",
	} {
		_, err := formats.ParseLastMod(s)
		assert.ErrorIs(t, err, formats.ErrBadDate, "%q", s)
	}
	for s, want := range map[string]string{
		"0001-01-02":                   "0001-01-02",
		"0099-12-31":                   "0099-12-31",
		"9999-12-31T23:59:59+14:00":    "9999-12-31T23:59:59+14:00",
		"2024-01-01T00:00:00-14:00":    "2024-01-01T00:00:00-14:00",
		"Mon, 01 Jan 2024 10:00 +1400": "2024-01-01T10:00:00+14:00",
	} {
		l, err := formats.ParseLastMod(s)
		if assert.NoError(t, err, "%q", s) {
			assert.Equal(t, want, l.String())
		}
	}
	// NewLastMod, the constructor of every other source (feed dates
	// gofeed parsed, API users), gives an unknown lastmod instead.
	for _, tm := range []time.Time{
		time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 15*3600)),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", -(14*3600+60))),
	} {
		assert.True(t, formats.NewLastMod(tm, formats.PrecisionSecond).IsZero(), "%v", tm)
		assert.Error(t, formats.CheckLastModTimeForTest(tm), "%v", tm)
	}
}
