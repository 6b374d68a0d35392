package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
)

// runAt runs the command line with the named standard streams ("stdin",
// "stdout", "stderr") at a terminal.
func runAt(t *testing.T, terminals []string, in io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	streams := map[string]any{"stdin": in, "stdout": &stdout, "stderr": &stderr}
	term := map[any]bool{}
	for _, name := range terminals {
		term[streams[name]] = true
	}
	status := run(args, &env{Stdin: in, Stdout: &stdout, Stderr: &stderr, Terminal: func(x any) bool { return term[x] }})
	return stdout.String(), stderr.String(), status
}

func TestMistypedCommand(t *testing.T) {
	for typo, want := range map[string]string{"valdiate": "validate", "vaildate": "validate", "formtas": "formats", "submti": "submit", "robot": "robots", "hlep": "help", "completoin": "completion"} {
		_, errOut, status := runCLI(t, nil, typo, "x.xml")
		assert.Equal(t, exitUsage, status, typo)
		assert.Contains(t, errOut, `"`+typo+`" is not a command, nor a file here: did you mean `+want+"?", typo)
	}
	// A file that really has that name is read.
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.WriteFile("valdiate", []byte("https://a.example/\n"), 0o644))
	out, errOut, status := runCLI(t, nil, "valdiate", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "https://a.example/\n", out)
	// A name far from every command is an input, as before.
	_, errOut, status = runCLI(t, nil, "sitemap")
	assert.Equal(t, exitFail, status)
	assert.NotContains(t, errOut, "did you mean")
}

func TestHelpCommand(t *testing.T) {
	out, _, status := runCLI(t, nil, "help")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "Usage: feed2sitemap <command>")
	out, _, status = runCLI(t, nil, "help", "validate")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "Usage: feed2sitemap validate")
	helpOut, _, _ := runCLI(t, nil, "validate", "--help")
	assert.Equal(t, helpOut, out, "help validate is validate --help")
}

func TestStdinByDefault(t *testing.T) {
	// A pipe or a redirected file: read it.
	for _, args := range [][]string{{"--to", "text"}, {"convert", "--to", "text"}} {
		out, errOut, status := runAt(t, nil, strings.NewReader("https://a.example/1\n"), args...)
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, "https://a.example/1\n", out)
	}
	out, _, status := runAt(t, nil, strings.NewReader("https://a.example/1\n"), "validate")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "<stdin> (text, 1 URL): ok")
	// A terminal: nothing to read, so say how to name an input.
	for _, args := range [][]string{{}, {"--to", "text"}, {"validate"}, {"submit", "--indexnow-key", "0123456789abcdef"}} {
		_, errOut, status := runAt(t, []string{"stdin"}, strings.NewReader(""), args...)
		assert.Equal(t, exitUsage, status, "%q", args)
		assert.Contains(t, errOut, "no input: name a file", "%q", args)
	}
}

func TestVersion(t *testing.T) {
	out, _, status := runCLI(t, nil, "--version")
	assert.Equal(t, exitOK, status)
	assert.True(t, strings.HasPrefix(out, "feed2sitemap "), out)
	assert.NotEqual(t, "feed2sitemap (devel)\n", out)

	assert.Equal(t, "v1.2.3", describeBuild("v1.2.3", nil), "set at build time")
	assert.Equal(t, "v0.4.0, go1.26", describeBuild("", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v0.4.0"}}))
	assert.Equal(t, "(devel) revision 0123456789ab of 2026-11-20T10:00:00Z, with uncommitted changes, go1.26",
		describeBuild("", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-20T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}))
	bare := describeBuild("", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}})
	assert.NotEqual(t, "(devel)", bare)
	assert.Contains(t, bare, "built without version control information")
}

func TestOneDashLongFlag(t *testing.T) {
	for _, args := range [][]string{{"-output", "x.xml", "in.txt"}, {"in.txt", "-base-url=https://a.example/"}, {"validate", "-strict", "x.xml"}} {
		_, errOut, status := runCLI(t, nil, args...)
		assert.Equal(t, exitUsage, status, "%q", args)
		assert.Contains(t, errOut, "a flag with a long name takes two dashes", "%q", args)
	}
	_, errOut, _ := runCLI(t, nil, "-output", "x.xml")
	assert.Contains(t, errOut, "--output")
	// After --, an argument is a file name.
	_, errOut, _ = runCLI(t, nil, "--", "-output")
	assert.NotContains(t, errOut, "two dashes")
}

