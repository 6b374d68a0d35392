package normalize

import "fmt"

// Options select the optional rewrites. The zero Options apply only the
// always-on rules (see the package documentation). Options are read, never
// written, by URL, so one value may serve many goroutines at once.
type Options struct {
	// StripParams lists query parameter names to remove, matched ignoring
	// ASCII case; a name ending in '*' matches every name that starts with
	// what comes before the '*' ("ref", "share_*").
	StripParams []string

	// StripSessionIDs removes session ids, both as query parameters
	// ("?PHPSESSID=abc") and as path parameters ("/a;jsessionid=abc"),
	// matched ignoring ASCII case: jsessionid, phpsessid, aspsessionid*
	// (any name starting with it: classic ASP adds a suffix),
	// asp.net_sessionid, sid, sessionid, session_id, sessid, cfid, cftoken,
	// oscsid, zenid.
	StripSessionIDs bool

	// StripUTM removes tracking parameters, matched ignoring ASCII case:
	// utm_* (any name starting with "utm_") and the click identifiers and
	// analytics tokens gclid, dclid, gbraid, wbraid (Google), fbclid (Meta),
	// msclkid (Microsoft), yclid (Yandex), twclid (X), ttclid (TikTok),
	// igshid (Instagram), mc_cid, mc_eid (Mailchimp), _ga, _gl (Google
	// Analytics). None of them ever selects a different page.
	StripUTM bool

	// HTTPS turns http URLs into https ones.
	HTTPS bool

	// WWW adds or removes the "www." of registrable domains.
	WWW Host

	// TrailingSlash adds or removes the slash that ends the path.
	TrailingSlash Slash

	// SortQuery sorts the query parameters by name (byte order), keeping
	// the order of parameters with the same name.
	SortQuery bool
}

// IsZero reports whether o applies only the always-on rules, as the zero
// Options (and a nil o) do: URL then gives what Key gives.
func (o *Options) IsZero() bool {
	return o == nil || !o.queryOptions() && !o.HTTPS && o.WWW == HostKeep && o.TrailingSlash == SlashKeep
}

// Host says what to do with the "www." of a host.
type Host int

// The values of Options.WWW.
const (
	HostKeep      Host = iota // leave the host as it is
	HostAddWWW                // example.com becomes www.example.com
	HostRemoveWWW             // www.example.com becomes example.com
)

// Slash says what to do with the slash that ends a path.
type Slash int

// The values of Options.TrailingSlash.
const (
	SlashKeep   Slash = iota // leave the path as it is
	SlashAdd                 // /a becomes /a/ (but /a.html stays)
	SlashRemove              // /a/ becomes /a
)

var choiceNames = [...]string{"keep", "add", "remove"}

// ParseHost returns the Host a command-line value names: "keep", "add" or
// "remove" (the empty string is "keep").
func ParseHost(s string) (Host, error) {
	i, err := parseChoice(s)
	return Host(i), err
}

// ParseSlash returns the Slash a command-line value names: "keep", "add"
// or "remove" (the empty string is "keep").
func ParseSlash(s string) (Slash, error) {
	i, err := parseChoice(s)
	return Slash(i), err
}

func parseChoice(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	for i, name := range choiceNames {
		if s == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%q is not one of keep, add, remove", s)
}

// String returns "keep", "add" or "remove", the name ParseHost reads.
func (h Host) String() string { return choiceString(int(h)) }

// String returns "keep", "add" or "remove", the name ParseSlash reads.
func (s Slash) String() string { return choiceString(int(s)) }

func choiceString(i int) string {
	if i >= 0 && i < len(choiceNames) {
		return choiceNames[i]
	}
	return fmt.Sprintf("invalid(%d)", i)
}

// MarshalText returns the name String returns.
func (h Host) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText sets h from a name ParseHost reads, so that flag and
// configuration libraries can decode a Host.
func (h *Host) UnmarshalText(b []byte) error {
	v, err := ParseHost(string(b))
	if err == nil {
		*h = v
	}
	return err
}

// MarshalText returns the name String returns.
func (s Slash) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText sets s from a name ParseSlash reads, so that flag and
// configuration libraries can decode a Slash.
func (s *Slash) UnmarshalText(b []byte) error {
	v, err := ParseSlash(string(b))
	if err == nil {
		*s = v
	}
	return err
}
