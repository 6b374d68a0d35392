package convert_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// entryWriter keeps what is written to it.
type entryWriter struct{ entries *[]formats.Entry }

func (w entryWriter) Write(e formats.Entry) error {
	*w.entries = append(*w.entries, e)
	return nil
}

func (w entryWriter) Close() error { return nil }

// TestRunSkipTextsReachesTheReaders checks that ReadOptions.SkipTexts is
// given to the readers: a feed's entries then come without their titles
// and summaries, and with the same locs.
func TestRunSkipTextsReachesTheReaders(t *testing.T) {
	doc := []byte(`<rss version="2.0"><channel><item><title>A title</title><description>&lt;p&gt;A summary&lt;/p&gt;</description>` +
		`<link>https://a.example/1</link></item></channel></rss>`)
	for _, skip := range []bool{false, true} {
		var got []formats.Entry
		_, err := convert.Run([]convert.Input{input("feed.rss", doc)}, func(formats.WriteOptions) (formats.Writer, error) {
			return entryWriter{&got}, nil
		}, convert.Options{Read: convert.ReadOptions{SkipTexts: skip}})
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, "https://a.example/1", got[0].Loc)
		if skip {
			assert.Empty(t, got[0].Title+got[0].Summary, "SkipTexts")
		} else {
			assert.Equal(t, []string{"A title", "A summary"}, []string{got[0].Title, got[0].Summary})
		}
	}
}
