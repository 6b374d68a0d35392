package formats

import (
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/dates"
)

// TestPrecisionLevels: the precisions of internal/dates, which ParseLastMod
// and the byte parsers convert to Precision, are Precision's level for
// level.
func TestPrecisionLevels(t *testing.T) {
	for p, d := range map[Precision]dates.Precision{
		PrecisionUnknown: dates.Unknown, PrecisionYear: dates.Year, PrecisionMonth: dates.Month,
		PrecisionDay: dates.Day, PrecisionMinute: dates.Minute, PrecisionSecond: dates.Second,
		PrecisionFraction: dates.Fraction,
	} {
		if Precision(d) != p {
			t.Errorf("dates precision %d is formats precision %d, want %d", d, Precision(d), p)
		}
	}
}
