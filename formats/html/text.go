package html

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// appendText appends s escaped for HTML text and quoted attribute values,
// as html.EscapeString escapes it (&, <, >, " and '), with bytes that are
// not UTF-8 and control characters other than tab and newline, which an
// HTML document may not hold, as U+FFFD.
func appendText(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '&':
			b = append(b, "&amp;"...)
		case r == '<':
			b = append(b, "&lt;"...)
		case r == '>':
			b = append(b, "&gt;"...)
		case r == '"':
			b = append(b, "&#34;"...)
		case r == '\'':
			b = append(b, "&#39;"...)
		case r == utf8.RuneError && size == 1, control(r):
			b = utf8.AppendRune(b, utf8.RuneError)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// control reports whether r is a control character an HTML document may
// not hold: C0 other than tab and newline, DEL, C1.
func control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// linkable reports whether loc may be the href of a link as it is: an
// http or https URL of printable ASCII.
func linkable(loc string) bool {
	l := strings.ToLower(loc)
	if !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") {
		return false
	}
	for i := 0; i < len(loc); i++ {
		if loc[i] <= ' ' || loc[i] >= 0x7f {
			return false
		}
	}
	return true
}

// readable returns an http(s) URL as it is shown: its punycode host in
// Unicode when it is a valid internationalized name, and the
// percent-escapes of UTF-8 characters of the rest decoded, except those of
// characters that could disguise a URL (hidden).
func readable(loc string) string {
	i := strings.Index(loc, "://")
	if i < 0 {
		return loc
	}
	i += len("://")
	end := len(loc)
	if j := strings.IndexAny(loc[i:], "/?#"); j >= 0 {
		end = i + j
	}
	host, port := loc[i:end], ""
	if k := strings.LastIndexByte(host, ':'); k >= 0 && !strings.HasPrefix(host, "[") {
		host, port = host[:k], host[k:]
	}
	if strings.Contains(strings.ToLower(host), "xn--") {
		if u, err := idna.Display.ToUnicode(host); err == nil && !strings.ContainsFunc(u, hidden) {
			host = u
		}
	}
	return loc[:i] + host + port + decodeEscapes(loc[end:])
}

// decodeEscapes returns s with each run of percent-escapes that spells a
// UTF-8 character other than ASCII decoded, unless the character is hidden.
func decodeEscapes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '%' {
			b.WriteByte(s[i])
			i++
			continue
		}
		// Up to four escaped bytes: the longest UTF-8 sequence.
		var buf [4]byte
		n := 0
		for j := i; n < 4 && j+2 < len(s) && s[j] == '%'; j += 3 {
			v, ok := unhex(s[j+1], s[j+2])
			if !ok {
				break
			}
			buf[n] = v
			n++
		}
		r, size := utf8.DecodeRune(buf[:n])
		if n == 0 || r < 0x80 || r == utf8.RuneError && size <= 1 || hidden(r) {
			b.WriteByte('%')
			i++
			continue
		}
		b.WriteRune(r)
		i += 3 * size
	}
	return b.String()
}

// unhex returns the byte two hex digits spell.
func unhex(h, l byte) (byte, bool) {
	hv, ok1 := hexVal(h)
	lv, ok2 := hexVal(l)
	return hv<<4 | lv, ok1 && ok2
}

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// hidden reports whether r, shown in a URL, could disguise it: a control,
// white space, an invisible or format character, a direction mark or
// override, a noncharacter. The rule is the stylesheet's (package
// stylesheet) for the URLs it decodes.
func hidden(r rune) bool {
	switch {
	case r <= ' ' || r >= 0x7f && r < 0xa0 || r == 0xad:
		return true
	case r >= 0x2000 && r <= 0x200f, r >= 0x2028 && r <= 0x202f, r >= 0x205f && r <= 0x206f:
		return true
	case r == 0x3000 || r == 0xfeff || r >= 0xfff9 && r <= 0xffff, r == 0x034f, r == 0x061c, r == 0x115f, r == 0x1160, r == 0x180e, r == 0x3164:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0000 && r <= 0xe0fff:
		return true
	}
	return false
}
