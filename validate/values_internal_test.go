package validate

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzPriorityOK holds priorityOK's shortcut for the usual forms to the
// check it stands for: an xsd:decimal from 0 to 1.
func FuzzPriorityOK(f *testing.F) {
	for _, s := range []string{"0", "1", "0.5", "1.0", "1.000", "1.001", "0.999", "1.", "0.", ".5", "2", "01", "0.1234", " 0.5", "-0", "+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := xsdDecimal(s)
		if want := ok && p >= 0 && p <= 1; priorityOK(s) != want {
			t.Fatalf("priorityOK(%q) = %v, xsdDecimal says %v, %v", s, !want, p, ok)
		}
	})
}

// FuzzXSDDateInstant holds xsdDate's instant to time.Date's for the same
// fields.
func FuzzXSDDateInstant(f *testing.F) {
	for _, s := range []string{"2024-02-29", "2024-01-01T24:00:00Z", "-0001-12-31T23:59:59.5+14:00", "0001-01-01", "999999999-12-31T00:00:00-14:00",
		"1970-01-01T00:00:00Z", "2023-02-29", "-0044-03-15"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, zoned, ok := xsdDate(s)
		if !ok {
			return
		}
		want, ok2 := referenceXSDDate(collapse(s))
		if !ok2 || !got.Equal(want) {
			t.Fatalf("xsdDate(%q) = %v (zoned %v), time.Date says %v (%v)", s, got, zoned, want, ok2)
		}
	})
}

// referenceXSDDate computes the instant of a valid xsd:date or dateTime
// with time.Date, field by field.
func referenceXSDDate(s string) (time.Time, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	i := strings.IndexByte(s, '-')
	if i < 0 {
		return time.Time{}, false
	}
	year, err := strconv.Atoi(s[:i])
	if err != nil {
		return time.Time{}, false
	}
	if neg {
		year = -year
	}
	s = s[i:]
	month, _ := strconv.Atoi(s[1:3])
	day, _ := strconv.Atoi(s[4:6])
	s = s[6:]
	hour, min, sec, nsec, offset := 0, 0, 0, 0, 0
	if strings.HasPrefix(s, "T") {
		hour, _ = strconv.Atoi(s[1:3])
		min, _ = strconv.Atoi(s[4:6])
		sec, _ = strconv.Atoi(s[7:9])
		s = s[9:]
		if strings.HasPrefix(s, ".") {
			j := 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			f, _ := strconv.ParseFloat("0."+s[1:j], 64)
			nsec = int(f * 1e9)
			s = s[j:]
		}
	}
	if len(s) == 6 {
		h, _ := strconv.Atoi(s[1:3])
		m, _ := strconv.Atoi(s[4:6])
		offset = (h*60 + m) * 60
		if s[0] == '-' {
			offset = -offset
		}
	}
	return time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.UTC).Add(-time.Duration(offset) * time.Second), true
}
