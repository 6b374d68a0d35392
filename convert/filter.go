package convert

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// The rules Filter drops entries by, as Stats and Drop name them.
const (
	RuleHost    = "host"    // not one of FilterOptions.Hosts
	RuleScope   = "scope"   // not under FilterOptions.Scope
	RuleInclude = "include" // its path matches none of FilterOptions.Include
	RuleExclude = "exclude" // its path matches one of FilterOptions.Exclude
	RuleSince   = "since"   // lastmod before FilterOptions.Since, or unknown
	RuleMaxAge  = "max-age" // lastmod before FilterOptions.NotBefore
)

// FilterOptions say which entries to keep. The zero FilterOptions keep
// them all. The rules apply in the order of the fields, and an entry is
// dropped by the first that rejects it.
type FilterOptions struct {
	// Hosts, when not empty, keeps only URLs on these hosts. A host
	// "*.example.com" matches every subdomain of example.com (not
	// example.com itself). Hosts are compared in lower case, punycode for
	// internationalized names.
	Hosts []string
	// Scope, when set, keeps only URLs under it: same scheme, host and
	// port, and a path under its directory. It is the protocol's rule for a
	// sitemap served at Scope. Both sides are compared in the form
	// normalize.ScopeKey gives, so that no spelling of a URL escapes the
	// directory ("/blog/../admin", "/blog/%2e%2e/admin", "/blog/..;/admin",
	// "/blog/..%5Cadmin") and the same origin spelled otherwise
	// ("https://Example.com.:443/") is not another.
	Scope *url.URL
	// Include, when not empty, keeps only URLs whose path matches one of
	// these globs; Exclude drops URLs whose path matches one of them. In a
	// glob, * matches any run of characters but '/', ** any run at all
	// ("/**/" also none: "/**/*.html" matches "/a.html"), ? one character
	// but '/', [abc], [a-z] and [!abc] (or [^abc]) one character of a class
	// ('/' is never in a negated one), {html,php} one of the
	// comma-separated alternatives, and \ makes the next character plain.
	// A glob matches the whole path, which starts with '/' (the query is
	// not part of it): a glob that cannot start so ("*.html",
	// "https://…") never matches, and is an error. Include matches the path in the form
	// normalize.ScopeKey gives (dot segments and their escaped spellings
	// resolved); Exclude matches it in that form or as written, so neither
	// is bypassed by spelling a path otherwise.
	Include, Exclude []string
	// Since, when not zero, keeps only entries whose lastmod is on or after
	// it; entries with no lastmod are dropped.
	Since time.Time
	// NotBefore, when not zero, drops entries whose lastmod is before it;
	// entries with no lastmod are kept (nothing says they are old).
	NotBefore time.Time
}

// Validate reports a host that is not a host name or an empty glob.
func (f *FilterOptions) Validate() error {
	_, err := f.compile()
	return err
}

// filterer is the step that leaves out the entries a filter rejects.
type filterer struct {
	src into
	f   *filter
	obs Observer
}

// Filter returns the entries of r that the rules of opts keep; obs, when
// not nil, is told of each one left out, with the rule that rejected it.
// It fails when the rules do (see Validate).
func Filter(r formats.Reader, opts FilterOptions, obs Observer) (Stream, error) {
	f, err := opts.compile()
	if err != nil {
		return nil, err
	}
	return f.step(r, obs), nil
}

// step returns the filter as a step reading r.
func (f *filter) step(r formats.Reader, obs Observer) Stream {
	return &filterer{src: intoOf(stream(r)), f: f, obs: observer(obs)}
}

func (f *filterer) Next() (formats.Entry, error) {
	it, err := f.NextItem()
	return it.Entry, err
}

func (f *filterer) NextItem() (Item, error) {
	var it Item
	err := f.nextInto(&it)
	return it, err
}

func (f *filterer) nextInto(it *Item) error {
	for {
		if err := f.src.nextInto(it); err != nil {
			return err
		}
		if rule := f.f.checkScoped(&it.Entry, it.scope); rule != "" {
			f.obs.Dropped(Drop{From: it.Input, Loc: it.Entry.Loc, Rule: rule})
			continue
		}
		return nil
	}
}

