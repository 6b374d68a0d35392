package feed_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
)

func messages(pes []*formats.ParseError) []string {
	var out []string
	for _, pe := range pes {
		out = append(out, pe.Error())
	}
	return out
}

// TestJSONFeedMistypedFields reads a JSON Feed whose fields have the wrong
// JSON type: each is dropped with a warning naming the item, the field and
// its position, and the items are kept with their other fields.
func TestJSONFeedMistypedFields(t *testing.T) {
	doc := `{"version": "https://jsonfeed.org/version/1.1", "title": 7, "author": "me",
 "home_page_url": "https://a.example/blog/", "authors": {"name": "x"}, "expired": [1], "next_url": 3,
 "items": [
  {"id": "1", "url": "p/1", "tags": "one", "date_modified": "2024-05-01T10:00:00Z"},
  {"id": "2", "url": "p/2", "authors": {"name": "A"}, "date_modified": 5, "date_published": "2024-05-02T10:00:00Z"},
  {"id": "3", "url": "p/3", "attachments": {}, "title": ["t"], "author": "B", "image": "https://a.example/i.png"},
  "https://a.example/p/4",
  {"id": "5", "url": "p/5", "attachments": [{"url": "https://a.example/v.mp4", "mime_type": 4}, {"url": "https://a.example/p.png", "mime_type": "image/png"}], "content_html": {}},
  null,
  {"id": 6, "url": "p/6", "tags": ["a", 2], "language": false}
 ]}`
	res := read(t, doc, formats.ReadOptions{Source: "feed.json"})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://a.example/blog/p/1", "https://a.example/blog/p/2", "https://a.example/blog/p/3",
		"https://a.example/blog/p/5", "https://a.example/blog/p/6"}, res.locs(), "relative links still resolve against home_page_url")
	assert.Equal(t, "2024-05-01T10:00:00Z", res.entries[0].LastMod.String())
	assert.Equal(t, "2024-05-02T10:00:00Z", res.entries[1].LastMod.String(), "a mistyped date_modified falls back to date_published")
	require.NotNil(t, res.entries[2].Ext)
	assert.Len(t, res.entries[2].Ext.Images, 1, "the item's other fields are kept")
	require.NotNil(t, res.entries[3].Ext)
	assert.Equal(t, "https://a.example/p.png", res.entries[3].Ext.Images[0].Loc, "the good elements of an array are kept")
	assert.Equal(t, []string{
		`feed.json:4:37: item 1: field "tags" dropped: a string where an array of strings belongs`,
		`feed.json:5:40: item 2: field "authors" dropped: an object where an array of objects belongs`,
		`feed.json:5:72: item 2: field "date_modified" dropped: a number where a string belongs`,
		`feed.json:6:44: item 3: field "attachments" dropped: an object where an array of objects belongs`,
		`feed.json:6:57: item 3: field "title" dropped: an array where a string belongs`,
		`feed.json:6:74: item 3: field "author" dropped: a string where an object belongs`,
		`feed.json:8:45: item 5: field "attachments": element 1 dropped: a number where a string belongs (at mime_type)`,
		`feed.json:8:176: item 5: field "content_html" dropped: an object where a string belongs`,
		`feed.json:10:41: item 7: field "tags": element 2 dropped: a number where a string belongs`,
		`feed.json:10:57: item 7: field "language" dropped: a boolean where a string belongs`,
		`feed.json:1:58: the feed: field "title" dropped: a number where a string belongs`,
		`feed.json:1:71: the feed: field "author" dropped: a string where an object belongs`,
		`feed.json:2:57: the feed: field "authors" dropped: an object where an array of objects belongs`,
		`feed.json:2:100: the feed: field "next_url" dropped: a number where a string belongs`,
		`feed.json: item 4 has no link (it is a string, not an object)`,
		`feed.json: item 6 has no link (it is null, not an object)`,
	}, messages(res.warnings))

	// Strict reading reads them the same: a dropped field, or an item
	// without a link, is a warning (validate's feed-item), not an error.
	strict := read(t, doc, formats.ReadOptions{Source: "feed.json", Strict: true})
	require.NoError(t, strict.err)
	assert.Equal(t, res.entries, strict.entries)
	assert.Equal(t, messages(res.warnings), messages(strict.warnings))
}

