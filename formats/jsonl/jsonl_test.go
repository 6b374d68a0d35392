package jsonl_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/csv"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/jsonl"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// date parses a W3C date for a test.
func date(t testing.TB, s string) formats.LastMod {
	l, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return l
}

// fullEntry is an entry with every field of the model set.
func fullEntry(t testing.TB) formats.Entry {
	p, _ := formats.NewPriority(0.75)
	return formats.Entry{
		Loc: "https://example.com/page", LastMod: date(t, "2024-05-06T10:11:12.250+02:00"),
		ChangeFreq: formats.Weekly, Priority: p, Kind: formats.KindURL,
		Title: "A <title> & more", Summary: "Summary\nwith a line break",
		Ext: &formats.Extensions{
			Images: []formats.Image{{Loc: "https://example.com/i.png", Caption: "c", GeoLocation: "Paris",
				Title: "t", License: "https://example.com/license"}},
			Videos: []formats.Video{{
				ThumbnailLoc: "https://example.com/t.jpg", Title: "v", Description: "d",
				ContentLoc: "https://example.com/v.mp4", PlayerLoc: "https://example.com/player",
				PlayerAllowEmbed: "yes", PlayerAutoplay: "ap=1", Duration: 600,
				ExpirationDate: date(t, "2030-01-01"), Rating: "4.2",
				ContentSegments: []formats.VideoSegment{{Loc: "https://example.com/s1.mp4", Duration: 30}},
				ViewCount:       "12", PublicationDate: date(t, "2024-05"), Tags: []string{"a", "b"},
				Category: "cat", FamilyFriendly: "no", Restriction: "FR DE", RestrictionRelationship: "allow",
				GalleryLoc: "https://example.com/g", GalleryTitle: "g",
				Prices:               []formats.VideoPrice{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}},
				RequiresSubscription: "yes", Uploader: "u", UploaderInfo: "https://example.com/u",
				TVShow: &formats.TVShow{ShowTitle: "s", VideoType: "full", EpisodeTitle: "e",
					SeasonNumber: 2, EpisodeNumber: 3, PremierDate: date(t, "2024")},
				Platform: "web tv", PlatformRelationship: "deny", Live: "no",
				IDs: []formats.VideoID{{Type: "url", Value: "https://example.com/id"}},
			}},
			News: &formats.News{PublicationName: "Daily", PublicationLanguage: "en", Access: "Subscription",
				Genres: "Blog, OpEd", PublicationDate: date(t, "2024-05-06T10:11Z"), Title: "n",
				Keywords: "k", StockTickers: "NASDAQ:A"},
			Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de", Media: "only screen"}},
			Mobile:     true,
			Foreign:    []string{`<p:x xmlns:p="urn:p" a="1">t &amp; <p:y/></p:x>`},
			ForeignAt:  []int{2},
		},
	}
}

// zeroLeaves returns the paths of the fields of v that are zero, walking
// structs, pointers and the first item of slices.
func zeroLeaves(path string, v reflect.Value) []string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []string{path}
		}
		return zeroLeaves(path, v.Elem())
	case reflect.Slice:
		if v.Len() == 0 {
			return []string{path}
		}
		return zeroLeaves(path+"[0]", v.Index(0))
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(formats.LastMod{}) || v.Type() == reflect.TypeOf(formats.Priority{}) {
			if v.IsZero() {
				return []string{path}
			}
			return nil
		}
		var zero []string
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				zero = append(zero, zeroLeaves(path+"."+f.Name, v.Field(i))...)
			}
		}
		return zero
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