// filter is a FilterOptions ready to apply.
type filter struct {
	hosts            []string // exact hosts, and ".example.com" suffixes for "*.example.com"
	scope            string   // scheme://host/dir/ prefix
	include, exclude []*regexp.Regexp
	since, notBefore time.Time
}

// compile checks the filter and prepares it.
func (f *FilterOptions) compile() (*filter, error) {
	c := &filter{since: f.Since, notBefore: f.NotBefore}
	for _, h := range f.Hosts {
		wild := strings.HasPrefix(h, "*.")
		name := strings.TrimPrefix(h, "*.")
		loc, err := formats.ParseLoc("http://"+name+"/", nil)
		if err != nil || strings.ContainsAny(name, "/?#@") {
			return nil, fmt.Errorf("host %q is not a host name", h)
		}
		name = strings.TrimSuffix(strings.TrimPrefix(loc, "http://"), "/")
		name = strings.TrimRight(name, ".") // example.com. is example.com
		if wild {
			name = "." + name
		}
		c.hosts = append(c.hosts, name)
	}
	if f.Scope != nil {
		loc, err := formats.ParseLoc(f.Scope.String(), nil)
		if err != nil {
			return nil, fmt.Errorf("scope: %w", err)
		}
		loc = normalize.ScopeKey(loc)
		// The directory: up to the last slash after the host.
		host := strings.Index(loc, "://") + 3
		if slash := strings.LastIndexByte(loc, '/'); slash >= host {
			loc = loc[:slash+1]
		} else {
			loc += "/"
		}
		c.scope = loc
	}
	var err error
	if c.include, err = globs(f.Include); err != nil {
		return nil, err
	}
	if c.exclude, err = globs(f.Exclude); err != nil {
		return nil, err
	}
	return c, nil
}

func globs(patterns []string) ([]*regexp.Regexp, error) {
	var res []*regexp.Regexp
	for _, p := range patterns {
		re, err := globRegexp(p)
		if err != nil {
			return nil, fmt.Errorf("glob %q: %w", p, err)
		}
		res = append(res, re)
	}
	return res, nil
}

// globRegexp returns the regular expression of a path glob, or why the
// glob is malformed or can never match a path.
func globRegexp(glob string) (*regexp.Regexp, error) {
	if glob == "" {
		return nil, fmt.Errorf("empty")
	}
	if err := globStart(glob); err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(`^`)
	depth := 0 // of {} alternatives
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			if i > 0 && glob[i-1] == '/' && i+2 < len(glob) && glob[i+2] == '/' {
				b.WriteString(`(?:.*/)?`) // "/**/": any number of segments, none too
				i += 2
				continue
			}
			b.WriteString(`.*`)
			i++
		case c == '*':
			b.WriteString(`[^/]*`)
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '\\':
			if i+1 == len(glob) {
				return nil, fmt.Errorf("ends with a lone \\")
			}
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		case c == '[':
			end, class, err := globClass(glob, i)
			if err != nil {
				return nil, err
			}
			b.WriteString(class)
			i = end
		case c == '{':
			depth++
			b.WriteString(`(?:`)
		case c == ',' && depth > 0:
			b.WriteString(`|`)
		case c == '}' && depth > 0:
			depth--
			b.WriteString(`)`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("a { has no closing }")
	}
	b.WriteString(`$`)
	return regexp.Compile(b.String())
}

