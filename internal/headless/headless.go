// Package headless runs Chromium without a screen for the tests that check
// what a browser shows of the project's views: the XSL stylesheet's table
// (package stylesheet) and the HTML page of --to html (formats/html).
//
// A test calls Find first: when Chromium is not installed the test is
// skipped, and the line package testenv prints after the tests names it
// and why; FEED2SITEMAP_CHROMIUM=1 makes a missing browser fail the test
// instead. CI does not install Chromium (its package and dependencies take
// minutes to install), so these tests run where it is installed:
// apt-get install chromium.
//
// Every run gets a new profile directory and the flags that keep Chromium
// from reaching the network on its own, and is stopped after three
// minutes (a run takes a second or two on an idle machine).
// FEED2SITEMAP_SCREENSHOTS=DIR keeps the screenshots the tests take there
// (Keep), to look at.
package headless

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// Path is where Debian's chromium package installs the browser.
const Path = "/usr/bin/chromium"

// NoXSLT is the flag that runs Chromium as a browser without XSLT, as
// Chromium is becoming: an XML document's XSL stylesheet is not applied.
const NoXSLT = "--disable-features=XSLT"

// Browser is an installed Chromium.
type Browser struct {
	path string
}

// Find returns the installed Chromium, or skips t when there is none
// (fails it when FEED2SITEMAP_CHROMIUM is 1).
func Find(t testing.TB) *Browser {
	t.Helper()
	if _, err := os.Stat(Path); err != nil {
		if os.Getenv("FEED2SITEMAP_CHROMIUM") == "1" {
			t.Fatalf("FEED2SITEMAP_CHROMIUM=1 but %s is missing: apt-get install chromium", Path)
		}
		testenv.SkipOptional(t, "needs Chromium (apt-get install chromium; FEED2SITEMAP_CHROMIUM=1 makes it required) to render the sitemap views in a headless browser")
	}
	return &Browser{path: Path}
}

// run runs Chromium on url with the flags given, and returns its standard
// output. The banner Chromium lays over pages that use XSLT, announcing
// its removal, is turned off, so that it neither hides nor fills a
// screenshot.
func (b *Browser) run(t testing.TB, url string, flags ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}
	disabled := "GenerateXSLTWarningBanner"
	for _, f := range flags {
		if v, ok := strings.CutPrefix(f, "--disable-features="); ok {
			disabled += "," + v
			continue
		}
		args = append(args, f)
	}
	args = append(args, "--disable-features="+disabled, url)
	cmd := exec.CommandContext(ctx, b.path, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", url, err, noise.ReplaceAll(stderr.Bytes(), nil))
	}
	return out
}

// noise are the lines Chromium prints on every run in a container, about
// the D-Bus it has no use for headless, and the launcher script's.
var noise = regexp.MustCompile(`(?m)^(\[[^\n]*(dbus|Fontconfig)[^\n]*|/usr/bin/chromium: [^\n]*)\n`)

// DumpDOM returns the DOM Chromium builds for url, serialized as HTML
// (empty when the document has no element).
func (b *Browser) DumpDOM(t testing.TB, url string, flags ...string) []byte {
	t.Helper()
	return b.run(t, url, append([]string{"--dump-dom"}, flags...)...)
}

// Render loads url in a window width by height CSS pixels and returns
// its DOM, as DumpDOM does, and a screenshot, from one run.
func (b *Browser) Render(t testing.TB, url string, width, height int, flags ...string) ([]byte, image.Image) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "shot.png")
	dom := b.run(t, url, append([]string{"--dump-dom", "--window-size=" + strconv.Itoa(width) + "," + strconv.Itoa(height),
		"--screenshot=" + file}, flags...)...)
	return dom, decodePNG(t, file)
}

// decodePNG returns the image of the screenshot Chromium wrote to file.
func decodePNG(t testing.TB, file string) image.Image {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatalf("chromium wrote no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", file, err)
	}
	return img
}