// TestEveryField writes and reads back an entry with every field of the
// model set: a field added to the model and not to the format fails here.
func TestEveryField(t *testing.T) {
	e := fullEntry(t)
	zero := zeroLeaves("Entry", reflect.ValueOf(e))
	assert.Equal(t, []string{"Entry.Kind"}, zero, "the test entry sets every field (Kind: KindURL is the zero value)")

	for _, kind := range []formats.Kind{formats.KindURL, formats.KindSitemap} {
		e.Kind = kind
		lines := write(t, jsonl.Format, []formats.Entry{e}, formats.WriteOptions{Head: []string{`<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist"/>`}})
		back := read(t, lines, formats.ReadOptions{Source: "x.jsonl", Strict: true})
		require.NoError(t, back.err)
		require.Len(t, back.entries, 1)
		assert.True(t, reflect.DeepEqual(e, back.entries[0]), "%s\n%#v", lines, back.entries[0])
		assert.Equal(t, []string{`<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist"/>`}, back.head)
	}
}

// TestSchemaFull round-trips the extension schema's fixture: every
// element and attribute of its tables, two items in each list. A row added
// to the schema is held by the format without an edit, or fails here.
func TestSchemaFull(t *testing.T) {
	// And foreign elements with their places among the items (FullForeign).
	for _, x := range []*formats.Extensions{extschema.Full(), extschema.FullForeign()} {
		e := formats.Entry{Loc: "https://example.com/", Ext: x}
		lines := write(t, jsonl.Format, []formats.Entry{e}, formats.WriteOptions{})
		back := read(t, lines, formats.ReadOptions{Source: "full.jsonl", Strict: true})
		require.NoError(t, back.err)
		require.Len(t, back.entries, 1)
		assert.True(t, reflect.DeepEqual(e, back.entries[0]), "%s\n%#v", lines, back.entries[0].Ext)
	}
}

func TestKeys(t *testing.T) {
	// The keys jq users rely on, as the package documentation lists them.
	e := fullEntry(t)
	b, err := jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry(nil, &e)
	require.NoError(t, err)
	s := string(b)
	for _, key := range []string{`{"loc":"https://example.com/page","lastmod":"2024-05-06T10:11:12.25+02:00",` +
		`"changefreq":"weekly","priority":0.75,"title":"A <title> & more","summary":"Summary\nwith a line break",`,
		`"images":[{"loc":"https://example.com/i.png","caption":"c","geo_location":"Paris","title":"t","license":"https://example.com/license"}]`,
		`"videos":[{"thumbnail_loc":"https://example.com/t.jpg","title":"v","description":"d","content_loc":"https://example.com/v.mp4",` +
			`"player_loc":{"value":"https://example.com/player","allow_embed":"yes","autoplay":"ap=1"},"duration":600,` +
			`"expiration_date":"2030-01-01","rating":"4.2","content_segment_loc":[{"value":"https://example.com/s1.mp4","duration":30}],` +
			`"view_count":"12","publication_date":"2024-05","tag":["a","b"],"category":"cat","family_friendly":"no",` +
			`"restriction":{"value":"FR DE","relationship":"allow"},"gallery_loc":{"value":"https://example.com/g","title":"g"},` +
			`"price":[{"value":"1.99","currency":"EUR","type":"rent","resolution":"hd"}],"requires_subscription":"yes",` +
			`"uploader":{"value":"u","info":"https://example.com/u"},` +
			`"tvshow":{"show_title":"s","video_type":"full","episode_title":"e","season_number":2,"episode_number":3,"premier_date":"2024"},` +
			`"platform":{"value":"web tv","relationship":"deny"},"live":"no","id":[{"value":"https://example.com/id","type":"url"}]}]`,
		`"news":{"publication":{"name":"Daily","language":"en"},"access":"Subscription","genres":"Blog, OpEd",` +
			`"publication_date":"2024-05-06T10:11Z","title":"n","keywords":"k","stock_tickers":"NASDAQ:A"}`,
		`"alternates":[{"hreflang":"de","media":"only screen","href":"https://example.com/de"}]`,
		`"mobile":true,"foreign":["<p:x xmlns:p=\"urn:p\" a=\"1\">t &amp; <p:y/></p:x>"],"foreign_at":[2]}` + "\n"} {
		assert.Contains(t, s, key)
	}
	assert.NotContains(t, s, `"kind"`, "a page has no kind key")
	assert.True(t, strings.HasSuffix(s, "}\n") && strings.Count(s, "\n") == 1, "one line")

	empty, err := jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry(nil, &formats.Entry{Loc: "https://a.example/", Kind: formats.KindSitemap})
	require.NoError(t, err)
	assert.Equal(t, `{"loc":"https://a.example/","kind":"sitemap"}`+"\n", string(empty))
	_, err = jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry(nil, &formats.Entry{})
	assert.Error(t, err)
}

