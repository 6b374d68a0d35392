package xml

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Reading the children of a captured extension element into the model, as
// the tables of extschema declare them. A child the table has no row for,
// a repeated single one, a child in another namespace, text in a group,
// or an attribute the row does not declare means the model cannot hold
// the element: the reader then keeps it as foreign. A bad value drops its
// field, or its item, with a warning.

// imageLoc is image:loc, whose empty value is said.
var imageLoc = extschema.Image.Child("loc")

// fields reads the children of n, the group f, into its item s. Each must
// be in namespace space and have a row in f, a single one at most once.
// It reports false when one does not, or when n has attributes or text.
func (r *Reader) fields(n *cnode, f *extschema.Field, space string, s unsafe.Pointer) (bool, error) {
	if !n.onlySpace() {
		return false, nil
	}
	var seen uint64
	for _, k := range n.kids {
		if k.t.name.Space != space {
			return false, nil
		}
		i := childIndex(f, k.t.name.Local)
		if i < 0 {
			return false, nil
		}
		c := &f.Fields[i]
		if c.Max == 1 {
			if seen&(1<<i) != 0 {
				return false, nil
			}
			seen |= 1 << i
		}
		if ok, err := r.child(k, c, space, s); !ok || err != nil {
			return ok, err
		}
	}
	return true, nil
}

// childIndex returns the index of the row of f named local, or -1.
func childIndex(f *extschema.Field, local string) int {
	for i := range f.Fields {
		if f.Fields[i].Name == local {
			return i
		}
	}
	return -1
}

// child reads the child k, the element c of the group item s.
func (r *Reader) child(k *cnode, c *extschema.Field, space string, s unsafe.Pointer) (bool, error) {
	if c.Kind == extschema.Group {
		if c.Items == nil {
			return r.fields(k, c, space, s) // fields of s itself (news:publication)
		}
		item := c.Items.Add(s)
		ok, err := r.fields(k, c, space, item)
		if ok && err == nil {
			var keep bool
			if keep, err = r.judge(k, c, item); !keep {
				c.Items.Cut(s, 0)
			}
		}
		return ok, err
	}
	v, ok := k.leaf(c.Attrs)
	if !ok {
		return false, nil
	}
	if c.Items == nil {
		_, err := r.value(k, c, v, s)
		return true, err
	}
	n := c.Items.Len(s)
	if c.Max > 1 && n == c.Max {
		return true, r.warnf(k.t.line, k.t.col, false, "<%s> ignored: more than %d %ss", k.qname(), c.Max, c.Name)
	}
	keep, err := r.value(k, c, v, c.Items.Add(s))
	if !keep {
		c.Items.Cut(s, n)
	}
	return true, err
}

// judge checks an item of the group f read from n: the values of its
// required fields with a check (a bad one drops the item: without it the
// item would lack a required field), then the fields it lacks
// (extschema.Field.Missing). It reports false, after a warning, when the
// item is dropped.
func (r *Reader) judge(n *cnode, f *extschema.Field, item unsafe.Pointer) (bool, error) {
	for i := range f.Fields {
		c := &f.Fields[i]
		if c.Min == 0 || c.Check == nil || c.TextOf == nil {
			continue
		}
		if v := *c.Text(item); !c.Check(v) {
			return false, r.warnf(n.t.line, n.t.col, false, "<%s> ignored: %s %q is not %s", n.qname(), c.Name, clip([]byte(v)), c.Want)
		}
	}
	if f.Missing != nil {
		if m := f.Missing(item); m != nil {
			return false, r.incomplete(n, m)
		}
	}
	return true, nil
}

// value sets the value v of k, the element c, and its attributes in
// item. It reports false when the item of a list is not kept: a URL that
// is unusable, or a value its qualifying attributes make bad.
func (r *Reader) value(k *cnode, c *extschema.Field, v string, item unsafe.Pointer) (bool, error) {
	if qualified(c) {
		return r.qualifiedValue(k, c, v, item)
	}
	var err error
	switch c.Kind {
	case extschema.Loc:
		*c.Text(item), err = r.loc(k, v)
		if err == nil && v == "" && c == imageLoc {
			err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: empty", k.qname())
		}
	case extschema.Date:
		*c.Date(item), err = r.date(k, v)
	case extschema.Int:
		*c.Int(item), err = r.integer(k, v, max(c.Lo, 1), c.Hi)
	case extschema.Count:
		if _, perr := strconv.ParseUint(v, 10, 64); perr != nil {
			err = r.notA(k, v, c.Want)
		} else {
			*c.Text(item) = v
		}
	case extschema.Decimal:
		if d, perr := strconv.ParseFloat(v, 64); perr != nil || !(d >= float64(c.Lo) && d <= float64(c.Hi)) {
			err = r.notA(k, v, c.Want)
		} else {
			*c.Text(item) = v
		}
	default:
		if c.Check != nil && c.Min == 0 {
			// A required value is its item's to judge.
			*c.Text(item), err = r.checked(k, v, c.Check, c.Want)
		} else {
			*c.Text(item) = v
		}
	}
	for i := range c.Attrs {
		if werr := r.attr(k, &c.Attrs[i], item); err == nil {
			err = werr
		}
	}
	return c.Kind != extschema.Loc || *c.Text(item) != "", err
}

