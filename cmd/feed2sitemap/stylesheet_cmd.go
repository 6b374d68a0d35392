package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/output"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

// stylesheetCmd writes the default XSL stylesheet.
type stylesheetCmd struct {
	Output  string `short:"o" placeholder:"FILE" help:"Write the stylesheet to FILE, replacing it atomically (through a symbolic link), instead of standard output."`
	DataURL bool   `name:"data-url" help:"Write the stylesheet as a data: URL (about 13 KB) to give to --stylesheet, which then carries it in every sitemap: no file to serve, no other host, and it works from file:// too."`
}

// Run writes the stylesheet.
func (c *stylesheetCmd) Run(e *env) error {
	b := stylesheet.Default()
	if c.DataURL {
		b = []byte(stylesheet.DataURL() + "\n")
	}
	if !isStdout(c.Output) {
		if err := checkOutput("-o", c.Output); err != nil {
			return err
		}
		return atomicfile.WriteFile(c.Output, b, 0o644)
	}
	_, err := e.Stdout.Write(b)
	return err
}

// xslNamespace is the namespace of XSLT elements.
const xslNamespace = "http://www.w3.org/1999/XSL/Transform"

// checkStylesheet checks the URL --stylesheet names, for sitemaps served
// under base (nil without --base-url): an http(s) URL or a path on the
// sitemap's own origin, since browsers refuse a stylesheet from another
// and show a blank page, or a data: URL of an XSL stylesheet.
func checkStylesheet(href string, base *url.URL) error {
	u, err := url.Parse(href)
	if err == nil && strings.EqualFold(u.Scheme, "data") {
		mt, _, _ := strings.Cut(strings.TrimPrefix(href[len("data:"):], " "), ",")
		mt, _, _ = strings.Cut(strings.ToLower(mt), ";")
		switch mt {
		case "text/xsl", "application/xslt+xml", "text/xml", "application/xml":
			return nil
		}
		return usageError{fmt.Errorf("--stylesheet %s: a data: URL of type %q cannot be an XSL stylesheet "+
			"(feed2sitemap stylesheet --data-url writes the default one as a data: URL)", shortHref(href), mt)}
	}
	if err != nil || u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return usageError{fmt.Errorf("--stylesheet %q: not an http(s) URL, a path or a data: URL", shortHref(href))}
	}
	if b := base; u.IsAbs() && b != nil && (!strings.EqualFold(u.Scheme, b.Scheme) || !strings.EqualFold(u.Host, b.Host)) {
		return usageError{fmt.Errorf("--stylesheet %s: browsers load a sitemap's stylesheet only from the sitemap's own origin (%s://%s), "+
			"and show a blank page otherwise: serve it there (feed2sitemap stylesheet writes one) and give its path", href, b.Scheme, b.Host)}
	}
	return nil
}

// shortHref returns href as a message shows it: a long data: URL cut.
func shortHref(href string) string {
	if len(href) > 60 {
		return href[:50] + "…"
	}
	return href
}

// notXSL are the extensions of files that cannot be an XSL stylesheet.
var notXSL = []string{".css", ".htm", ".html", ".js", ".json", ".txt", ".gz"}

// stylesheetWarnings returns what may keep browsers from showing the
// sitemap written to sitemap (a path), served under base, through the
// stylesheet href, all of which gives a blank page: a name no stylesheet
// has, or, when the stylesheet is served from the sitemap's folder (base
// and sitemap say where that is), no file there or one that is not an XSL
// stylesheet.
func stylesheetWarnings(href string, base *url.URL, sitemap string) []string {
	u, err := url.Parse(href)
	if err != nil || u.Scheme == "data" || href == "" {
		return nil
	}
	ext := strings.ToLower(path.Ext(u.Path))
	for _, x := range notXSL {
		if ext == x {
			return []string{fmt.Sprintf("--stylesheet %s: a %s file cannot be an XSL stylesheet, and browsers show a blank page "+
				"(feed2sitemap stylesheet writes one)", href, x)}
		}
	}
	if base == nil || sitemap == "" {
		return nil
	}
	loc, err := output.FileURL(base, filepath.Base(sitemap))
	if err != nil {
		return nil
	}
	page, err := url.Parse(loc)
	if err != nil {
		return nil
	}
	target := page.ResolveReference(u)
	dir := page.Path[:strings.LastIndexByte(page.Path, '/')+1]
	rel, under := strings.CutPrefix(target.Path, dir)
	if !strings.EqualFold(target.Host, page.Host) || !under || rel == "" || strings.HasSuffix(rel, "/") {
		return nil // served from elsewhere: nothing to check here
	}
	file := filepath.Join(filepath.Dir(sitemap), filepath.FromSlash(rel))
	blank := fmt.Sprintf("browsers show a blank page instead of %s until %s is an XSL stylesheet", filepath.Base(sitemap), target)
	if file == filepath.Clean(sitemap) {
		return []string{fmt.Sprintf("--stylesheet %s names the sitemap itself: %s", href, blank)}
	}
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return []string{fmt.Sprintf("--stylesheet %s: %s does not exist yet; %s (feed2sitemap stylesheet -o %s writes the default one)",
			href, file, blank, file)}
	}
	if err != nil {
		return nil
	}
	defer f.Close()
	if why := notStylesheet(f); why != "" {
		return []string{fmt.Sprintf("--stylesheet %s: %s %s; %s (feed2sitemap stylesheet -o %s writes the default one)",
			href, file, why, blank, file)}
	}
	return nil
}

// notStylesheet returns why the document r is not an XSL stylesheet, or
// "" when its root element is xsl:stylesheet or xsl:transform, or a
// literal result element with xsl:version (a simplified stylesheet).
func notStylesheet(r io.Reader) string {
	d := xml.NewDecoder(io.LimitReader(r, 1<<20))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err != nil {
			line, _ := d.InputPos()
			if err == io.EOF {
				return "holds no complete XML element"
			}
			return fmt.Sprintf("is not well-formed XML (line %d: %v)", line, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Space == xslNamespace && (se.Name.Local == "stylesheet" || se.Name.Local == "transform") {
			return ""
		}
		for _, a := range se.Attr {
			if a.Name.Space == xslNamespace && a.Name.Local == "version" {
				return ""
			}
		}
		return fmt.Sprintf("is not an XSL stylesheet (its root element is <%s>, not xsl:stylesheet)", se.Name.Local)
	}
}
