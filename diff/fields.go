package diff

import (
	"reflect"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Fields returns the differences between two entries of one page, in the
// order Field documents, or nil when they hold the same data. The URLs are
// not compared: entries of one page may spell it differently.
func Fields(o, n *formats.Entry) []Field {
	var fs []Field
	if !o.LastMod.Equal(n.LastMod) {
		fs = append(fs, Field{"lastmod", text(o.LastMod), text(n.LastMod)})
	}
	if o.ChangeFreq != n.ChangeFreq {
		fs = append(fs, Field{"changefreq", string(o.ChangeFreq), string(n.ChangeFreq)})
	}
	if o.Priority != n.Priority {
		fs = append(fs, Field{"priority", text(o.Priority), text(n.Priority)})
	}
	ox, nx := o.Ext, n.Ext
	if ox == nil {
		ox = &formats.Extensions{}
	}
	if nx == nil {
		nx = &formats.Extensions{}
	}
	fs = list(fs, "images", ox.Images, nx.Images)
	fs = list(fs, "videos", ox.Videos, nx.Videos)
	if !reflect.DeepEqual(ox.News, nx.News) {
		fs = append(fs, Field{"news", present(ox.News != nil), present(nx.News != nil)})
		if ox.News != nil && nx.News != nil {
			fs[len(fs)-1] = Field{"news", "1", "1 (changed)"}
		}
	}
	fs = list(fs, "alternates", ox.Alternates, nx.Alternates)
	if ox.Mobile != nx.Mobile {
		fs = append(fs, Field{"mobile", present(ox.Mobile), present(nx.Mobile)})
	}
	fs = list(fs, "foreign", ox.Foreign, nx.Foreign)
	return fs
}

// text is the text form of a lastmod or priority, "" when unset.
func text(v interface {
	AppendText([]byte) []byte
}) string {
	return string(v.AppendText(nil))
}

// present is "1" when a single element is there, "" when not.
func present(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// list appends the difference of a list of extension elements, if any: the
// numbers of elements, marked "(changed)" when only their content differs.
func list[T any](fs []Field, name string, o, n []T) []Field {
	if len(o) == 0 && len(n) == 0 || reflect.DeepEqual(o, n) {
		return fs
	}
	f := Field{name, count(len(o)), count(len(n))}
	if len(o) == len(n) {
		f.New += " (changed)"
	}
	return append(fs, f)
}

func count(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
