package normalize

// The parameter names the presets remove, as documented on
// Options.StripSessionIDs and Options.StripUTM (a test holds the two in
// step). Matched ignoring ASCII case; a name ending in '*' is a prefix.
var (
	sessionIDs = newNameList(
		"jsessionid", "phpsessid", "aspsessionid*", "asp.net_sessionid",
		"sid", "sessionid", "session_id", "sessid",
		"cfid", "cftoken", "oscsid", "zenid",
	)
	trackingParams = newNameList(
		"utm_*",
		"gclid", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid",
		"twclid", "ttclid", "igshid", "mc_cid", "mc_eid", "_ga", "_gl",
	)
)

// A nameList is a list of names and prefixes to match, with what tells
// most names apart at once: the lengths of the names starting with each
// byte, and the bytes prefixes start with.
type nameList struct {
	names   []string
	lengths [256]uint64 // bit n: a name n bytes long starts with the byte
	prefix  [256]bool   // a prefix starts with the byte
}

func newNameList(names ...string) *nameList {
	l := &nameList{names: names}
	for _, n := range names {
		for _, c := range []byte{n[0], upperASCII(n[0])} {
			if n[len(n)-1] == '*' {
				l.prefix[c] = true
			} else {
				l.lengths[c] |= 1 << len(n)
			}
		}
	}
	return l
}

// matchList reports whether name matches a name or prefix of l.
func matchList[T string | []byte](l *nameList, name T) bool {
	if len(name) == 0 {
		return false
	}
	c := name[0]
	if !l.prefix[c] && (len(name) >= 64 || l.lengths[c]&(1<<len(name)) == 0) {
		return false
	}
	return matchAny(l.names, name)
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