// lines reads a document leniently through formats.Open, as jsonl.
func lines(t *testing.T, doc string) doc {
	t.Helper()
	return read(t, []byte(doc), formats.ReadOptions{Source: "in.jsonl"})
}

func warnings(d doc) []string {
	var w []string
	for _, pe := range d.warnings {
		w = append(w, pe.Error())
	}
	return w
}

func TestReaderWarnings(t *testing.T) {
	d := lines(t, strings.Join([]string{
		`{"loc":"https://a.example/1","lastmod":"2024-05-06","extra":1}`,
		``,
		`{"loc":"https://a.example/2",`,
		`{"loc":"/relative"}`,
		`{"lastmod":"2024-05-06"}`,
		`{"loc":"https://a.example/3","lastmod":"yesterday","priority":"high","changefreq":"sometimes"}`,
		`{"loc":"https://a.example/4","priority":"0.25","videos":[{"duration":true,"tag":"x","rating":"9","size":1}]}`,
		`{"loc":"https://a.example/5","foreign":["</x>","<a/><b/>","text","<ok/>"],"kind":"url"}`,
		`{"head":["<rs:md xmlns:rs=\"urn:rs\"/>"]}`,
		`{"loc":"https://a.example/6","kind":"page"}`,
		`[1,2]`,
		`{"loc":"https://a.example/7","lastmod":"2024-05-06T10:00:00"} trailing`,
		`{"loc":"https://a.example/8","lastmod":"2024-05-06T10:00:00","images":[{"caption":"no loc"}]}` + "\r",
	}, "\n"))
	require.NoError(t, d.err)
	var got []string
	for _, e := range d.entries {
		got = append(got, e.Loc)
	}
	assert.Equal(t, []string{"https://a.example/1", "https://a.example/3", "https://a.example/4", "https://a.example/5", "https://a.example/8"}, got)
	assert.Equal(t, "2024-05-06", d.entries[0].LastMod.String())
	assert.True(t, d.entries[1].LastMod.IsZero())
	assert.Equal(t, "0.25", d.entries[2].Priority.String(), "a priority in a string is read")
	assert.Nil(t, d.entries[2].Ext, "a video without its required fields is left out")
	assert.Equal(t, []string{"<ok/>"}, d.entries[3].Ext.Foreign)
	assert.Equal(t, "2024-05-06", d.entries[4].LastMod.String(), "a date-time without a zone keeps its date")
	assert.Nil(t, d.entries[4].Ext)
	assert.Nil(t, d.head, "a head after the first entry is not the document's")
	w := warnings(d)
	for _, want := range []string{
		`in.jsonl:1: unknown key "extra" ignored`,
		`in.jsonl:3:29: not a JSON object: unexpected end of JSON input`,
		`in.jsonl:4: loc "/relative": relative URL`,
		`in.jsonl:5: no "loc": line skipped`,
		`in.jsonl:6: lastmod ignored: formats: unrecognized date: "yesterday"`,
		`in.jsonl:6: changefreq "sometimes" ignored`,
		`in.jsonl:6: priority "\"high\"" ignored`,
		`in.jsonl:7: videos.duration ignored: true or false where a whole number belongs`,
		`in.jsonl:7: videos.tag ignored: a string where an array belongs`,
		`in.jsonl:7: videos.rating "9" ignored: not a number from 0.0 to 5.0`,
		`in.jsonl:7: unknown key "videos.size" ignored`,
		`in.jsonl:7: video "": no thumbnail_loc, no title, no description, no content_loc or player_loc: left out`,
		`in.jsonl:8: foreign element ignored: "</x>" is not well-formed XML`,
		`in.jsonl:8: foreign element ignored: "<a/><b/>" is more than one XML element`,
		`in.jsonl:8: foreign element ignored: "text" is not an XML element`,
		`in.jsonl:9: "head" ignored: only a line of its own before the first entry`,
		`in.jsonl:10: kind "page" is neither "url" nor "sitemap": line skipped`,
		`in.jsonl:11: not a JSON object: an array where an object belongs`,
		`in.jsonl:12:63: not a JSON object: invalid character 't' after top-level value`,
		`in.jsonl:13: lastmod "2024-05-06T10:00:00" has no time zone: only its date is kept`,
		`in.jsonl:13: image 1: no loc: left out`,
	} {
		found := false
		for _, msg := range w {
			found = found || strings.Contains(msg, want)
		}
		assert.True(t, found, "no warning %q in\n%s", want, strings.Join(w, "\n"))
	}
	for _, pe := range d.warnings {
		assert.Positive(t, pe.Line)
	}

	// Strict reading stops at the first.
	strict := read(t, []byte(`{"loc":"https://a.example/1"}`+"\n"+`{"loc":"https://a.example/2","x":1}`), formats.ReadOptions{Source: "s.jsonl", Strict: true})
	require.Error(t, strict.err)
	assert.Equal(t, `s.jsonl:2: unknown key "x" ignored`, strict.err.Error())
	assert.Len(t, strict.entries, 1)
}

