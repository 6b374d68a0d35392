package normalize

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// fuzzOptions turns the bits the fuzzer picks into Options.
func fuzzOptions(bits uint16) *Options {
	o := &Options{
		StripUTM:        bits&1 != 0,
		StripSessionIDs: bits&2 != 0,
		SortQuery:       bits&4 != 0,
		HTTPS:           bits&8 != 0,
		WWW:             Host(bits >> 4 & 3 % 3),
		TrailingSlash:   Slash(bits >> 6 & 3 % 3),
	}
	if bits&256 != 0 {
		o.StripParams = []string{"ref", "share_*"}
	}
	return o
}

// fuzzBits is the inverse of fuzzOptions, to seed the corpus.
func fuzzBits(o Options) uint16 {
	var bits uint16
	for i, b := range []bool{o.StripUTM, o.StripSessionIDs, o.SortQuery, o.HTTPS} {
		if b {
			bits |= 1 << i
		}
	}
	bits |= uint16(o.WWW)<<4 | uint16(o.TrailingSlash)<<6
	if len(o.StripParams) > 0 {
		bits |= 256
	}
	return bits
}

// FuzzURL checks, for any string and options, that URL does not panic, is
// idempotent, agrees with its fast path, turns a URL net/url accepts into
// one it still accepts with the same host, and keeps the form
// formats.ParseLoc returns.
func FuzzURL(f *testing.F) {
	for _, c := range urlCases {
		f.Add(c.in, fuzzBits(c.opt))
	}
	f.Fuzz(func(t *testing.T, in string, bits uint16) {
		o := fuzzOptions(bits)
		got := o.URL(in)
		if again := o.URL(got); again != got {
			t.Fatalf("not idempotent with %+v:\nin     %q\nonce   %q\ntwice  %q", *o, in, got, again)
		}
		for _, s := range []string{in, got} {
			if n, https := schemeLen(s); n > 0 && o.normal(s) {
				if r := o.rewrite(s, n, https); r != s {
					t.Fatalf("fast path says %q is normal with %+v; rewrite says %q", s, *o, r)
				}
			}
		}
		if n, _ := schemeLen(in); n == 0 {
			if got != in {
				t.Fatalf("%q is not http(s) but became %q", in, got)
			}
			return
		}
		if strings.Contains(got, "#") {
			t.Fatalf("%q: fragment left in %q", in, got)
		}

		if u, err := url.Parse(in); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Opaque == "" {
			v, err := url.Parse(got)
			if err != nil {
				t.Fatalf("%q parses, its normal form %q does not: %v", in, got, err)
			}
			if v.Scheme != "http" && v.Scheme != "https" || v.Host == "" && u.Hostname() != "" {
				t.Fatalf("%q became %q: no longer an absolute http(s) URL", in, got)
			}
			inHost, outHost := u.Hostname(), v.Hostname()
			if !isASCII(inHost) {
				if a, err := idna.Lookup.ToASCII(inHost); err == nil && a != "" {
					inHost = a
				}
			}
			same := strings.EqualFold(inHost, outHost)
			switch o.WWW {
			case HostRemoveWWW: // one "www." removed at most
				same = same || strings.EqualFold(strings.TrimPrefix(strings.ToLower(inHost), "www."), outHost)
			case HostAddWWW: // one "www." added at most
				same = same || strings.EqualFold("www."+inHost, outHost)
			}
			if !same {
				t.Fatalf("%q became %q: host %q is now %q", in, got, u.Hostname(), v.Hostname())
			}
		}

		// (ParseLoc accepts a host IDNA maps to nothing, "http://\u00ad":
		// skip the empty hosts it returns.)
		if loc, err := formats.ParseLoc(in, nil); err == nil && hasHost(loc) {
			out := o.URL(loc)
			back, err := formats.ParseLoc(out, nil)
			if err != nil && !errors.Is(err, formats.ErrLocTooLong) {
				t.Fatalf("ParseLoc(%q) = %q, normalized %q, which ParseLoc rejects: %v", in, loc, out, err)
			}
			if err == nil && back != out {
				t.Fatalf("ParseLoc(%q) = %q, normalized %q, which ParseLoc changes to %q", in, loc, out, back)
			}
			// (ParseLoc lower-cases with strings.ToLower, which turns
			// invalid UTF-8 into U+FFFD: compare valid UTF-8 only.)
			if in == uri.TrimLocSeparators(in) && utf8.ValidString(in) && out != got {
				t.Fatalf("%q normalizes to %q, but its ParseLoc form %q to %q", in, got, loc, out)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func hasHost(loc string) bool {
	u, err := url.Parse(loc)
	return err == nil && u.Host != ""
}
