// Package vocab holds the value vocabularies of the sitemap extensions:
// the facets the official extension schemas put on the values of the
// extension fields (enumerations and patterns of xsd:string, which keeps
// white space: " yes" is not "yes"). The XML reader drops a value that
// fails its check, with a warning, so that a written sitemap never holds
// one; validate reports it.
package vocab

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// NewsAge is how old a news article may be: Google News sitemaps list only
// the articles of the last two days.
const NewsAge = 48 * time.Hour

// IsYesNo reports whether s is yes or no as the video schema spells them
// (family_friendly, requires_subscription, live, allow_embed): yes, Yes,
// YES, no, No or NO.
func IsYesNo(s string) bool {
	return oneOf(s, "yes", "Yes", "YES", "no", "No", "NO")
}

// IsRelationship reports whether s is allow or deny, the relationship of
// a video's restriction or platform.
func IsRelationship(s string) bool { return oneOf(s, "allow", "deny") }

// IsCountryList reports whether s is a video restriction: ISO 3166 country
// codes separated by spaces, "([A-Z]{2}( +[A-Z]{2})*)?".
func IsCountryList(s string) bool { return wordList(s, upper2, false) }

// IsPlatformList reports whether s is a video platform list,
// "((web|mobile|tv)( (web|mobile|tv))*)?".
func IsPlatformList(s string) bool {
	return wordList(s, func(w string) bool { return oneOf(w, "web", "mobile", "tv") }, true)
}

// IsCurrency reports whether s is an ISO 4217 currency code, "[A-Z]{3}".
func IsCurrency(s string) bool { return len(s) == 3 && upper2(s[:2]) && 'A' <= s[2] && s[2] <= 'Z' }

// IsPriceType reports whether s is a video price type: purchase, PURCHASE,
// rent or RENT.
func IsPriceType(s string) bool { return oneOf(s, "purchase", "PURCHASE", "rent", "RENT") }

// IsPriceResolution reports whether s is a video price resolution: sd,
// SD, hd or HD.
func IsPriceResolution(s string) bool { return oneOf(s, "sd", "SD", "hd", "HD") }

// IsVideoType reports whether s is a tvshow's video_type: full, preview,
// clip, interview, news or other.
func IsVideoType(s string) bool {
	return oneOf(s, "full", "preview", "clip", "interview", "news", "other")
}

// IsVideoIDType reports whether s is the type of a video id: tms:series,
// tms:program, rovi:series, rovi:program, freebase or url.
func IsVideoIDType(s string) bool {
	return oneOf(s, "tms:series", "tms:program", "rovi:series", "rovi:program", "freebase", "url")
}

// NewsLanguage returns a language tag as Google News wants it: the ISO 639
// code in lower case ("en" for "en-US"), except for Chinese, which is
// "zh-tw" for the traditional script (zh-Hant, zh-TW, zh-HK, zh-MO) and
// "zh-cn" otherwise. It reports false when the tag does not start with a
// two- or three-letter code.
func NewsLanguage(tag string) (string, bool) {
	tag = strings.ToLower(strings.ReplaceAll(uri.TrimSpace(tag), "_", "-"))
	primary, rest, _ := strings.Cut(tag, "-")
	if len(primary) < 2 || len(primary) > 3 {
		return "", false
	}
	for _, c := range primary {
		if c < 'a' || c > 'z' {
			return "", false
		}
	}
	if primary != "zh" {
		return primary, true
	}
	for _, sub := range strings.Split(rest, "-") {
		switch sub {
		case "hant", "tw", "hk", "mo":
			return "zh-tw", true
		}
	}
	return "zh-cn", true
}

// IsNewsLanguage reports whether s is a news publication language, the
// news schema's pattern "zh-cn|zh-tw|([a-z]{2,3})".
func IsNewsLanguage(s string) bool {
	if s == "zh-cn" || s == "zh-tw" {
		return true
	}
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// IsNewsAccess reports whether s is a news access: Subscription or
// Registration.
func IsNewsAccess(s string) bool { return oneOf(s, "Subscription", "Registration") }

// IsNewsGenres reports whether s is a news genre list, "G(, *G)*" where G
// is PressRelease, Satire, Blog, OpEd, Opinion or UserGenerated.
func IsNewsGenres(s string) bool {
	for i, p := range strings.Split(s, ",") {
		if i > 0 {
			p = strings.TrimLeft(p, " ")
		}
		if !oneOf(p, "PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated") {
			return false
		}
	}
	return true
}

// IsStockTickers reports whether s is a news stock ticker list,
// "(\w+:\w+(, *\w+:\w+){0,4})?".
func IsStockTickers(s string) bool {
	if s == "" {
		return true
	}
	parts := strings.Split(s, ",")
	if len(parts) > 5 {
		return false
	}
	for i, p := range parts {
		if i > 0 {
			p = strings.TrimLeft(p, " ")
		}
		a, b, ok := strings.Cut(p, ":")
		if !ok || !isWord(a) || !isWord(b) {
			return false
		}
	}
	return true
}

// IsLanguage reports whether s is an xs:language, the type of an
// xhtml:link's hreflang: "[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*" (en, en-GB,
// x-default).
func IsLanguage(s string) bool {
	for i, part := range strings.Split(s, "-") {
		if len(part) < 1 || len(part) > 8 {
			return false
		}
		for j := 0; j < len(part); j++ {
			c := part[j] | 0x20
			if !('a' <= c && c <= 'z' || i > 0 && '0' <= part[j] && part[j] <= '9') {
				return false
			}
		}
	}
	return true
}

// oneOf reports whether s is one of values, exactly.
func oneOf(s string, values ...string) bool {
	for _, v := range values {
		if s == v {
			return true
		}
	}
	return false
}

// wordList reports whether s is a list of words separated by spaces
// (patterns "((w)( +(w))*)?"): word reports whether one word is allowed;
// single says whether only one space separates them.
func wordList(s string, word func(string) bool, single bool) bool {
	if s == "" {
		return true
	}
	parts := strings.Split(s, " ")
	for i, p := range parts {
		if p == "" && !single && i > 0 && i < len(parts)-1 {
			continue
		}
		if !word(p) {
			return false
		}
	}
	return true
}

func upper2(w string) bool {
	return len(w) == 2 && 'A' <= w[0] && w[0] <= 'Z' && 'A' <= w[1] && w[1] <= 'Z'
}

// isWord reports whether s is one or more \w characters (letters, digits,
// marks, connector punctuation; approximated as letters, digits and '_').
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 && r != utf8.RuneError) {
			return false
		}
	}
	return true
}

// IsXMLChar reports whether r is a character XML 1.0 allows (its Char
// production), as encoding/xml checks: the readers' fast scanners keep to
// the characters encoding/xml reads.
func IsXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
