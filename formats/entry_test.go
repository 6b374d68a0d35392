package formats_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestParseLastMod(t *testing.T) {
	tests := []struct {
		in, want string
		prec     formats.Precision
	}{
		{"2024", "2024-01-01", formats.PrecisionYear},
		{"2024-05", "2024-05-01", formats.PrecisionMonth},
		{"2024-05-08", "2024-05-08", formats.PrecisionDay},
		{" 2024-05-08\n", "2024-05-08", formats.PrecisionDay},
		{"2024-05-08T10:30+02:00", "2024-05-08T10:30:00+02:00", formats.PrecisionMinute},
		{"2024-05-08T10:30:15Z", "2024-05-08T10:30:15Z", formats.PrecisionSecond},
		{"2024-05-08T10:30:15+00:00", "2024-05-08T10:30:15Z", formats.PrecisionSecond},
		{"2024-05-08T10:30:15-05:00", "2024-05-08T10:30:15-05:00", formats.PrecisionSecond},
		{"2024-05-08T10:30:15.25+01:00", "2024-05-08T10:30:15.25+01:00", formats.PrecisionFraction},
		{"2011-06-27T00:00:00.000Z", "2011-06-27T00:00:00.000Z", formats.PrecisionFraction},
		{"2011-06-27T00:00:00.5Z", "2011-06-27T00:00:00.5Z", formats.PrecisionFraction},
		{"Wed, 08 May 2024 08:53:11 +0200", "2024-05-08T08:53:11+02:00", formats.PrecisionSecond},
		{"Wed, 8 May 2024 08:53:11 GMT", "2024-05-08T08:53:11Z", formats.PrecisionSecond},
		{"Wed, 08 May 2024 08:53:11 EST", "2024-05-08T08:53:11-05:00", formats.PrecisionSecond},
		{"08 May 24 08:53:11 +0000", "2024-05-08T08:53:11Z", formats.PrecisionSecond},
		{"Wed, 08 May 2024 08:53 PDT", "2024-05-08T08:53:00-07:00", formats.PrecisionMinute},
		{"2024-05-08 08:53:11+02:00", "2024-05-08T08:53:11+02:00", formats.PrecisionSecond},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := formats.ParseLastMod(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, l.String())
			assert.Equal(t, tt.prec, l.Precision())
			back, err := formats.ParseLastMod(l.String())
			require.NoError(t, err)
			assert.True(t, back.Time().Equal(l.Time()), "written form parses back to the same instant")
			if l.Precision() != formats.PrecisionYear && l.Precision() != formats.PrecisionMonth && l.Precision() != formats.PrecisionMinute {
				assert.Equal(t, l.Precision(), back.Precision(), "and the same precision")
			}
		})
	}
}

func TestParseLastModRejects(t *testing.T) {
	for _, in := range []string{
		"", "yesterday", "2024-13-01", "2024-02-30", "24-05-08",
		"2024-05-08 08:53:11 AM",      // no zone: ambiguous
		"2024-05-08T08:53:11",         // no zone: ambiguous
		"Wed, 08 May 2024 08:53:11",   // no zone: ambiguous
		"Wed, 08 May 2024 08:53 XYZT", // unknown zone name
	} {
		_, err := formats.ParseLastMod(in)
		assert.ErrorIs(t, err, formats.ErrBadDate, "%q", in)
	}
}

func TestLastModZeroAndNewer(t *testing.T) {
	var unknown formats.LastMod
	assert.True(t, unknown.IsZero())
	assert.Equal(t, "", unknown.String())
	day, _ := formats.ParseLastMod("2024-05-08")
	later, _ := formats.ParseLastMod("2024-05-08T00:00:01Z")
	assert.True(t, day.IsDate())
	assert.False(t, later.IsDate())
	assert.True(t, day.Newer(unknown), "known beats unknown")
	assert.False(t, unknown.Newer(day))
	assert.False(t, unknown.Newer(unknown))
	assert.True(t, later.Newer(day))
	assert.False(t, day.Newer(day), "a tie is not newer")
	assert.True(t, formats.NewLastMod(time.Time{}, formats.PrecisionDay).IsZero())
}

func TestPriority(t *testing.T) {
	var absent formats.Priority
	assert.False(t, absent.IsSet())
	assert.Equal(t, "", absent.String())
	assert.Equal(t, 0.5, absent.Value())
	for in, want := range map[float64]string{0: "0.0", 1: "1.0", 0.5: "0.5", 0.75: "0.75", 0.125: "0.125", 0.1234: "0.123"} {
		p, ok := formats.NewPriority(in)
		require.True(t, ok)
		assert.True(t, p.IsSet())
		assert.Equal(t, want, p.String(), "%v", in)
	}
	zero, _ := formats.NewPriority(0)
	assert.Equal(t, 0.0, zero.Value(), "0.0 is a value, not absent")
	for _, bad := range []float64{-0.1, 1.01, math.NaN(), math.Inf(1)} {
		_, ok := formats.NewPriority(bad)
		assert.False(t, ok, "%v", bad)
	}
}

func TestParseChangeFreq(t *testing.T) {
	c, ok := formats.ParseChangeFreq(" Weekly\n")
	assert.True(t, ok)
	assert.Equal(t, formats.Weekly, c)
	_, ok = formats.ParseChangeFreq("fortnightly")
	assert.False(t, ok)
}