func TestNotJSONLines(t *testing.T) {
	// JSON that is not a JSON Feed is sniffed as JSON Lines; the reader
	// says, with formats.ErrUnknownFormat, when it is not entries.
	for _, doc := range []string{
		`{"name": "package", "version": "1.0.0"}`,
		`[1, 2, 3]`,
		"{\n  \"loc\": \"https://a.example/\"\n}\n",
		`{"url": "https://example.com/"}`,
	} {
		d := lines(t, doc)
		require.Error(t, d.err, doc)
		assert.ErrorIs(t, d.err, formats.ErrUnknownFormat, doc)
		assert.Contains(t, d.err.Error(), "in.jsonl: formats: not a sitemap or feed (JSON that is neither a JSON Feed nor JSON Lines of entries: line 1 ")
		assert.Empty(t, d.entries)
	}
}

func TestLongLine(t *testing.T) {
	// A line over MaxLineLength is skipped without being held; the lines
	// around it are read.
	huge := `{"loc":"https://a.example/2","title":"` + strings.Repeat("x", jsonl.MaxLineLength) + `"}`
	doc := `{"loc":"https://a.example/1"}` + "\n" + huge + "\n" + `{"loc":"https://a.example/3"}` + "\n"
	var warned []string
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := jsonl.NewReader(strings.NewReader(doc), formats.ReadOptions{Source: "in.jsonl",
		Warn: func(pe *formats.ParseError) { warned = append(warned, pe.Error()) }})
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		n++
	}
	runtime.ReadMemStats(&after)
	assert.Equal(t, 2, n)
	assert.Equal(t, []string{"in.jsonl:2: line longer than 16 MiB skipped"}, warned)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(3*jsonl.MaxLineLength), "the long line is held once at most")
}