// TestJSONFeedItemsObject reads "items" written as an object (PHP encodes
// an array with gaps in its keys so): its members are the items, in order.
func TestJSONFeedItemsObject(t *testing.T) {
	res := read(t, `{"version": "https://jsonfeed.org/version/1", "items": {"0": {"url": "https://a.example/1"}, "2": {"url": "https://a.example/2"}, "3": 5}}`, formats.ReadOptions{Source: "feed.json"})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, res.locs())
	assert.Equal(t, []string{
		`feed.json:1:56: "items" is an object, not an array: its members are read as the items`,
		`feed.json: item 3 has no link (it is a number, not an object)`,
	}, messages(res.warnings))
}

// json10k is a JSON Feed of 10,000 items, each with an id, a url, a title,
// a date, tags and content.
func json10k() []byte {
	var b bytes.Buffer
	b.WriteString(`{"version": "https://jsonfeed.org/version/1.1", "title": "Bench", "home_page_url": "https://example.com/", "items": [`)
	for i := range 10_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "post-%d", "url": "https://example.com/posts/%d/", "title": "Post number %d", "date_published": "2006-01-02T15:04:05Z", "tags": ["a", "b"], "content_html": "<p>Some text about post %d.</p>"}`, i, i, i, i)
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// BenchmarkJSONFeedReader reads a well-typed JSON Feed of 10,000 items.
func BenchmarkJSONFeedReader(b *testing.B) {
	data := json10k()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res := readAll(b, feed.NewReader(bytes.NewReader(data), formats.ReadOptions{}))
		if res.err != nil || len(res.entries) != 10_000 {
			b.Fatalf("%d entries, %v", len(res.entries), res.err)
		}
	}
}

// FuzzJSONFeedField puts any JSON value under any key of an item and of the
// feed: one field, whatever its type, never costs the item or the feed.
func FuzzJSONFeedField(f *testing.F) {
	for _, s := range [][2]string{{"tags", `"one"`}, {"authors", `{"name": "x"}`}, {"date_modified", `5`}, {"attachments", `{}`},
		{"attachments", `[{"url": 5}]`}, {"author", `[]`}, {"image", `{"url": "https://a.example/i.png"}`}, {"title", `null`}, {"\u0075rl", `"x"`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		if !json.Valid([]byte(value)) || strings.EqualFold(key, "url") || strings.EqualFold(key, "id") || strings.EqualFold(key, "items") {
			return // the members that give the loc (encoding/json matches keys in any case)
		}
		k, _ := json.Marshal(key)
		for _, doc := range []string{
			`{"version": "https://jsonfeed.org/version/1.1", "items": [{"url": "https://a.example/1", ` + string(k) + `: ` + value + `}]}`,
			`{"version": "https://jsonfeed.org/version/1.1", ` + string(k) + `: ` + value + `, "items": [{"url": "https://a.example/1"}]}`,
		} {
			res := read(t, doc, formats.ReadOptions{Source: "feed.json"})
			if res.err != nil || len(res.entries) != 1 || res.entries[0].Loc != "https://a.example/1" {
				t.Fatalf("%s: %v entries, error %v, warnings %v", doc, res.locs(), res.err, messages(res.warnings))
			}
		}
	})
}

// TestJSONFeedMistypedFieldsLineEnds gives the same positions whatever the
// document's line ends.
func TestJSONFeedMistypedFieldsLineEnds(t *testing.T) {
	lines := []string{`{"version": "https://jsonfeed.org/version/1.1",`, ` "items": [`, `  {"url": "https://a.example/1",`, `   "tags": "one"}]}`}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		res := read(t, strings.Join(lines, eol), formats.ReadOptions{Source: "feed.json"})
		require.NoError(t, res.err)
		assert.Equal(t, []string{`feed.json:4:12: item 1: field "tags" dropped: a string where an array of strings belongs`}, messages(res.warnings), "ending %q", eol)
	}
}

// BenchmarkJSONFeedMistypedFields reads a JSON Feed of 10,000 items,
// each with a mistyped field dropped with a warning: compare with
// BenchmarkJSONFeedReader.
func BenchmarkJSONFeedMistypedFields(b *testing.B) {
	data := bytes.ReplaceAll(json10k(), []byte(`"tags": ["a", "b"]`), []byte(`"tags": "a, b"`))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res := readAll(b, feed.NewReader(bytes.NewReader(data), formats.ReadOptions{Warn: func(*formats.ParseError) {}}))
		if res.err != nil || len(res.entries) != 10_000 {
			b.Fatalf("%d entries, %v", len(res.entries), res.err)
		}
	}
}