// attr sets the attribute a of k in item: a bad one is dropped with a
// warning, the element kept.
func (r *Reader) attr(k *cnode, a *extschema.Attr, item unsafe.Pointer) error {
	if a.Fixed != "" {
		return nil
	}
	v := k.attr(a.Name)
	switch {
	case a.Kind == extschema.Int:
		if v != "" {
			var err error
			*a.Int(item), err = r.integer(k, uri.TrimSpace(v), max(a.Lo, 1), a.Hi)
			return err
		}
	case a.Kind == extschema.Loc:
		if v != "" {
			// An anyURI, as the locs: what ParseLoc refuses would make the
			// written sitemap invalid.
			loc, err := formats.ParseLoc(v, r.opts.Base)
			if err != nil {
				return r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> %s attribute ignored: %w", k.qname(), a.Name, err))
			}
			*a.Text(item) = loc
		}
	case a.Check != nil && v != "" && !a.Check(v):
		return r.warnf(k.t.line, k.t.col, false, "<%s> %s attribute ignored: not %s", k.qname(), a.Name, a.Want)
	default:
		*a.Text(item) = v
	}
	return nil
}

// qualified reports whether c has attributes that qualify its value.
func qualified(c *extschema.Field) bool {
	for i := range c.Attrs {
		if c.Attrs[i].Qualifies {
			return true
		}
	}
	return false
}

// qualifiedValue sets the value v of k, the element c whose attributes
// qualify it, and its attributes in item, or drops the element with a
// warning when the value or one of them is bad (an empty one is bad when
// required).
func (r *Reader) qualifiedValue(k *cnode, c *extschema.Field, v string, item unsafe.Pointer) (bool, error) {
	bad := c.Check != nil && !c.Check(v)
	for i := range c.Attrs {
		a := &c.Attrs[i]
		if av := k.attr(a.Name); a.Qualifies && (av != "" || a.Required) && !a.Check(av) {
			bad = true
		}
	}
	if bad {
		var parts []string
		for i := range c.Attrs {
			if a := &c.Attrs[i]; a.Qualifies {
				parts = append(parts, fmt.Sprintf("%s %q", a.Name, clip([]byte(k.attr(a.Name)))))
			}
		}
		what := strings.Join(parts, ", ")
		if i := strings.LastIndex(what, ", "); i >= 0 {
			what = what[:i] + " or " + what[i+2:]
		}
		if c.Check != nil {
			what = fmt.Sprintf("%q with %s", clip([]byte(v)), what)
		}
		return false, r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %s is not %s", k.qname(), what, c.Want)
	}
	*c.Text(item) = v
	var err error
	for i := range c.Attrs {
		if a := &c.Attrs[i]; a.Qualifies {
			*a.Text(item) = k.attr(a.Name)
		} else if werr := r.attr(k, a, item); err == nil {
			err = werr
		}
	}
	return true, err
}

// leaf returns the trimmed text of n, and false when n has children, or
// attributes other than attrs.
func (n *cnode) leaf(attrs []extschema.Attr) (string, bool) {
	if len(n.kids) > 0 {
		return "", false
	}
	for _, a := range n.t.attrs {
		if a.name.Space != "" || !declared(attrs, a.name.Local) {
			return "", false
		}
	}
	return uri.TrimSpace(strings.Join(n.text, "")), true
}

// declared reports whether attrs holds the attribute name.
func declared(attrs []extschema.Attr, name string) bool {
	for i := range attrs {
		if attrs[i].Name == name {
			return true
		}
	}
	return false
}

// notA warns that the value v of k is not what it should be and returns
// what the warning returns.
func (r *Reader) notA(k *cnode, v, want string) error {
	return r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not %s", k.qname(), clip([]byte(v)), want)
}
