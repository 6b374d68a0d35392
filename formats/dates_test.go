package formats_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestParseLastModRFC822Variants: RFC 822 makes the day of the week and the
// seconds optional and writes two-digit years, and names UTC UT or Z.
func TestParseLastModRFC822Variants(t *testing.T) {
	for in, want := range map[string]string{
		"Mon, 6 May 24 10:00 GMT":      "2024-05-06T10:00:00Z",
		"Mon, 6 May 24 10:00 +0200":    "2024-05-06T10:00:00+02:00",
		"6 May 24 10:00 EDT":           "2024-05-06T10:00:00-04:00",
		"6 May 2024 10:00 -0000":       "2024-05-06T10:00:00Z",
		"06 May 24 10:00:30 PST":       "2024-05-06T10:00:30-08:00",
		"Mon, 06 May 2024 10:00:00 UT": "2024-05-06T10:00:00Z",
		"Mon, 06 May 2024 10:00 Z":     "2024-05-06T10:00:00Z",
	} {
		l, err := formats.ParseLastMod(in)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, l.String(), in)
		}
	}
}

// TestForeignDateNames: the error of a date in another language names the
// words that are not English; one that is no date at all says only that.
func TestForeignDateNames(t *testing.T) {
	_, err := formats.ParseLastMod("Mi, 08 Mai 2024 10:00:00 +0200")
	assert.ErrorContains(t, err, `has day or month names that are not English ("Mi", "Mai")`)
	_, err = formats.ParseLastMod("8 janv. 2024 10:00 CET")
	assert.ErrorContains(t, err, `("janv")`)
	_, err = formats.ParseLastMod("yesterday")
	assert.ErrorContains(t, err, "is not a W3C Datetime or RFC 822 date")
}
