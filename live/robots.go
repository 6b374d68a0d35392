package live

import (
	"bufio"
	"bytes"
	"strings"
)

// RobotsMaxBytes is how much of a robots.txt is parsed: RFC 9309 asks
// crawlers to parse at least 500 KiB, and what comes after may be left.
const RobotsMaxBytes = 500 << 10

// Robots is a parsed robots.txt (RFC 9309): its groups of rules, each for
// the user agents that head it.
type Robots struct {
	groups []robotsGroup
	// all is set for a robots.txt that could not be fetched (a 5xx
	// answer, no answer): everything is disallowed, the reason in it.
	all string
}

// robotsGroup is a group: its user agents (lower case) and its rules.
type robotsGroup struct {
	agents []string
	rules  []robotsRule
}

// robotsRule is one allow or disallow line.
type robotsRule struct {
	allow   bool
	pattern string // normalized (see normalizePath)
	text    string // the line as written, for messages
	line    int
}

// ParseRobots parses the content of a robots.txt, at most RobotsMaxBytes
// of it. Lines that are not user-agent, allow or disallow lines (sitemap,
// crawl-delay, comments, junk) are ignored and end no group.
func ParseRobots(content []byte) *Robots {
	if len(content) > RobotsMaxBytes {
		content = content[:RobotsMaxBytes]
	}
	content = bytes.TrimPrefix(content, []byte("\uFEFF"))
	r := &Robots{}
	var cur *robotsGroup
	inAgents := false // the last line of interest was a user-agent line
	sc := bufio.NewScanner(bytes.NewReader(content))
	sc.Buffer(make([]byte, 0, 4096), RobotsMaxBytes+1)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		switch key {
		case "user-agent":
			if !inAgents || cur == nil {
				r.groups = append(r.groups, robotsGroup{})
				cur = &r.groups[len(r.groups)-1]
			}
			cur.agents = append(cur.agents, strings.ToLower(value))
			inAgents = true
		case "allow", "disallow":
			inAgents = false
			if cur == nil || value == "" {
				// Rules before any user-agent line belong to no group;
				// an empty rule matches nothing.
				continue
			}
			cur.rules = append(cur.rules, robotsRule{allow: key == "allow", pattern: normalizePath(value),
				text: strings.TrimSpace(line), line: n})
		}
	}
	return r
}

// disallowAll returns the robots.txt of a host whose robots.txt could not
// be fetched: everything disallowed, for the reason given.
func disallowAll(reason string) *Robots { return &Robots{all: reason} }

// Verdict is the outcome of matching a path against a robots.txt for one
// user agent.
type Verdict struct {
	// Allowed is true when the agent may crawl the path.
	Allowed bool
	// Rule is the line that decided ("Disallow: /private/"), and Line its
	// line number; empty and 0 when no rule matched.
	Rule string
	Line int
}

// Allowed returns the verdict for a crawler whose product token is agent
// ("Googlebot", "*") on pathQuery, a URL's path and query as sent
// ("/a/b?c=d"). The group of the agent is every group that names it,
// ignoring case, else every group of "*", else none (all allowed); the
// longest matching rule decides, allow winning a tie; /robots.txt is
// always allowed.
func (r *Robots) Allowed(agent, pathQuery string) Verdict {
	if r.all != "" {
		return Verdict{Allowed: pathQuery == "/robots.txt"}
	}
	if pathQuery == "" {
		pathQuery = "/"
	}
	if pathQuery == "/robots.txt" {
		return Verdict{Allowed: true}
	}
	p := normalizePath(pathQuery)
	agent = strings.ToLower(agent)
	rules := r.rulesFor(agent)
	if rules == nil && agent != "*" {
		rules = r.rulesFor("*")
	}
	best, found := robotsRule{}, false
	for _, rl := range rules {
		if !match(rl.pattern, p) {
			continue
		}
		n, m := patternLen(rl.pattern), patternLen(best.pattern)
		if !found || n > m || n == m && rl.allow && !best.allow {
			best, found = rl, true
		}
	}
	if !found {
		return Verdict{Allowed: true}
	}
	return Verdict{Allowed: best.allow, Rule: best.text, Line: best.line}
}

// rulesFor returns the rules of every group that names agent; nil when
// none does. A matching group without rules gives an empty, non-nil list.
func (r *Robots) rulesFor(agent string) []robotsRule {
	var rules []robotsRule
	for _, g := range r.groups {
		for _, a := range g.agents {
			if a == agent {
				rules = append(rules, g.rules...)
				if rules == nil {
					rules = []robotsRule{}
				}
				break
			}
		}
	}
	return rules
}

// patternLen is the length of a pattern as compared for the longest
// match: in octets, of its normalized form.
func patternLen(p string) int { return len(p) }

// match reports whether pattern (with * for any sequence of characters
// and a final $ for the end of the path) matches the start of p.
func match(pattern, p string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	if anchored {
		pattern = pattern[:len(pattern)-1]
	}
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(p, parts[0]) {
		return false
	}
	rest := p[len(parts[0]):]
	if len(parts) == 1 {
		return !anchored || rest == ""
	}
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		if last && anchored {
			return strings.HasSuffix(rest, part)
		}
		j := strings.Index(rest, part)
		if j < 0 {
			return false
		}
		rest = rest[j+len(part):]
	}
	return true
}

// normalizePath puts a path or pattern in the form compared: characters
// outside printable ASCII percent-encoded, the escapes of unreserved
// characters decoded, and hexadecimal digits of the other escapes in upper
// case, so that /%62%61%7A matches /baz and /ツ matches /%E3%83%84.
func normalizePath(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(v) {
				b.WriteByte(v)
			} else {
				b.WriteByte('%')
				b.WriteString(strings.ToUpper(s[i+1 : i+3]))
			}
			i += 2
		case c <= ' ' || c >= 0x7f:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// isUnreserved reports whether c is an unreserved character of RFC 3986.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}
