package csv

import (
	stdcsv "encoding/csv"
	"regexp"
	"strings"
)

// urlNames are the header names of a column of URLs, normalized (see
// normalize): the sitemap's own, a crawler's (Screaming Frog's Address),
// Search Console's (Top pages, Page, Landing page) and a spreadsheet's.
var urlNames = []string{"loc", "url", "urls", "address", "page", "pages", "top pages", "landing page",
	"landing pages", "page url", "url address", "link", "permalink", "location", "uri", "href"}

// dateNames are the header names of a column of last modification dates,
// normalized.
var dateNames = []string{"lastmod", "last modified", "lastmodified", "modified", "date modified",
	"modified date", "last mod", "last updated", "updated", "updated at", "last update", "date"}

// titleNames, changeFreqNames and priorityNames name the columns of the
// other fields an entry may take, normalized.
var (
	titleNames      = []string{"title", "title 1", "page title"}
	changeFreqNames = []string{"changefreq", "change frequency"}
	priorityNames   = []string{"priority"}
)

// exportNames are the other column names of the exports the format is for
// (Screaming Frog's, Search Console's), normalized: a header row that has
// one is recognized even when its URL column goes by another name.
var exportNames = []string{"status", "status code", "content type", "indexability", "indexability status",
	"clicks", "impressions", "ctr", "position", "word count", "crawl depth", "inlinks", "h1 1",
	"meta description 1", "canonical link element 1", "response time", "size (bytes)"}

// maxHeaderCell is the longest a header cell may be, in bytes: a header
// names its columns in a few words.
const maxHeaderCell = 100

// fieldLine matches a line that starts like a robots.txt field ("Name:
// value"), which a header row never does.
var fieldLine = regexp.MustCompile(`^\s*[A-Za-z-]+\s*:`)

// normalize returns a header cell as the name lists hold it: without a
// byte order mark or surrounding space, in lower case, with '_' and '-'
// as spaces and runs of space as one.
func normalize(cell string) string {
	cell = strings.TrimPrefix(cell, "\ufeff")
	cell = strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return ' '
		}
		return r
	}, strings.ToLower(cell))
	return strings.Join(strings.Fields(cell), " ")
}

// column returns the index of the first cell whose name is one of names,
// or -1.
func column(header []string, names []string) int {
	for i, cell := range header {
		n := normalize(cell)
		for _, name := range names {
			if n == name {
				return i
			}
		}
	}
	return -1
}

// delimiter returns the delimiter of a header line: the one of tab, ';'
// and ',' it holds most of outside double quotes (tab first, then ';', on
// a tie), and false when it holds none.
func delimiter(line string) (rune, bool) {
	var tabs, semis, commas int
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case '\t':
			if !quoted {
				tabs++
			}
		case ';':
			if !quoted {
				semis++
			}
		case ',':
			if !quoted {
				commas++
			}
		}
	}
	switch {
	case tabs == 0 && semis == 0 && commas == 0:
		return ',', false
	case tabs >= semis && tabs >= commas:
		return '\t', true
	case semis >= commas:
		return ';', true
	}
	return ',', true
}

// isHeader reports whether line, the first line of text that is neither
// blank nor a '#' comment, is the header row of a CSV or TSV export: two
// or more cells separated by a delimiter, or one alone that names a URL
// column; no cell a URL or over maxHeaderCell bytes; at least one cell a
// column name of the vocabulary above; and not a line that starts like a
// robots.txt field.
func isHeader(line string) bool {
	comma, multi := delimiter(line)
	if fieldLine.MatchString(line) {
		return false
	}
	r := stdcsv.NewReader(strings.NewReader(line))
	r.Comma, r.LazyQuotes = comma, true
	cells, err := r.Read()
	if err != nil || len(cells) == 0 {
		return false
	}
	if !multi || len(cells) == 1 {
		return len(cells) == 1 && column(cells, urlNames) == 0
	}
	for _, cell := range cells {
		if strings.Contains(cell, "://") || len(cell) > maxHeaderCell {
			return false
		}
	}
	for _, names := range [][]string{urlNames, dateNames, titleNames, changeFreqNames, priorityNames, exportNames} {
		if column(cells, names) >= 0 {
			return true
		}
	}
	return false
}
