// Package nsscope keeps the XML namespace declarations in scope while a
// document is read, for the XML reader (formats/xml) and the XML check of
// validate alike.
package nsscope

// Scope is the stack of namespace declarations in scope, in document
// order, indexed so that every operation costs the same however many
// declarations are in scope: a document with thousands of xmlns:
// declarations is read in linear time.
//
// Each declaration is on two lists: the declarations of its prefix (the
// innermost is in force, the others shadowed) and the live declarations
// of its URI (those whose prefix is in force), newest first. Declarations
// are taken out of scope in the reverse order they came in, so a shadowed
// declaration removed from its URI's list goes back between the same
// neighbours when the declaration that shadowed it goes out of scope
// (Knuth's dancing links).
type Scope struct {
	decls  []decl
	prefix map[string]int // prefix → 1 + index of its declaration in force
	uri    map[string]int // URI → 1 + index of its newest live declaration
}

// decl is a declaration in a Scope. Links are 1 + an index in
// decls, 0 for none.
type decl struct {
	prefix, uri string
	shadows     int // the declaration of the same prefix this one shadows
	up, down    int // the next newer and older live declarations of the URI
}

// Len returns how many declarations are in scope.
func (s *Scope) Len() int { return len(s.decls) }

// Push takes xmlns:prefix="uri" (xmlns="uri" for prefix "") into scope.
func (s *Scope) Push(prefix, uri string) {
	if s.prefix == nil {
		s.prefix, s.uri = map[string]int{}, map[string]int{}
	}
	i := len(s.decls) + 1
	d := decl{prefix: prefix, uri: uri, shadows: s.prefix[prefix]}
	if d.shadows > 0 {
		s.unlink(d.shadows)
	}
	s.prefix[prefix] = i
	d.down = s.uri[uri]
	if d.down > 0 {
		s.decls[d.down-1].up = i
	}
	s.uri[uri] = i
	s.decls = append(s.decls, d)
}

// PopTo takes the newest declarations out of scope until n are left.
func (s *Scope) PopTo(n int) {
	for len(s.decls) > n {
		i := len(s.decls)
		d := s.decls[i-1]
		s.unlink(i)
		s.decls = s.decls[:i-1]
		if d.shadows > 0 {
			s.prefix[d.prefix] = d.shadows
			s.relink(d.shadows)
		} else {
			delete(s.prefix, d.prefix)
		}
	}
}

// unlink removes the declaration i from its URI's live list.
func (s *Scope) unlink(i int) {
	d := &s.decls[i-1]
	if d.up > 0 {
		s.decls[d.up-1].down = d.down
	} else if d.down > 0 {
		s.uri[d.uri] = d.down
	} else {
		delete(s.uri, d.uri)
	}
	if d.down > 0 {
		s.decls[d.down-1].up = d.up
	}
}

// relink puts the declaration i back between the neighbours it had when
// it was unlinked.
func (s *Scope) relink(i int) {
	d := &s.decls[i-1]
	if d.up > 0 {
		s.decls[d.up-1].down = i
	} else {
		s.uri[d.uri] = i
	}
	if d.down > 0 {
		s.decls[d.down-1].up = i
	}
}

// Lookup returns the URI prefix is bound to, and whether it is bound.
func (s *Scope) Lookup(prefix string) (string, bool) {
	if i := s.prefix[prefix]; i > 0 {
		return s.decls[i-1].uri, true
	}
	return "", false
}

// PrefixOf returns the prefix of the newest declaration in force bound to
// uri; for an attribute (attr) only a non-empty one. ok is false when
// there is none. At most one declaration is passed over: the default
// namespace, of which one only is in force.
func (s *Scope) PrefixOf(uri string, attr bool) (prefix string, ok bool) {
	for i := s.uri[uri]; i > 0; i = s.decls[i-1].down {
		if d := &s.decls[i-1]; !attr || d.prefix != "" {
			return d.prefix, true
		}
	}
	return "", false
}