// globClass translates the character class that starts at glob[i] ('[')
// and returns the index of its closing ']' and its regular expression.
func globClass(glob string, i int) (int, string, error) {
	j := i + 1
	negate := j < len(glob) && (glob[j] == '!' || glob[j] == '^')
	if negate {
		j++
	}
	var b strings.Builder
	b.WriteByte('[')
	if negate {
		b.WriteString(`^/`)
	}
	for first := true; ; first = false {
		if j >= len(glob) {
			return 0, "", fmt.Errorf("a [ has no closing ]")
		}
		c := glob[j]
		if c == ']' && !first {
			break
		}
		escaped := c == '\\' && j+1 < len(glob)
		if escaped {
			j++
			c = glob[j]
		}
		switch {
		case c == '-' && !escaped && !first && j+1 < len(glob) && glob[j+1] != ']':
			b.WriteByte('-') // a range
		case strings.IndexByte(`\]^-[`, c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		j++
	}
	b.WriteByte(']')
	if _, err := regexp.Compile(b.String()); err != nil {
		return 0, "", fmt.Errorf("the class %s: %w", glob[i:j+1], err)
	}
	return j, b.String(), nil
}

// ErrGlobURL is wrapped by the error of a glob that names a whole URL
// rather than the path of one (FilterOptions.Hosts filters by host).
var ErrGlobURL = errors.New("convert: a glob matches the path of a URL, which starts with /, not the whole URL")

// globStart reports a glob that cannot match a path, which starts with
// '/': one that starts otherwise, but with ** or alternatives that all
// start with '/'.
func globStart(glob string) error {
	switch {
	case strings.HasPrefix(glob, "/") || strings.HasPrefix(glob, "**"):
		return nil
	case strings.HasPrefix(glob, "{"):
		end := strings.IndexByte(glob, '}')
		if end < 0 {
			return fmt.Errorf("a { has no closing }")
		}
		for _, alt := range strings.Split(glob[1:end], ",") {
			if err := globStart(alt + glob[end+1:]); err != nil {
				return err
			}
		}
		return nil
	case strings.Contains(glob, "://"):
		return fmt.Errorf("%w: drop the scheme and host", ErrGlobURL)
	}
	return fmt.Errorf("a glob matches the whole path of a URL, which starts with /, so this one never matches: did you mean /**/%s (in any directory) or /%s (at the top)?", glob, glob)
}

// keepsAll reports whether the filter has no rule: it keeps every entry.
func (f *filter) keepsAll() bool {
	return len(f.hosts) == 0 && f.scope == "" && len(f.include) == 0 && len(f.exclude) == 0 && f.since.IsZero() && f.notBefore.IsZero()
}

// check returns the rule that drops e, or "" to keep it.
func (f *filter) check(e *formats.Entry) string { return f.checkScoped(e, 0) }

// checkScoped is check, told when scope is above 0 that e.Loc[:scope] is
// the normalize.ScopeKey of e.Loc (Item.scope).
func (f *filter) checkScoped(e *formats.Entry, scope int) string {
	if len(f.hosts) > 0 && !f.hostOK(e.Loc) {
		return RuleHost
	}
	var key string // normalize.ScopeKey(e.Loc), when a rule needs it
	switch {
	case f.scope == "" && len(f.include) == 0 && len(f.exclude) == 0:
	case scope > 0:
		key = e.Loc[:scope]
	default:
		key = normalize.ScopeKey(e.Loc)
	}
	if f.scope != "" && !strings.HasPrefix(key, f.scope) {
		return RuleScope
	}
	if len(f.include) > 0 || len(f.exclude) > 0 {
		path := locPath(key)
		if len(f.include) > 0 && !matchAny(f.include, path) {
			return RuleInclude
		}
		if matchAny(f.exclude, path) || key != e.Loc && matchAny(f.exclude, locPath(e.Loc)) {
			return RuleExclude
		}
	}
	if !f.since.IsZero() && (e.LastMod.IsZero() || e.LastMod.Time().Before(f.since)) {
		return RuleSince
	}
	if !f.notBefore.IsZero() && !e.LastMod.IsZero() && e.LastMod.Time().Before(f.notBefore) {
		return RuleMaxAge
	}
	return ""
}

func (f *filter) hostOK(loc string) bool {
	host := strings.TrimRight(locHost(loc), ".")
	for _, h := range f.hosts {
		if h == host || h[0] == '.' && strings.HasSuffix(host, h) {
			return true
		}
	}
	return false
}

func matchAny(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// locHost returns the host of an absolute URL, without port or userinfo.
func locHost(loc string) string {
	rest := loc[strings.Index(loc, "://")+3:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if i := strings.IndexByte(rest, ']'); i >= 0 {
			return rest[:i+1]
		}
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// locPath returns the path of an absolute URL ("/" when empty).
func locPath(loc string) string {
	rest := loc[strings.Index(loc, "://")+3:]
	i := strings.IndexAny(rest, "/?#")
	if i < 0 || rest[i] != '/' {
		return "/"
	}
	rest = rest[i:]
	if j := strings.IndexAny(rest, "?#"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
