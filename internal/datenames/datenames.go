// Package datenames tells the day and month names of a date in another
// language from English ones, so that the error for such a date can name
// them.
package datenames

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// englishDateWords are the words an English date may hold: day and month
// names and their abbreviations (lower case), and the zone names feeds
// write.
var englishDateWords = func() map[string]bool {
	m := map[string]bool{"sept": true, "tues": true, "thur": true, "thurs": true, "at": true, "t": true}
	for d := time.Sunday; d <= time.Saturday; d++ {
		m[strings.ToLower(d.String())], m[strings.ToLower(d.String()[:3])] = true, true
	}
	for mo := time.January; mo <= time.December; mo++ {
		m[strings.ToLower(mo.String())], m[strings.ToLower(mo.String()[:3])] = true, true
	}
	return m
}()

// Foreign returns the words of a date that look like day or month
// names but are not English ones ("Mai", "Mi", "janv."), in order; nil when
// there are none or s holds no digit (it is then no date at all). Zone
// names (words in capitals of up to five letters), single letters and
// words too long to be names are not counted.
func Foreign(s string) []string {
	if !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	var names []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		lower := strings.ToLower(w)
		if n := utf8.RuneCountInString(w); englishDateWords[lower] || n < 2 || n > 12 {
			continue
		}
		if w == strings.ToUpper(w) && utf8.RuneCountInString(w) <= 5 {
			continue // a zone name: UT, GMT, CEST
		}
		names = append(names, w)
	}
	return names
}