func TestGzipToTerminal(t *testing.T) {
	out, errOut, status := runAt(t, []string{"stdout"}, strings.NewReader(""), example, "--gzip")
	assert.Equal(t, exitUsage, status)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "--gzip: standard output is a terminal")
	out, errOut, status = runAt(t, nil, strings.NewReader(""), example, "--gzip", "-q")
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, strings.HasPrefix(out, "\x1f\x8b"), "redirected: gzip")
}

func TestQuietWhenAllIsWell(t *testing.T) {
	dir := t.TempDir()
	clean := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(clean, []byte("https://a.example/1\nhttps://a.example/2\n"), 0o644))
	out := filepath.Join(dir, "sitemap.xml")

	_, errOut, status := runAt(t, nil, strings.NewReader(""), clean, "-o", out)
	require.Equal(t, exitOK, status)
	assert.Empty(t, errOut, "cron: a clean run prints nothing")
	_, errOut, _ = runAt(t, []string{"stderr"}, strings.NewReader(""), clean, "-o", out)
	assert.Equal(t, "feed2sitemap: read 2 entries from 1 input, wrote 2 to "+out+"\n", errOut, "at a terminal: the summary")
	_, errOut, _ = runAt(t, nil, strings.NewReader(""), clean, "-o", out, "-v")
	assert.Contains(t, errOut, "wrote 2 to "+out, "-v: the summary")

	// Something merged, filtered or skipped: the summary says so.
	for args, want := range map[string]string{
		clean + " " + clean:                   "merged 2 duplicates",
		clean + " --exclude /1":               "filtered 1",
		example:                               "(1 invalid, 1 warning)",
		clean + " --host b.example --to text": "all 2 entries were filtered out",
	} {
		_, errOut, _ := runAt(t, nil, strings.NewReader(""), strings.Fields(args)...)
		assert.Contains(t, errOut, want, args)
	}
}

func TestHelpLayout(t *testing.T) {
	top, _, status := runCLI(t, nil, "--help")
	require.Equal(t, exitOK, status)
	assert.LessOrEqual(t, strings.Count(top, "\n"), 45, "the top-level help fits on one screen:\n%s", top)
	assert.Contains(t, top, "feed2sitemap help convert")

	convert, _, _ := runCLI(t, nil, "help", "convert")
	last := -1
	for _, group := range []string{"Input and output", "Splitting", "Merging and URLs", "Filters", "Feed output", "Remote inputs and indexes"} {
		i := strings.Index(convert, "\n"+group+"\n")
		require.Greater(t, i, last, "convert --help groups its flags, %q in order", group)
		last = i
	}
	for _, cmd := range []string{"convert", "validate", "robots", "submit", "stylesheet", "formats", "completion"} {
		out, _, status := runCLI(t, nil, cmd, "--help")
		require.Equal(t, exitOK, status, cmd)
		_, examples, ok := strings.Cut(out, "\nExamples:\n")
		require.True(t, ok, "%s --help ends with examples", cmd)
		lines := strings.Split(strings.TrimSpace(examples), "\n")
		assert.GreaterOrEqual(t, len(lines), 2, cmd)
		for _, l := range lines {
			assert.True(t, strings.HasPrefix(strings.TrimSpace(l), "feed2sitemap "), "%s: %q", cmd, l)
		}
	}
}

func TestProgressLine(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{dest: &destination{}, start: start, total: 1000}
	assert.Equal(t, "read 500 entries (50/s)", p.line(500, start.Add(10*time.Second)), "nothing counted yet: no share, no files")
	p.done.Store(250)
	assert.Equal(t, "read 500 entries (50/s), 25% of the input, about 30s left", p.line(500, start.Add(10*time.Second)))
	p.total = 0
	assert.Equal(t, "read 500 entries (50/s)", p.line(500, start.Add(10*time.Second)), "size unknown (standard input, remote)")

	// Tracking counts what the inputs' readers read.
	dir := t.TempDir()
	path := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(path, []byte("https://a.example/\n"), 0o644))
	p = &progress{on: true, dest: &destination{}, start: start}
	inputs := []convert.Input{(&sourceFlags{}).local(path)}
	p.track(inputs)
	assert.Equal(t, int64(19), p.total)
	r, err := inputs[0].Open()
	require.NoError(t, err)
	_, err = io.ReadAll(r)
	require.NoError(t, err)
	r.Close()
	assert.Equal(t, int64(19), p.done.Load())
	// An input opened again (a waiting local input, released once
	// recognized) counts what it read before once.
	r, err = inputs[0].Open()
	require.NoError(t, err)
	_, err = io.ReadAll(r)
	require.NoError(t, err)
	r.Close()
	assert.Equal(t, int64(19), p.done.Load())
}