func TestHostile(t *testing.T) {
	// Deep nesting, many keys and many short lines take time and memory in
	// proportion to their size, and stop at the first problem only in
	// strict mode.
	for name, doc := range map[string]string{
		"deep":        `{"loc":"https://a.example/"}` + "\n" + `{"loc":"https://a.example/","foreign":` + strings.Repeat("[", 100000) + "\n",
		"many keys":   `{"loc":"https://a.example/"` + strings.Repeat(`,"k":1`, 200000) + "}\n",
		"many lines":  strings.Repeat(`{"loc":"https://a.example/"}`+"\n", 100000),
		"many blanks": `{"loc":"https://a.example/"}` + strings.Repeat("\n", 1<<20) + `{"loc":"https://a.example/"}`,
		"no newline":  `{"loc":"https://a.example/"}` + strings.Repeat(" ", 1<<20),
		"nul bytes":   `{"loc":"https://a.example/"}` + "\n" + strings.Repeat("\x00", 1000),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			r := jsonl.NewReader(strings.NewReader(doc), formats.ReadOptions{Source: "h.jsonl"})
			n := 0
			for {
				_, err := r.Next()
				if err != nil {
					require.ErrorIs(t, err, io.EOF)
					break
				}
				n++
			}
			assert.Positive(t, n)
			assert.Less(t, time.Since(start), 20*time.Second)
		})
	}
}

func TestReadError(t *testing.T) {
	// An error of the input ends the stream with the line it cut.
	boom := errors.New("boom")
	r := jsonl.NewReader(io.MultiReader(strings.NewReader(`{"loc":"https://a.example/"}`+"\n{"), errReader{boom}), formats.ReadOptions{Source: "e.jsonl"})
	_, err := r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	require.ErrorIs(t, err, boom)
	assert.Equal(t, "e.jsonl:2: boom", err.Error())
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestSplitLikeText(t *testing.T) {
	// Every document of the same options has the same header, and entries
	// render alone: output can measure and split them.
	o := formats.WriteOptions{Head: []string{"<rs:ln xmlns:rs=\"urn:rs\"/>"}}
	enc := jsonl.NewEncoder(o)
	assert.Equal(t, `{"head":["<rs:ln xmlns:rs=\"urn:rs\"/>"]}`+"\n", string(enc.AppendHeader(nil)))
	assert.Empty(t, enc.AppendFooter(nil))
	assert.Empty(t, jsonl.NewEncoder(formats.WriteOptions{}).AppendHeader(nil))
	e := fullEntry(t)
	a, _ := enc.AppendEntry(nil, &e)
	b, _ := jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry([]byte("x"), &e)
	assert.Equal(t, "x"+string(a), string(b))
	assert.Equal(t, "xml", jsonl.Format.Index)
	assert.True(t, jsonl.Format.OneFile)
	assert.Same(t, jsonl.Format, formats.ForFileName("out.jsonl.gz"))
}

func TestWriterReadsBack(t *testing.T) {
	// Through the registry: a mixed document, written and read back.
	f, err := formats.Lookup("jsonl")
	require.NoError(t, err)
	entries := []formats.Entry{{Loc: "https://a.example/s.xml", Kind: formats.KindSitemap}, {Loc: "https://a.example/"}}
	var buf bytes.Buffer
	w := f.NewWriter(&buf, formats.WriteOptions{})
	for _, e := range entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	back := read(t, buf.Bytes(), formats.ReadOptions{Strict: true})
	require.NoError(t, back.err)
	assert.Equal(t, entries, back.entries)
}

func TestStrings(t *testing.T) {
	// Strings read as encoding/json reads them, with escapes or without:
	// a byte that is not UTF-8 is U+FFFD.
	for in, want := range map[string]string{
		`"plain, é"`:          "plain, é",
		`"q\"b\\s\u00e9\n\t"`: "q\"b\\sé\n\t",
		"\"bad \xff byte\"":   "bad \uFFFD byte",
		`"\ud83d\ude00 pair"`: "\U0001F600 pair",
		"\"raw \u2028 sep\"":  "raw \u2028 sep",
	} {
		// The reader alone: formats.Open would read a line that is not
		// UTF-8 as windows-1252.
		r := jsonl.NewReader(strings.NewReader(`{"loc":"https://a.example/","title":`+in+"}\n"), formats.ReadOptions{Strict: true})
		e, err := r.Next()
		require.NoError(t, err, in)
		assert.Equal(t, want, e.Title, in)
	}
}
