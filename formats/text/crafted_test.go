package text_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
	"github.com/feed2sitemap/feed2sitemap/internal/textlines"
)

// fill repeats unit after head until size bytes.
func fill(head, unit string, size int) []byte {
	return []byte(head + strings.Repeat(unit, (size-len(head))/len(unit)))
}

// openAll reads data through formats.Open, detection and text cleaning
// included, to its end.
func openAll(data []byte) error {
	r, _, err := formats.Open(bytes.NewReader(data), formats.OpenOptions{})
	if err != nil {
		return nil // a refusal is a result
	}
	for {
		if _, err := r.Next(); err != nil {
			return nil
		}
	}
}

// TestCraftedLinesReadInLinearTime holds the text and robots.txt readers
// to linear time and bounded memory on crafted line inputs: lines over the
// length limit, one line as long as the input, empty and CR-only lines.
func TestCraftedLinesReadInLinearTime(t *testing.T) {
	const size = 2 << 20
	const url = "https://example.com/some/page/number/1234\n"
	long := strings.Repeat("a", 3*textlines.MaxLength)
	b := crafted.Bounds{Time: 10, Peak: 8, Floor: 32 << 20, Slack: 20 * time.Millisecond}
	crafted.Compare(t, fill("", url, size), []crafted.Input{
		{Name: "text: long lines", Data: fill(url, "https://example.com/"+long+"\n", size)},
		{Name: "text: one line", Data: fill(url, "a", size)},
		{Name: "text: empty lines", Data: fill(url, "\n", size)},
		{Name: "text: CR line ends", Data: fill(url, strings.TrimSuffix(url, "\n")+"\r", size)},
		{Name: "text: blank lines", Data: fill(url, "   \t  \r\n", size)},
		{Name: "text: control characters between URLs", Data: fill(url, "https://a.com/\v", size)},
	}, b, openAll)
	const robots = "User-agent: *\n"
	crafted.Compare(t, fill(robots, "Disallow: /private/page/1234\n", size), []crafted.Input{
		{Name: "robots: sitemap lines", Data: fill(robots, "Sitemap: https://example.com/sitemap.xml\n", size)},
		{Name: "robots: long lines", Data: fill(robots, "Sitemap: https://example.com/"+long+"\n", size)},
		{Name: "robots: one line", Data: fill(robots, "a", size)},
		{Name: "robots: comments", Data: fill(robots, "# a comment\n", size)},
		{Name: "robots: CR line ends", Data: fill(robots, "Disallow: /p\r", size)},
	}, b, openAll)
}
