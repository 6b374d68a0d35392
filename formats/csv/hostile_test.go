package csv_test

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/csv"
)

// readAll reads in with the CSV reader, and returns the entries, the
// warnings, and the error that ended it (nil at io.EOF).
func readAll(t *testing.T, in string) ([]formats.Entry, []*formats.ParseError, error) {
	t.Helper()
	var warned []*formats.ParseError
	var entries []formats.Entry
	n, err, _ := count(in, func(e formats.Entry) { entries = append(entries, e) },
		func(pe *formats.ParseError) { warned = append(warned, pe) })
	require.Len(t, entries, n)
	return entries, warned, err
}

// count reads in with the CSV reader, passing each entry and warning on,
// and returns how many entries it gave, the error that ended it (nil at
// io.EOF), and the bytes the reading allocated in all.
func count(in string, entry func(formats.Entry), warn func(*formats.ParseError)) (int, error, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := csv.NewReader(strings.NewReader(in), formats.ReadOptions{Source: "h.csv", Warn: warn})
	n := 0
	var err error
	for {
		var e formats.Entry
		if e, err = r.Next(); err != nil {
			break
		}
		entry(e)
		n++
	}
	runtime.ReadMemStats(&after)
	if err == io.EOF {
		err = nil
	}
	return n, err, after.TotalAlloc - before.TotalAlloc
}

func TestHostile(t *testing.T) {
	const big = 16 << 20
	for name, c := range map[string]struct {
		in      string
		entries int
		err     string
	}{
		"huge field": {"url,title\nhttps://a.example/1,x\nhttps://a.example/2," + strings.Repeat("x", big) + "\nhttps://a.example/3,y\n",
			1, "h.csv:3: a record longer than 256 KiB (a quote left open?): reading stopped"},
		"unbalanced quote": {"url,title\nhttps://a.example/1,\"open\nhttps://a.example/2,x\n" + strings.Repeat("https://a.example/n,x\n", big/22),
			0, "h.csv:2: a record longer than 256 KiB"},
		"millions of delimiters in the header": {"url" + strings.Repeat(",", big) + "\nhttps://a.example/1\n",
			0, "h.csv:1: a record longer than 256 KiB"},
		"many delimiters in rows": {"url,title\n" + strings.Repeat("https://a.example/1"+strings.Repeat(",", 100000)+"\n", 200),
			200, ""},
		"millions of rows":     {"url\n" + strings.Repeat("https://a.example/1\n", 1000000), 1000000, ""},
		"millions of bad rows": {"url,title\n" + strings.Repeat("a\"b,c\n", 1000000) + "https://a.example/1,x\n", 1, ""},
		"quotes in quotes":     {"url,title\n" + strings.Repeat(`"https://a.example/1",""""""""""""""""""""""""""""""""""""""""""""""""""`+"\n", 100000), 100000, ""},
		"blank lines":          {"url\n" + strings.Repeat("\r\n"+strings.Repeat("\n", 1000)+"https://a.example/1\n", 10000), 10000, ""},
		// encoding/csv skips blank lines inside its Read: they count
		// toward the record that follows them.
		"a run of blank lines": {"url\n" + strings.Repeat("\r\n", big/2) + "https://a.example/1\n", 0, "h.csv:2: a record longer than 256 KiB"},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			warnings := 0
			n, err, alloc := count(c.in, func(formats.Entry) {}, func(*formats.ParseError) { warnings++ })
			if c.err == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
			}
			assert.Equal(t, c.entries, n)
			assert.Less(t, time.Since(start), 30*time.Second)
			// What is allocated in all is in proportion to the rows, never
			// to the input's size: a record is held once, at most
			// MaxRecordLength bytes of it (which encoding/csv may split
			// into as many fields, some 150 bytes each).
			assert.Less(t, alloc, uint64(n+warnings)*1024+150*csv.MaxRecordLength, "allocated %d MiB", alloc>>20)
		})
	}
}

func TestEmptyAndHeaderOnly(t *testing.T) {
	for _, in := range []string{"", "url,lastmod\n", "url,lastmod", "\n\n# nothing\n"} {
		entries, warned, err := readAll(t, in)
		assert.NoError(t, err, "%q", in)
		assert.Empty(t, entries)
		assert.Empty(t, warned)
	}
}

func TestNoURLColumn(t *testing.T) {
	// Rows are skipped, each said, until one has an absolute URL; its
	// column is then the URL column.
	entries, warned, err := readAll(t, "name,where\nhome,/\ndocs,https://a.example/docs\nmore,https://a.example/more\n")
	require.NoError(t, err)
	require.Len(t, entries, 2)
	require.Len(t, warned, 1)
	assert.Equal(t, "h.csv:2: row skipped: no column is named like a URL column (url, loc, address, page, top pages...) and no field of the row is an absolute URL", warned[0].Error())
}

func TestShortRow(t *testing.T) {
	entries, warned, err := readAll(t, "title,url\nonly a title\nA,https://a.example/\n")
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Len(t, warned, 1)
	assert.Equal(t, `h.csv:2: row skipped: 1 fields, no column "url" (field 2)`, warned[0].Error())
}
