package formats_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// TestUndeclaredWindows1252Input reads files from older CMSs in windows-1252
// that declare no encoding (an RSS feed whose XML declaration has none, a
// URL list): their letters read as windows-1252, with one warning, and no
// U+FFFD (%EF%BF%BD) reaches a loc or a title.
func TestUndeclaredWindows1252Input(t *testing.T) {
	for _, tt := range []struct {
		file   string
		locs   []string
		titles []string
	}{
		{"rss_windows1252_undeclared.rss", []string{
			"http://www.cafe-gare.example/actualit%C3%A9s/menu-%C3%A9t%C3%A9.html",
			"http://www.cafe-gare.example/actualit%C3%A9s/fermeture.html?jour=lundi&mois=ao%C3%BBt",
		}, []string{"Menu d’été : crème brûlée à 5 €", "Fermeture exceptionnelle — lundi"}},
		{"urls_windows1252_undeclared.txt", []string{
			"https://www.muenchen.example/stra%C3%9Fe/%C3%BCber-uns",
			"https://www.muenchen.example/caf%C3%A9",
		}, nil},
	} {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			require.NoError(t, err)
			var warnings []string
			r, _, err := formats.Open(strings.NewReader(string(data)), formats.OpenOptions{ReadOptions: formats.ReadOptions{
				Source: tt.file, Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) },
			}})
			require.NoError(t, err)
			var locs, titles []string
			for e, err := range formats.All(r) {
				require.NoError(t, err)
				locs = append(locs, e.Loc)
				if e.Title != "" {
					titles = append(titles, e.Title)
				}
				assert.NotContains(t, e.Loc, "%EF%BF%BD")
				assert.NotContains(t, e.Title, "\uFFFD")
			}
			assert.Equal(t, tt.locs, locs)
			assert.Equal(t, tt.titles, titles)
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], "not UTF-8 and no encoding declared: read as windows-1252")

			// Strict mode refuses the guess.
			r, _, err = formats.Open(strings.NewReader(string(data)), formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: tt.file, Strict: true}})
			if err == nil {
				for _, err = range formats.All(r) {
					if err != nil {
						break
					}
				}
			}
			assert.ErrorContains(t, err, "windows-1252")
		})
	}
}

// TestReplacementCharacterNeverInLoc: where the input declares its
// encoding and a byte is no text in it, decoding leaves U+FFFD; a URL
// holding it is skipped with a warning rather than written with
// %EF%BF%BD, which names another page.
func TestReplacementCharacterNeverInLoc(t *testing.T) {
	for name, in := range map[string]string{
		"declared UTF-8 feed": `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>t</title>` +
			"<item><title>a</title><link>https://a.example/caf\xe9</link></item><item><title>b</title><link>https://a.example/ok</link></item></channel></rss>",
		"byte order mark, URL list": "\xEF\xBB\xBFhttps://a.example/caf\xe9\nhttps://a.example/ok\n",
		"declared windows-1252, undefined byte": `<?xml version="1.0" encoding="windows-1252"?><rss version="2.0"><channel><title>t</title>` +
			"<item><title>a</title><link>https://a.example/x\x81</link></item><item><title>b</title><link>https://a.example/ok</link></item></channel></rss>",
	} {
		t.Run(name, func(t *testing.T) {
			var warnings []string
			locs, _, err := readAll(t, []byte(in), formats.OpenOptions{ReadOptions: formats.ReadOptions{
				Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}})
			require.NoError(t, err)
			assert.Equal(t, []string{"https://a.example/ok"}, locs)
			assert.Contains(t, strings.Join(warnings, "\n"), "U+FFFD in the URL")
		})
	}
}
