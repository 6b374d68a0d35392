package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/net/html"
)

// Page is a document a test server serves.
type Page struct {
	Type string // the Content-Type
	Body []byte
}

// Serve starts a loopback server for the test that serves pages by path,
// 404 for any other, and the frame page Layout measures through.
func Serve(t testing.TB, pages map[string]Page) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == framePath {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(framePage(r.URL.Query())))
			return
		}
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", p.Type)
		w.Write(p.Body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// framePath is the frame page of a server Serve starts.
const framePath = "/.headless-frame"

// framePage returns a page that shows q's src in a frame q's width by
// height pixels and, once it has loaded, writes what Layout returns into
// its own <pre id="layout"> as JSON, for --dump-dom to read: the views
// themselves run no script.
func framePage(q url.Values) string {
	w, _ := strconv.Atoi(q.Get("width"))
	h, _ := strconv.Atoi(q.Get("height"))
	return fmt.Sprintf(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body { margin: 0 }</style>
<script>
function measure(f) {
  var d = f.contentDocument, root = d.documentElement, width = root ? root.clientWidth : 0, over = [];
  var all = d.querySelectorAll('*');
  for (var i = 0; i < all.length; i++) {
    var r = all[i].getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) {
      over.push(all[i].tagName.toLowerCase() + (all[i].className ? '.' + all[i].className : '') + ' right edge at ' + Math.round(r.right) + 'px');
    }
  }
  document.getElementById('layout').textContent = JSON.stringify({
    Width: width, ScrollWidth: root ? root.scrollWidth : 0, Overflow: over.slice(0, 10),
    Text: d.body ? d.body.innerText : ''});
}
</script></head>
<body><iframe style="border: 0; width: %dpx; height: %dpx" onload="measure(this)" src="%s"></iframe>
<pre id="layout"></pre></body></html>
`, w, h, html.EscapeString(q.Get("src")))
}

// Layout is how a page is laid out at a width, and what it looks like.
type Layout struct {
	Width       int         // the width of the page's viewport, in CSS pixels
	ScrollWidth int         // the width of its content; more than Width when it scrolls sideways
	Overflow    []string    // up to ten elements that reach past the right edge
	Text        string      // the text the page shows (innerText)
	Shot        image.Image // a screenshot of the window
}

// Layout loads path from srv (started by Serve) in a window width by
// height pixels, in a frame that fills it, and returns how it is laid out
// and a screenshot, from one run of the browser.
func (b *Browser) Layout(t testing.TB, srv *httptest.Server, path string, width, height int, flags ...string) Layout {
	t.Helper()
	q := url.Values{"src": {path}, "width": {strconv.Itoa(width)}, "height": {strconv.Itoa(height)}}
	dom, shot := b.Render(t, srv.URL+framePath+"?"+q.Encode(), width, height, append([]string{"--virtual-time-budget=10000"}, flags...)...)
	doc, err := html.Parse(bytes.NewReader(dom))
	if err != nil {
		t.Fatalf("layout of %s: %v", path, err)
	}
	pre := ByID(doc, "layout")
	var l Layout
	if pre == nil || pre.FirstChild == nil {
		t.Fatalf("layout of %s: the frame page measured nothing; its DOM:\n%s", path, dom)
	}
	if err := json.Unmarshal([]byte(pre.FirstChild.Data), &l); err != nil {
		t.Fatalf("layout of %s: %v", path, err)
	}
	l.Shot = shot
	return l
}

// Ink returns the share of img's pixels that differ from its most common
// colour, the background: 0 for a blank page.
func Ink(img image.Image) float64 {
	counts := map[[4]uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			counts[[4]uint32{r, g, bl, a}]++
		}
	}
	most, total := 0, b.Dx()*b.Dy()
	for _, n := range counts {
		most = max(most, n)
	}
	if total == 0 {
		return 0
	}
	return float64(total-most) / float64(total)
}

// ByID returns the element of the tree n whose id is id, or nil.
func ByID(n *html.Node, id string) *html.Node {
	if n.Type == html.ElementNode {
		for _, a := range n.Attr {
			if a.Key == "id" && a.Val == id {
				return n
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := ByID(c, id); f != nil {
			return f
		}
	}
	return nil
}

// Keep writes img to the folder FEED2SITEMAP_SCREENSHOTS names, as
// name.png, for people to look at; without it, it does nothing.
func Keep(t testing.TB, name string, img image.Image) {
	t.Helper()
	dir := os.Getenv("FEED2SITEMAP_SCREENSHOTS")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatalf("FEED2SITEMAP_SCREENSHOTS: %v", err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatalf("FEED2SITEMAP_SCREENSHOTS: %s: %v", f.Name(), err)
	}
}
