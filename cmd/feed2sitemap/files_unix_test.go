//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/filelock"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

// requireLink checks that link is still a symbolic link, to target.
func requireLink(t *testing.T, link, target string) {
	t.Helper()
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode().Type(), "%s stays a link", link)
	dest, err := os.Readlink(link)
	require.NoError(t, err)
	require.Equal(t, target, dest)
}

// TestEveryCommandWritesThroughLinks gives every file flag of every
// command a symbolic link to a file elsewhere (a deployed
// public/sitemap.xml -> /srv/...): the link stays a link and the file it
// points at gets the content; a split set's parts go beside the link.
func TestEveryCommandWritesThroughLinks(t *testing.T) {
	public, srv := t.TempDir(), t.TempDir()
	link := func(name string) (string, string) {
		real := filepath.Join(srv, name)
		require.NoError(t, os.WriteFile(real, nil, 0o644))
		l := filepath.Join(public, name)
		require.NoError(t, os.Symlink(real, l))
		return l, real
	}
	in := filepath.Join(t.TempDir(), "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte(generation("p", 25)), 0o644))

	out, outReal := link("sitemap.xml")
	report, reportReal := link("report.json")
	for _, args := range [][]string{
		{in, "-o", out, "--report", report},
		{in, "-o", out, "--max-urls", "10", "--base-url", "https://a.example/"},
		{"-", "-o", out, "--accumulate", "--max-urls", "10", "--base-url", "https://a.example/"},
	} {
		_, errOut, status := runCLI(t, strings.NewReader(generation("new", 1)), append(args, "-q")...)
		require.Equal(t, exitOK, status, "%v: %s", args, errOut)
		requireLink(t, out, outReal)
	}
	requireLink(t, report, reportReal)
	b, err := os.ReadFile(reportReal)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"totals"`)
	assert.Len(t, locsOf(readAll(t, public, out)), 26, "the accumulated set, read through the link")
	parts, err := filepath.Glob(filepath.Join(public, "sitemap-*.xml"))
	require.NoError(t, err)
	assert.Len(t, parts, 3, "the parts are beside the link")

	robots, robotsReal := link("robots.txt")
	require.NoError(t, os.WriteFile(robotsReal, []byte("User-agent: *\nDisallow:\n"), 0o644))
	_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", robots, out)
	require.Equal(t, exitOK, status, errOut)
	requireLink(t, robots, robotsReal)
	b, err = os.ReadFile(robotsReal)
	require.NoError(t, err)
	assert.Equal(t, "User-agent: *\nDisallow:\n\nSitemap: https://a.example/sitemap.xml\n", string(b))

	lines, linesReal := link("lines.txt")
	_, errOut, status = runCLI(t, nil, "robots", "--base-url", "https://a.example/", "-o", lines, out)
	require.Equal(t, exitOK, status, errOut)
	requireLink(t, lines, linesReal)
	b, err = os.ReadFile(linesReal)
	require.NoError(t, err)
	assert.Equal(t, "Sitemap: https://a.example/sitemap.xml\n", string(b))

	xsl, xslReal := link("sitemap.xsl")
	_, errOut, status = runCLI(t, nil, "stylesheet", "-o", xsl)
	require.Equal(t, exitOK, status, errOut)
	requireLink(t, xsl, xslReal)
	b, err = os.ReadFile(xslReal)
	require.NoError(t, err)
	assert.Equal(t, stylesheet.Default(), b)
}

// untouchedReader fails the test when it is read: the command must refuse
// before reading its inputs.
type untouchedReader struct{ t *testing.T }

func (r untouchedReader) Read([]byte) (int, error) {
	r.t.Error("the input was read")
	return 0, io.EOF
}

// TestOutputsThatAreNotFiles gives every file flag a named pipe (which
// blocked for a reader forever), a directory, a character device and a
// link to a pipe: each is a usage error, at once, before any input is
// read, and nothing is written.
func TestOutputsThatAreNotFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	fifoLink := filepath.Join(dir, "fifo-link")
	require.NoError(t, os.Symlink(fifo, fifoLink))
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	sitemap := filepath.Join(t.TempDir(), "sitemap.xml")
	require.NoError(t, os.WriteFile(sitemap, []byte("<urlset/>"), 0o644))
	targets := map[string]string{fifo: "a named pipe (FIFO)", fifoLink: "a named pipe (FIFO)", sub: "a directory"}
	if _, err := os.Stat("/dev/null"); err == nil {
		targets["/dev/null"] = "a character device"
	}
	for path, what := range targets {
		for _, args := range [][]string{
			{"-", "-o", path},
			{"-", "-o", filepath.Join(dir, "ok.xml"), "--report", path},
			{"robots", "--base-url", "https://a.example/", "-o", path, sitemap},
			{"robots", "--base-url", "https://a.example/", "--update", path, sitemap},
			{"stylesheet", "-o", path},
		} {
			done := make(chan struct{})
			var errOut string
			var status int
			go func() {
				defer close(done)
				_, errOut, status = runCLI(t, untouchedReader{t}, args...)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%v blocks", args)
			}
			assert.Equal(t, exitUsage, status, "%v: %s", args, errOut)
			assert.Contains(t, errOut, path, args)
			assert.Contains(t, errOut, "is "+what+", not a regular file", args)
			if i := slices.Index(args, path); args[i-1] == "-o" && strings.HasPrefix(path, "/dev/") {
				assert.Contains(t, errOut, "to write to standard output, omit -o or give -o -", args)
			}
		}
	}
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, des, 3, "nothing written: %v", des)
}

// TestDevStdoutIsStandardOutput writes to the command's standard output
// for -o /dev/stdout (and --report /dev/stdout with a file output), as for
// -o -, whatever standard output is: it is never replaced as a file.
func TestDevStdoutIsStandardOutput(t *testing.T) {
	in := generation("p", 3)
	want, _, status := runCLI(t, strings.NewReader(in), "-", "-q")
	require.Equal(t, exitOK, status)
	got, errOut, status := runCLI(t, strings.NewReader(in), "-", "-q", "-o", "/dev/stdout")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, want, got)

	dir := t.TempDir()
	got, errOut, status = runCLI(t, strings.NewReader(in), "-", "-q", "-o", filepath.Join(dir, "s.xml"), "--report", "/dev/stdout")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, got, `"totals"`)
	_, errOut, status = runCLI(t, strings.NewReader(in), "-", "--report", "-")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "standard output carries the output")

	got, errOut, status = runCLI(t, nil, "stylesheet", "-o", "/dev/stdout")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, string(stylesheet.Default()), got)
	sitemap := filepath.Join(dir, "s.xml")
	got, errOut, status = runCLI(t, nil, "robots", "--base-url", "https://a.example/", "-o", "/dev/stdout", sitemap)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "Sitemap: https://a.example/s.xml\n", got)
}

// TestReportCannotOverwriteOutputOrInput refuses a --report that names the
// output, a file of its set (a part, the lock), an input, or any of them
// through a link or a hard link: a usage error before anything is read,
// and every file as it was. robots refuses -o and --update naming one of
// its sitemaps likewise.
func TestReportCannotOverwriteOutputOrInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte(generation("p", 25)), 0o644))
	out := filepath.Join(dir, "sitemap.xml")
	split := []string{in, "-o", out, "--max-urls", "10", "--base-url", "https://a.example/", "-q"}
	_, errOut, status := runCLI(t, nil, split...)
	require.Equal(t, exitOK, status, errOut)
	parts, err := filepath.Glob(filepath.Join(dir, "sitemap-*.xml"))
	require.NoError(t, err)
	require.Len(t, parts, 3)
	inLink := filepath.Join(dir, "in-link.txt")
	require.NoError(t, os.Symlink(in, inLink))
	outHard := filepath.Join(dir, "hard.xml")
	require.NoError(t, os.Link(out, outHard))
	before := dirContent(t, dir)

	for report, what := range map[string]string{
		out:      "a file of the output",
		parts[1]: "a file of the output",
		filepath.Join(dir, "sitemap-9-0123abcd.xml"): "a file of the output",
		filepath.Join(dir, ".sitemap.lock"):          "a file of the output",
		outHard:                                      "a file of the output",
		in:                                           "the input " + in,
		inLink:                                       "the input " + in,
		filepath.Join(dir, "x", "..", "urls.txt"): "the input " + in,
	} {
		_, errOut, status := runCLI(t, untouchedReader{t}, append(split, "--report", report)...)
		assert.Equal(t, exitUsage, status, "%s: %s", report, errOut)
		assert.Contains(t, errOut, "--report "+report+" is "+what, report)
		assert.Equal(t, before, dirContent(t, dir), "%s: nothing changed", report)
	}
	for _, flag := range []string{"-o", "--update"} {
		_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://a.example/", flag, outHard, out)
		assert.Equal(t, exitUsage, status, errOut)
		assert.Contains(t, errOut, flag+" "+outHard+" is the sitemap "+out)
	}
	assert.Equal(t, before, dirContent(t, dir))
}

// TestLockHeldByAnotherRunFails holds the lock of an output (and of a
// robots.txt) as another run would: the command waits --lock-timeout, then
// fails naming the lock file and its holder, and writes nothing.
func TestLockHeldByAnotherRunFails(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	lock, err := filelock.Acquire(filepath.Join(dir, ".sitemap.lock"), 0)
	require.NoError(t, err)
	defer lock.Release()
	for _, extra := range [][]string{nil, {"--accumulate"}} {
		args := append([]string{"-", "-o", out, "--lock-timeout", "50ms"}, extra...)
		_, errOut, status := runCLI(t, strings.NewReader(generation("p", 3)), args...)
		assert.Equal(t, exitFail, status, "%v: %s", extra, errOut)
		assert.Contains(t, errOut, "another run is writing "+out, extra)
		assert.Contains(t, errOut, fmt.Sprintf("process %d (since ", os.Getpid()), extra)
		assert.Contains(t, errOut, "holds the lock "+filepath.Join(dir, ".sitemap.lock")+"; waited 50ms for it", extra)
		assert.Contains(t, errOut, "(--lock-timeout sets how long to wait)", extra)
		assert.NoFileExists(t, out)
	}

	robots := filepath.Join(dir, "robots.txt")
	require.NoError(t, os.WriteFile(robots, []byte("User-agent: *\n"), 0o644))
	rlock, err := filelock.Acquire(filepath.Join(dir, ".robots.txt.lock"), 0)
	require.NoError(t, err)
	defer rlock.Release()
	sitemap := filepath.Join(dir, "other.xml")
	require.NoError(t, os.WriteFile(sitemap, nil, 0o644))
	_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", robots, "--lock-timeout", "0", sitemap)
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, errOut, "--update "+robots+": another run is updating it")
	b, err := os.ReadFile(robots)
	require.NoError(t, err)
	assert.Equal(t, "User-agent: *\n", string(b))
}

// TestRobotsUpdateRefusesOtherFiles refuses to add Sitemap: lines to a
// file that is not a robots.txt: a sitemap, a URL list, a binary file, an
// HTML page. Each is left as it was; an empty or missing file is fine.
func TestRobotsUpdateRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	sitemap := filepath.Join(dir, "sitemap.xml")
	require.NoError(t, os.WriteFile(sitemap, nil, 0o644))
	for name, content := range map[string]string{
		"other-sitemap.xml": `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/</loc></url></urlset>`,
		"urls.txt":          generation("p", 3),
		"image.gif":         "GIF89a\x01\x00\x01\x00\x00\x00\x00;",
		"index.html":        "\n\n<!doctype html><title>x</title>",
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", path, sitemap)
		assert.Equal(t, exitFail, status, "%s: %s", name, errOut)
		assert.Contains(t, errOut, "--update: "+path+": not a robots.txt file: ", name)
		assert.Contains(t, errOut, "it was left as it was", name)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal([]byte(content), b), "%s is untouched", name)
	}
	for _, content := range []string{"", "\n"} {
		path := filepath.Join(dir, "robots.txt")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", path, sitemap)
		assert.Equal(t, exitOK, status, errOut)
	}
}
