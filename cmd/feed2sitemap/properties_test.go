package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
)

// throwawayEnv, set, registers the throwaway formats of
// TestFormatsByProperties: in a child process of the test binary only, so
// that the other tests (the formats list, the CLI reference) see the
// formats of the command and no others.
const throwawayEnv = "FEED2SITEMAP_TEST_THROWAWAY_FORMATS"

func init() {
	if os.Getenv(throwawayEnv) == "" {
		return
	}
	// A read-only format, recognized by content: a first line "THROWAWAY",
	// then "loc lastmod" lines.
	formats.Register(&formats.Format{
		Name:        "dumb-list",
		Description: "a throwaway list of loc and lastmod",
		Detect: func(prefix []byte) bool {
			s := sniff.Of(prefix)
			return s.Content == sniff.Text && s.FirstLine == "THROWAWAY"
		},
		NewReader: func(r io.Reader, o formats.ReadOptions) formats.Reader {
			return &dumbReader{s: bufio.NewScanner(r), opts: o}
		},
	})
	// A feed-like writer: newest first, locs as given, no scope rule, one
	// document.
	formats.Register(&formats.Format{
		Name:        "dumb-feed",
		Description: "a throwaway feed",
		NewWriter:   func(w io.Writer, o formats.WriteOptions) formats.Writer { return &dumbWriter{w: w, head: o.Feed.Title} },
		Extensions:  []string{".dumbfeed"},
		Feed:        true,
		NewestFirst: true,
	})
	// A sitemap-like writer: tidy locs, the scope rule, one file on demand.
	formats.Register(&formats.Format{
		Name:        "dumb-sitemap",
		Description: "a throwaway sitemap",
		NewWriter:   func(w io.Writer, o formats.WriteOptions) formats.Writer { return &dumbWriter{w: w} },
		Extensions:  []string{".dumbmap"},
		Sitemap:     true,
		Tidy:        true,
		Scoped:      true,
		OneFile:     true,
	})
}

// dumbReader reads the throwaway list.
type dumbReader struct {
	s    *bufio.Scanner
	opts formats.ReadOptions
	line int
}

func (r *dumbReader) Next() (formats.Entry, error) {
	for r.s.Scan() {
		r.line++
		loc, lastmod, _ := strings.Cut(strings.TrimSpace(r.s.Text()), " ")
		if r.line == 1 || loc == "" {
			continue
		}
		var e formats.Entry
		var err error
		if e.Loc, err = formats.ParseLoc(loc, nil); err != nil {
			return e, &formats.ParseError{Source: r.opts.Source, Line: r.line, Err: err}
		}
		if lastmod != "" {
			if e.LastMod, err = formats.ParseLastMod(lastmod); err != nil {
				return e, &formats.ParseError{Source: r.opts.Source, Line: r.line, Err: err}
			}
		}
		return e, nil
	}
	if err := r.s.Err(); err != nil {
		return formats.Entry{}, err
	}
	return formats.Entry{}, io.EOF
}

// dumbWriter writes a line per entry, after a head line when it has one.
type dumbWriter struct {
	w    io.Writer
	head string
	err  error
}

func (w *dumbWriter) Write(e formats.Entry) error {
	if w.head != "" {
		_, w.err = fmt.Fprintf(w.w, "head %s\n", w.head)
		w.head = ""
	}
	if w.err == nil {
		_, w.err = fmt.Fprintf(w.w, "%s %s\n", e.Loc, e.LastMod)
	}
	return w.err
}

func (w *dumbWriter) Close() error { return w.err }

// TestFormatsByProperties shows that the command treats a format by what it
// says of itself, not by its name: formats registered here, and nowhere
// else, are read, ordered, tidied, scoped and checked as their properties
// say.
func TestFormatsByProperties(t *testing.T) {
	if os.Getenv(throwawayEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFormatsByProperties$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), throwawayEnv+"=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestFormatsByProperties", "%s", out)
		return
	}
	list := "THROWAWAY\n" +
		"https://example.com/b#part 2024-01-02\n" +
		"https://other.example/a 2024-03-01\n" +
		"https://example.com/c 2024-02-01\n"
	dir := t.TempDir()
	in := filepath.Join(dir, "list.dumb")
	require.NoError(t, os.WriteFile(in, []byte(list), 0o644))

	// Read by content, written as a feed: newest first, the fragment kept,
	// the other host kept though --base-url names one site.
	out := filepath.Join(dir, "out.dumbfeed")
	_, errOut, status := runCLI(t, nil, in, "-o", out, "--base-url", "https://example.com/", "--title", "T")
	require.Equal(t, exitOK, status, errOut)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "head T\n"+
		"https://other.example/a 2024-03-01\n"+
		"https://example.com/c 2024-02-01\n"+
		"https://example.com/b#part 2024-01-02\n", string(got))
	_, errOut, status = runCLI(t, nil, in, "--to", "dumb-feed", "--sort", "loc")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--sort loc")
	_, errOut, status = runCLI(t, nil, in, "-o", filepath.Join(dir, "one.dumbfeed"), "--one-file")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--one-file writes a plain list of URLs ("+
		namesWhere(func(f *formats.Format) bool { return f.CanWrite() && f.OneFile }, "--to ", "or")+"), not dumb-feed")
	assert.Contains(t, errOut, "--to dumb-sitemap")

	// Written as a sitemap: in the order given, the fragment tidied away,
	// the other host outside the scope of --base-url; feed flags refused.
	out = filepath.Join(dir, "out.dumbmap")
	_, errOut, status = runCLI(t, nil, in, "-o", out, "--base-url", "https://example.com/", "--one-file")
	assert.Equal(t, exitUsage, status, "--one-file never splits: --base-url does not apply")
	_, errOut, status = runCLI(t, nil, in, "-o", out, "--base-url", "https://example.com/")
	require.Equal(t, exitOK, status, errOut)
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/b 2024-01-02\nhttps://example.com/c 2024-02-01\n", string(got))
	_, errOut, status = runCLI(t, nil, in, "-o", out, "--one-file")
	require.Equal(t, exitOK, status, errOut)
	_, errOut, status = runCLI(t, nil, in, "--to", "dumb-sitemap", "--title", "T")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--title, --link and --description apply to atom, dumb-feed and rss output")
}
