// Command gen writes deterministic benchmark inputs for bench/compare.sh:
// a text URL list, an XML sitemap with lastmod, changefreq and priority, or
// an RSS 2.0 feed. The same flags always give the same bytes.
//
//	go run ./bench/gen -kind text -n 1000000 -dup 0.03 -o urls.txt
//
// Every entry's URL is a pure function of its number (and embeds it), so URLs
// are unique except for the duplicates, which repeat an earlier entry's URL.
// On success it prints "entries=N unique=U" on standard output (on standard
// error when the data goes to standard output).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"html"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

var words = strings.Fields(`sitemap feed cache index search archive release
	notes guide garden coffee bicycle travel winter summer recipe bread
	kitchen camera review budget city river mountain music report market
	design update tips history data server network privacy school science
	health family energy ocean forest library museum theatre football`)

var sections = []string{"blog", "products", "docs", "tags", "search", "news", "recipes", "user"}

// pick returns a random element of s.
func pick(r *rand.Rand, s []string) string { return s[r.IntN(len(s))] }

// slug joins between lo and hi random words with hyphens.
func slug(r *rand.Rand, lo, hi int) string { return phrase(r, lo, hi, "-") }

// phrase joins between lo and hi random words with sep.
func phrase(r *rand.Rand, lo, hi int, sep string) string {
	n := lo + r.IntN(hi-lo+1)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pick(r, words)
	}
	return strings.Join(parts, sep)
}

// loc returns the URL of entry id under host: a path of varying length,
// some with a query string (with &), a few with non-ASCII characters.
func loc(host string, id int) string {
	r := rand.New(rand.NewPCG(uint64(id), 0x5eed))
	switch s := pick(r, sections); s {
	case "blog", "news":
		return fmt.Sprintf("%s/%s/%d/%02d/%s-%d/", host, s, 2010+r.IntN(17), 1+r.IntN(12), slug(r, 2, 9), id)
	case "products":
		if r.IntN(4) == 0 {
			return fmt.Sprintf("%s/products/%s/?page=%d&sort=%s&id=%d", host, pick(r, words), 1+r.IntN(40), pick(r, []string{"price", "name", "new"}), id)
		}
		return fmt.Sprintf("%s/products/%s/%s-p%d", host, pick(r, words), slug(r, 1, 4), id)
	case "docs":
		return fmt.Sprintf("%s/docs/%s/%s/%s-%d.html", host, pick(r, words), pick(r, words), slug(r, 1, 3), id)
	case "tags":
		return fmt.Sprintf("%s/tags/%s/page/%d/", host, pick(r, words), id)
	case "search":
		return fmt.Sprintf("%s/search?q=%s+%s&lang=en&p=%d", host, pick(r, words), pick(r, words), id)
	case "recipes":
		if r.IntN(10) == 0 {
			return fmt.Sprintf("%s/recipes/café-crème-%s-%d/", host, pick(r, words), id)
		}
		return fmt.Sprintf("%s/recipes/%s-%d/", host, slug(r, 2, 5), id)
	default:
		return fmt.Sprintf("%s/user/%s%d", host, pick(r, words), id)
	}
}

func main() {
	kind := flag.String("kind", "text", "what to write: text, xml or rss")
	n := flag.Int("n", 1000, "number of entries")
	dup := flag.Float64("dup", 0, "share of entries that repeat an earlier entry's URL")
	host := flag.String("host", "https://www.example.com", "scheme and host of every URL")
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Parse()
	if err := run(*kind, *n, *dup, *host, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(kind string, n int, dup float64, host, out string) error {
	f := os.Stdout
	if out != "" {
		var err error
		if f, err = os.Create(out); err != nil {
			return err
		}
		defer f.Close()
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	unique := 0

	switch kind {
	case "text":
	case "xml":
		fmt.Fprint(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
	case "rss":
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\">\n<channel>\n"+
			"<title>Example news</title>\n<link>%s/</link>\n<description>Everything new at example.com</description>\n"+
			"<lastBuildDate>%s</lastBuildDate>\n", host, base.Format(time.RFC1123Z))
	default:
		return fmt.Errorf("unknown -kind %q (text, xml or rss)", kind)
	}

	ids := make([]int32, n) // the URL number each entry wrote
	for i := range n {
		id := i
		if i > 0 && r.Float64() < dup {
			id = int(ids[r.IntN(i)]) // an earlier entry's URL again
		} else {
			unique++
		}
		ids[i] = int32(id)
		u := loc(host, id)
		when := base.Add(-time.Duration(r.IntN(5*365*24*3600)) * time.Second)
		switch kind {
		case "text":
			fmt.Fprintln(w, u)
		case "xml":
			mod := when.Format("2006-01-02")
			if r.IntN(2) == 0 {
				mod = when.Format(time.RFC3339)
			}
			fmt.Fprintf(w, "  <url>\n    <loc>%s</loc>\n    <lastmod>%s</lastmod>\n    <changefreq>%s</changefreq>\n    <priority>%.1f</priority>\n  </url>\n",
				html.EscapeString(u), mod, pick(r, []string{"daily", "weekly", "monthly", "yearly"}), float64(r.IntN(11))/10)
		case "rss":
			title := phrase(r, 3, 10, " ")
			desc := fmt.Sprintf("<p>%s. %s, and <em>%s</em>.</p>", phrase(r, 10, 30, " "), phrase(r, 5, 20, " "), phrase(r, 5, 20, " "))
			fmt.Fprintf(w, "<item>\n<title>%s</title>\n<link>%s</link>\n<guid isPermaLink=\"true\">%s</guid>\n<pubDate>%s</pubDate>\n<description>%s</description>\n</item>\n",
				html.EscapeString(strings.ToUpper(title[:1])+title[1:]), html.EscapeString(u), html.EscapeString(u), when.Format(time.RFC1123Z), html.EscapeString(desc))
		}
	}

	switch kind {
	case "xml":
		fmt.Fprint(w, "</urlset>\n")
	case "rss":
		fmt.Fprint(w, "</channel>\n</rss>\n")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if out != "" {
		if err := f.Close(); err != nil {
			return err
		}
	}
	stats := os.Stdout
	if out == "" {
		stats = os.Stderr // standard output holds the data
	}
	fmt.Fprintf(stats, "entries=%d unique=%d\n", n, unique)
	return nil
}
