package vocab_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// TestParseLastModSchemaRange: the byte parser refuses, with
// formats.ErrBadDate, the dates formats.ParseLastMod refuses because the
// sitemap schema would (year 0000, a UTC offset beyond ±14:00, hour 24, a
// leap second), its fast path included.
func TestParseLastModSchemaRange(t *testing.T) {
	for _, s := range []string{
		"0000", "0000-01", "0000-01-01", "0000-06-15T10:00:00Z", "0000-06-15T10:00Z", "0000-06-15T10:00:00.5Z",
		"2024-01-01T00:00:00+15:00", "2024-01-01T00:00:00-14:01", "2024-01-01T00:00:00+23:59",
		"2024-01-01T00:00+14:30", "2024-01-01T00:00:00.25-20:00",
		"Mon, 01 Jan 2024 10:00:00 +1500", "Mon, 01 Jan 2024 10:00:00 -2330", "1 Jan 2024 10:00:00 +1401",
		"2024-01-01T24:00:00Z", "2024-06-30T23:59:60Z", "2024-01-01T23:60:00Z", "2024-02-30",
	} {
		_, err := vocab.ParseLastMod([]byte(s))
		assert.ErrorIs(t, err, formats.ErrBadDate, "%q (bytes)", s)
	}
}

// TestDateOfZoneless: a date-time without a time zone gives its date as
// written; anything else gives nothing.
func TestDateOfZoneless(t *testing.T) {
	for in, want := range map[string]string{
		"2024-05-06T23:30:00":      "2024-05-06",
		"2024-05-06T23:30:00.123":  "2024-05-06",
		"2024-05-06T23:30":         "2024-05-06",
		"2024-05-06 23:30:00":      "2024-05-06",
		"05 Jan 17 13:34:55":       "2017-01-05",
		"Mon, 6 May 2024 10:00":    "2024-05-06",
		"2024-05-06T23:30:00Z":     "",
		"2024-05-06":               "",
		"0000-01-01T00:00:00":      "",
		"Mon, 6 May 2024 10:00 XY": "",
	} {
		l, ok := vocab.DateOfZoneless(in)
		assert.Equal(t, want != "", ok, in)
		assert.Equal(t, want, l.String(), in)
		if ok {
			assert.True(t, l.IsDate(), in)
		}
	}
}
