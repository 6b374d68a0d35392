package spool

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

func lastmod(t *testing.T, s string) formats.LastMod {
	l, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return l
}

func entries(t *testing.T) []formats.Entry {
	p, _ := formats.NewPriority(0.75)
	zero, _ := formats.NewPriority(0)
	return []formats.Entry{
		{Loc: "https://example.com/"},
		{Loc: "https://example.com/a", LastMod: lastmod(t, "2024-05-06"), ChangeFreq: formats.ChangeFreq("daily"), Priority: p},
		{Loc: "https://example.com/b", LastMod: lastmod(t, "2024-05-06T07:08:09.123+05:30"), Priority: zero},
		{Loc: "https://example.com/c", LastMod: lastmod(t, "2024-05-06T07:08:09.000Z")},
		{Loc: "https://example.com/d", LastMod: lastmod(t, "2024-05-06T07:08-04:00")},
		{Loc: "https://example.com/e", LastMod: lastmod(t, "2024")},
		{Loc: "https://example.com/sitemap.xml", Kind: formats.KindSitemap, LastMod: lastmod(t, "Tue, 10 Jun 2003 04:00:00 GMT")},
		{Loc: "https://example.com/" + strings.Repeat("long/", 2000)},
		{Loc: "https://example.com/t", Title: "A title", Summary: "What it is about"},
		{Loc: "https://example.com/u", Summary: "Only a summary", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/k.jpg"}}}},
		{Loc: "https://example.com/x", Ext: &formats.Extensions{
			Images: []formats.Image{{Loc: "https://example.com/i.jpg", Caption: "c", Title: "t"}, {Loc: "https://example.com/j.jpg"}},
			Videos: []formats.Video{{ThumbnailLoc: "https://example.com/t.jpg", Title: "v", Description: "d", ContentLoc: "https://example.com/v.mp4",
				Duration: 600, PublicationDate: lastmod(t, "2024-01-02T03:04:05Z"), Tags: []string{"a", "b"}, Live: "no"}},
			News:       &formats.News{PublicationName: "N", PublicationLanguage: "en", PublicationDate: lastmod(t, "2024-01-02"), Title: "T"},
			Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de/x"}},
		}},
		fullEntry(t),
	}
}

// fullEntry returns an entry with every field of the model set, every
// list holding two items and every optional pointer set;
// TestFullEntryIsFull checks that nothing was forgotten.
func fullEntry(t *testing.T) formats.Entry {
	p, _ := formats.NewPriority(0.3)
	video := func(n string) formats.Video {
		return formats.Video{
			ThumbnailLoc: "https://example.com/t" + n + ".jpg", Title: "title " + n, Description: "desc " + n,
			ContentLoc: "https://example.com/v" + n + ".mp4", PlayerLoc: "https://example.com/p" + n,
			PlayerAllowEmbed: "yes", PlayerAutoplay: "ap=1", Duration: 600,
			ExpirationDate: lastmod(t, "2030-01-02"), Rating: "4.5",
			ContentSegments: []formats.VideoSegment{{Loc: "https://example.com/s1", Duration: 30}, {Loc: "https://example.com/s2", Duration: 40}},
			ViewCount:       "1000", PublicationDate: lastmod(t, "2024-01-02T03:04:05.5+01:00"),
			Tags: []string{"a", "b"}, Category: "cat", FamilyFriendly: "no",
			Restriction: "IE GB", RestrictionRelationship: "deny",
			GalleryLoc: "https://example.com/g", GalleryTitle: "gallery",
			Prices:               []formats.VideoPrice{{Value: "1.99", Currency: "EUR", Type: "rent", Resolution: "hd"}, {Value: "9", Currency: "USD", Type: "purchase", Resolution: "sd"}},
			RequiresSubscription: "yes", Uploader: "someone", UploaderInfo: "https://example.com/u",
			TVShow: &formats.TVShow{ShowTitle: "show", VideoType: "full", EpisodeTitle: "ep", SeasonNumber: 2, EpisodeNumber: 3,
				PremierDate: lastmod(t, "2024-05-06T07:08-04:00")},
			Platform: "web tv", PlatformRelationship: "allow", Live: "no",
			IDs: []formats.VideoID{{Type: "url", Value: "https://example.com/id"}, {Type: "freebase", Value: "/m/0"}},
		}
	}
	return formats.Entry{
		Loc: "https://example.com/full", LastMod: lastmod(t, "2024-05-06T07:08:09Z"), ChangeFreq: formats.Weekly,
		Priority: p, Kind: formats.KindSitemap, Title: "T", Summary: "S",
		Ext: &formats.Extensions{
			Images: []formats.Image{
				{Loc: "https://example.com/i.jpg", Caption: "c", GeoLocation: "g", Title: "t", License: "https://example.com/l"},
				{Loc: "https://example.com/j.jpg", Caption: "c2", GeoLocation: "g2", Title: "t2", License: "https://example.com/l2"},
			},
			Videos: []formats.Video{video("1"), video("2")},
			News: &formats.News{PublicationName: "N", PublicationLanguage: "en", Access: "Subscription", Genres: "Blog, OpEd",
				PublicationDate: lastmod(t, "2024-01-02"), Title: "T", Keywords: "k", StockTickers: "NASDAQ:A"},
			Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de", Media: "m"}, {Hreflang: "fr", Href: "https://example.com/fr", Media: "m2"}},
			Mobile:     true,
			Foreign:    []string{`<a xmlns="urn:x">1</a>`, `<b xmlns="urn:y"/>`},
			ForeignAt:  []int{1, 2},
		},
	}
}

// dump writes out a value with every field, following pointers, and
// lastmods in their written form with their precision, so that two entries
// compare whole.
func dump(b *strings.Builder, v reflect.Value) {
	if l, ok := v.Interface().(formats.LastMod); ok {
		fmt.Fprintf(b, "%s@%d", l, l.Precision())
		return
	}
	if p, ok := v.Interface().(formats.Priority); ok {
		fmt.Fprintf(b, "%q", p)
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		dump(b, v.Elem())
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			fmt.Fprintf(b, "%s:", v.Type().Field(i).Name)
			dump(b, v.Field(i))
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice:
		fmt.Fprintf(b, "%d[", v.Len())
		for i := 0; i < v.Len(); i++ {
			dump(b, v.Index(i))
			b.WriteString(",")
		}
		b.WriteString("]")
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}

// same compares two entries whole.
func same(t *testing.T, want, got formats.Entry) {
	t.Helper()
	var w, g strings.Builder
	dump(&w, reflect.ValueOf(want))
	dump(&g, reflect.ValueOf(got))
	require.Equal(t, w.String(), g.String())
}

// zeroFields returns the paths of the fields of v that are zero, empty or
// nil, so that a test can check a fixture sets everything.
func zeroFields(path string, v reflect.Value) []string {
	if _, ok := v.Interface().(formats.LastMod); ok {
		if v.Interface().(formats.LastMod).IsZero() {
			return []string{path}
		}
		return nil
	}
	if v.IsZero() {
		return []string{path}
	}
	var out []string
	switch v.Kind() {
	case reflect.Pointer:
		out = zeroFields(path, v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				out = append(out, zeroFields(path+"."+v.Type().Field(i).Name, v.Field(i))...)
			}
		}
	case reflect.Slice:
		if v.Len() < 2 {
			out = append(out, path+" has fewer than 2 items")
		}
		for i := 0; i < v.Len(); i++ {
			out = append(out, zeroFields(fmt.Sprintf("%s[%d]", path, i), v.Index(i))...)
		}
	}
	return out
}

func TestFullEntryIsFull(t *testing.T) {
	// A field added to the model and not to the fixture fails here, so
	// that the codec tests below cover it.
	assert.Empty(t, zeroFields("Entry", reflect.ValueOf(fullEntry(t))))
}

func TestCodecFullEntry(t *testing.T) {
	for _, e := range []formats.Entry{fullEntry(t), {Loc: "https://example.com/", Ext: &formats.Extensions{}}} {
		b := appendEntry(nil, &e)
		d := &decoder{b: b}
		got := d.entry()
		require.NoError(t, d.err)
		assert.Empty(t, d.b, "every byte is decoded")
		same(t, e, got)
		// Every strict prefix of the record fails to decode or decodes to
		// something else, never panics.
		for n := 0; n < len(b); n++ {
			d := &decoder{b: b[:n:n]}
			_ = d.entry()
			assert.Error(t, d.err, "prefix of %d bytes", n)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	s, err := New(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	want := entries(t)
	// Enough records to go through the file and not only the buffer.
	var offs []int64
	for i := 0; i < 3000; i++ {
		e := want[i%len(want)]
		off, err := s.Append(&Record{Flags: uint8(i % 3), Hash: uint64(i) * 0x9e3779b97f4a7c15, Input: i % 5, Link: int64(i), Entry: e})
		require.NoError(t, err)
		offs = append(offs, off)
	}
	assert.Greater(t, s.Size(), int64(bufSize))
	for _, i := range []int{0, 7, 8, 1500, 2998, 2999} {
		r, err := s.ReadAt(offs[i])
		require.NoError(t, err)
		assert.Equal(t, offs[i], r.Off)
		assert.Equal(t, uint8(i%3), r.Flags)
		assert.Equal(t, uint64(i)*0x9e3779b97f4a7c15, r.Hash)
		assert.Equal(t, i%5, r.Input)
		assert.Equal(t, int64(i), r.Link)
		same(t, want[i%len(want)], r.Entry)
	}
	sc, err := s.Scan()
	require.NoError(t, err)
	for i := 0; ; i++ {
		r, err := sc.Next()
		if err == io.EOF {
			assert.Equal(t, 3000, i)
			break
		}
		require.NoError(t, err)
		assert.Equal(t, offs[i], r.Off)
		same(t, want[i%len(want)], r.Entry)
		// Reading by offset while scanning.
		if i%500 == 0 {
			r2, err := s.ReadAt(offs[i/2])
			require.NoError(t, err)
			same(t, want[(i/2)%len(want)], r2.Entry)
		}
	}
}

func TestNextIntoReusesTheRecord(t *testing.T) {
	// Records scanned into one Record, one after another, are each what
	// was appended: nothing of the record before stays (a full entry
	// followed by one with only a loc, say).
	s, err := New(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	want := append([]formats.Entry{fullEntry(t)}, entries(t)...)
	want = append(want, fullEntry(t), formats.Entry{Loc: "https://example.com/last"})
	for i, e := range want {
		_, err := s.Append(&Record{Flags: uint8(i % 2), Hash: uint64(i + 1), Input: i, Link: int64(10 * i), Entry: e})
		require.NoError(t, err)
	}
	sc, err := s.Scan()
	require.NoError(t, err)
	var r Record
	for i := range want {
		require.NoError(t, sc.NextInto(&r))
		assert.Equal(t, uint8(i%2), r.Flags)
		assert.Equal(t, uint64(i+1), r.Hash)
		assert.Equal(t, i, r.Input)
		assert.Equal(t, int64(10*i), r.Link)
		same(t, want[i], r.Entry)
		byOff, err := s.ReadAt(r.Off)
		require.NoError(t, err)
		assert.Equal(t, byOff, r, "record %d", i)
	}
	assert.Equal(t, io.EOF, sc.NextInto(&r))
	assert.Equal(t, Record{}, r, "nothing is left in the record at the end")
}

func BenchmarkAppendScan(b *testing.B) {
	s, err := New(b.TempDir())
	require.NoError(b, err)
	defer s.Close()
	e := formats.Entry{Loc: "https://www.example.com/blog/2024/05/some-post-title.html"}
	e.LastMod, _ = formats.ParseLastMod("2024-05-06T07:08:09Z")
	b.ReportAllocs()
	r := Record{Flags: 1, Entry: e}
	for i := 0; b.Loop(); i++ {
		r.Hash = uint64(i)
		s.Append(&r)
	}
	sc, _ := s.Scan()
	for {
		if _, err := sc.Next(); err != nil {
			break
		}
	}
}

func TestCodecTables(t *testing.T) {
	// Every element and attribute of every extension's table set
	// (extschema.Full): a row added there is encoded and decoded without
	// an edit here; foreign elements with their places (FullForeign).
	e := formats.Entry{Loc: "https://example.com/", Ext: extschema.FullForeign()}
	b := appendEntry(nil, &e)
	d := &decoder{b: b}
	got := d.entry()
	require.NoError(t, d.err)
	assert.Empty(t, d.b, "every byte is decoded")
	assert.Empty(t, zeroFields("Entry.Ext", reflect.ValueOf(got.Ext)), "Full sets every field")
	same(t, e, got)
}

// BenchmarkCodecExtensions encodes and decodes an entry with extension
// data: three images, a video and ten hreflang alternates.
func BenchmarkCodecExtensions(b *testing.B) {
	pub, _ := formats.ParseLastMod("2024-05-06T07:08:09+02:00")
	x := &formats.Extensions{Videos: []formats.Video{{ThumbnailLoc: "https://img.example.com/t.jpg", Title: "A video",
		Description: "What it shows", ContentLoc: "https://www.example.com/v.mp4", Duration: 600, PublicationDate: pub,
		Tags: []string{"a", "b", "c"}, FamilyFriendly: "yes", TVShow: &formats.TVShow{ShowTitle: "Show", VideoType: "full", SeasonNumber: 2}}}}
	for i := range 3 {
		x.Images = append(x.Images, formats.Image{Loc: fmt.Sprintf("https://img.example.com/%d.jpg", i)})
	}
	for _, l := range []string{"en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "x-default"} {
		x.Alternates = append(x.Alternates, formats.Alternate{Hreflang: l, Href: "https://www.example.com/" + l + "/articles/1"})
	}
	e := formats.Entry{Loc: "https://www.example.com/en/articles/1", Ext: x}
	b.ReportAllocs()
	var buf []byte
	var d decoder
	for b.Loop() {
		buf = appendEntry(buf[:0], &e)
		d.b = buf
		if d.entry(); d.err != nil {
			b.Fatal(d.err)
		}
	}
}

// NextRaw gives each record as Encode writes it, which Decoder reads back
// as NextInto does; EncodedLoc and EncodedTime find its loc and lastmod.
func TestNextRaw(t *testing.T) {
	s, err := New(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	want := entries(t)
	var encoded []byte
	for i := range want {
		r := Record{Hash: uint64(i), Input: i, Entry: want[i]}
		_, err := s.Append(&r)
		require.NoError(t, err)
		encoded = Encode(encoded, &r)
	}
	sc, err := s.Scan()
	require.NoError(t, err)
	var d Decoder
	for i := range want {
		rec, err := sc.NextRaw()
		require.NoError(t, err)
		n := EncodedLen(encoded)
		require.Equal(t, encoded[:n], rec, "record %d as Encode wrote it", i)
		encoded = encoded[n:]
		var r Record
		_, err = d.Decode(rec, &r)
		require.NoError(t, err)
		same(t, want[i], r.Entry)
		at, length := EncodedLoc(rec)
		assert.Equal(t, want[i].Loc, string(rec[at:at+length]))
		sec, nsec, ok := EncodedTime(rec, at+length)
		assert.Equal(t, !want[i].LastMod.IsZero(), ok, "record %d", i)
		if ok {
			assert.Equal(t, want[i].LastMod.Time().Unix(), sec)
			assert.Equal(t, uint64(want[i].LastMod.Time().Nanosecond()), nsec)
		}
	}
	_, err = sc.NextRaw()
	assert.Equal(t, io.EOF, err)
}

// ReadEncoded gives the bytes AppendEncoded wrote, from the file, from the
// buffer not yet written, and across the two; it refuses ranges past the
// end.
func TestReadEncoded(t *testing.T) {
	sp, err := NewSize(t.TempDir(), 256)
	require.NoError(t, err)
	defer sp.Close()
	var all []byte
	var offs []int64
	for i := range 40 {
		rec := Encode(nil, &Record{Input: i, Entry: formats.Entry{Loc: fmt.Sprintf("https://e.example/%d%s", i, strings.Repeat("x", i%9*7))}})
		off, err := sp.AppendEncoded(rec)
		require.NoError(t, err)
		require.Equal(t, int64(len(all)), off)
		offs = append(offs, off)
		all = append(all, rec...)
	}
	offs = append(offs, sp.Size())
	require.Positive(t, sp.flushed, "some in the file")
	require.NotEmpty(t, sp.buf, "some in the buffer")
	for i := range offs {
		for j := i; j < len(offs); j++ {
			got, err := sp.ReadEncoded([]byte("head"), offs[i], offs[j])
			require.NoError(t, err)
			require.Equal(t, "head"+string(all[offs[i]:offs[j]]), string(got), "from %d to %d", offs[i], offs[j])
		}
	}
	_, err = sp.ReadEncoded(nil, 0, sp.Size()+1)
	require.Error(t, err)
	_, err = sp.ReadEncoded(nil, 5, 4)
	require.Error(t, err)
}
