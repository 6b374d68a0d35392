package feed_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestFeedDates reads the date forms real feeds write: Dublin Core terms
// in RSS 1.0 and 2.0 items, RFC 822 dates with a two-digit year and without
// seconds or day name, date-times without a time zone (their date kept),
// and day or month names that are not English (named in the warning).
func TestFeedDates(t *testing.T) {
	for _, tt := range []struct {
		file     string
		lastmods []string
		warnings []string
	}{
		{"rss10_dcterms_dates.rdf", []string{
			"2024-05-06T11:20:31Z",      // dcterms:modified over dcterms:issued
			"2024-04-30",                // dcterms:issued
			"2024-03-15T08:00:00+01:00", // dcterms:created
			"2024-05-01",                // dcterms:modified over dc:date
		}, nil},
		{"rss20_dcterms_modified.rss", []string{
			"2024-05-06T10:00:00+02:00", // the terms: prefix is the namespace's
			"2024-04-02",
		}, nil},
		{"rss_dates_rfc822_variants.rss", []string{
			"2024-05-06T10:00:00Z",
			"2024-05-06T10:00:00+02:00",
			"2024-05-06T10:00:00Z",
			"2024-05-06T10:00:00Z",
			"2024-05-06T10:00:00-04:00",
		}, nil},
		{"rss_dates_non_english_names.rss", []string{"", "", "2024-05-08T10:00:00+02:00"}, []string{
			`item 1 ("Deutsch"): lastmod dropped: pubDate "Mi, 08 Mai 2024 10:00:00 +0200" has day or month names that are not English ("Mi", "Mai")`,
			`item 2 ("Français"): lastmod dropped: pubDate "mer., 08 mai 2024 10:00:00 +0200" has day or month names that are not English ("mer", "mai")`,
		}},
		{"atom_zoneless_dates.atom", []string{"2024-05-06", "2024-05-05"}, []string{
			`item 1 ("Updated without a zone"): updated "2024-05-06T23:30:00" has no time zone: kept as the date 2024-05-06`,
			`item 2 ("Zone-less updated, zoned published"): updated "2024-05-05T08:00" has no time zone: kept as the date 2024-05-05`,
		}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			res := readFile(t, tt.file, formats.ReadOptions{})
			require.NoError(t, res.err)
			assert.Equal(t, tt.lastmods, res.lastmods())
			var warnings []string
			for _, w := range res.warnings {
				warnings = append(warnings, w.Err.Error())
			}
			assert.Equal(t, tt.warnings, warnings)
		})
	}
}
