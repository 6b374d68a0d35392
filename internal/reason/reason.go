// Package reason gives a sentinel error's words without the package prefix
// its text starts with ("formats: bad host" reads "bad host"), for the
// reason of a message that already says where it is ("x.xml:3:5: bad
// host", "feed2sitemap: error: too many part files ..."), while errors.Is
// still matches the sentinel. The sentinel itself keeps the module's
// convention, "pkg: message", for whoever prints it alone.
package reason

import "strings"

// Of returns an error that reads as sentinel's text after its "pkg: "
// prefix and wraps sentinel.
func Of(sentinel error) error { return reason{sentinel} }

type reason struct{ sentinel error }

func (r reason) Error() string {
	s := r.sentinel.Error()
	if pkg, msg, ok := strings.Cut(s, ": "); ok && pkg != "" && !strings.ContainsAny(pkg, " \t") {
		return msg
	}
	return s
}

func (r reason) Unwrap() error { return r.sentinel }
