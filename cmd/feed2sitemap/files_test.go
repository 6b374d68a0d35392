package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// generation returns a URL list of n pages of generation gen.
func generation(gen string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "https://a.example/%s/%d\n", gen, i)
	}
	return b.String()
}

// checkSet reads the index at path and every part it lists: each must
// exist and read cleanly, all of one generation, n entries in all; and the
// directory holds nothing else but the lock file and the inputs.
func checkSet(t *testing.T, dir, path string, n int, others ...string) {
	t.Helper()
	children := readLocs(t, path)
	require.NotEmpty(t, children)
	keep := map[string]bool{filepath.Base(path): true}
	for _, o := range others {
		keep[o] = true
	}
	gens := map[string]bool{}
	total := 0
	for _, loc := range children {
		name := loc[strings.LastIndexByte(loc, '/')+1:]
		keep[name] = true
		for _, u := range readLocs(t, filepath.Join(dir, name)) {
			gens[strings.Split(u, "/")[3]] = true
			total++
		}
	}
	require.Len(t, gens, 1, "one generation: %v", gens)
	require.Equal(t, n, total)
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, d := range des {
		require.True(t, keep[d.Name()], "a stray file: %s", d.Name())
	}
}

// readLocs returns the locs of the sitemap or index at path, which must
// read without a warning.
func readLocs(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err, "a file of the set is missing")
	defer f.Close()
	var warnings []string
	r, _, err := formats.Open(f, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: path,
		Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}})
	require.NoError(t, err)
	var locs []string
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		locs = append(locs, e.Loc)
	}
	require.Empty(t, warnings)
	return locs
}

// TestConcurrentRunsOnOneOutput runs two conversions at once into the same
// split set, again and again (cron jobs that overlap): both succeed, the
// second waiting for the first's lock, and after every pair the index
// lists existing, complete parts of one run, with no file left over.
func TestConcurrentRunsOnOneOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	const n = 30
	inputs := map[string]string{}
	for _, gen := range []string{"a", "b"} {
		inputs[gen] = filepath.Join(dir, gen+".txt")
		require.NoError(t, os.WriteFile(inputs[gen], []byte(generation(gen, n)), 0o644))
	}
	iterations := 200
	if testing.Short() {
		iterations = 50
	}
	for i := range iterations {
		runPair(t, i, func(gen string) (io.Reader, []string) {
			return nil, []string{inputs[gen], "-o", out, "--max-urls", "10", "--base-url", "https://a.example/", "-q"}
		})
		checkSet(t, dir, out, n, "a.txt", "b.txt")
	}
}

// runPair runs two commands at once, of generations "a" and "b", with the
// standard input and arguments run gives each, and requires both to
// succeed.
func runPair(t *testing.T, iteration int, run func(gen string) (io.Reader, []string)) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]string, 2)
	for k, gen := range []string{"a", "b"} {
		stdin, args := run(gen)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errOut, status := runCLI(t, stdin, args...)
			if status != exitOK {
				errs[k] = errOut
			}
		}()
	}
	wg.Wait()
	require.Equal(t, []string{"", ""}, errs, "iteration %d", iteration)
}

// TestConcurrentAccumulations runs two accumulating conversions at once
// into the same split set, again and again, each adding URLs of its own:
// the second reads the set only once the first has written it (it waits
// for the lock), so no run's URLs are lost, and the set stays consistent.
func TestConcurrentAccumulations(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	const n = 10
	iterations := 40
	if testing.Short() {
		iterations = 15
	}
	for i := range iterations {
		runPair(t, i, func(gen string) (io.Reader, []string) {
			return strings.NewReader(generation(fmt.Sprintf("%s%d", gen, i), n)),
				[]string{"-", "-o", out, "--accumulate", "--max-urls", "50", "--base-url", "https://a.example/", "-q"}
		})
		all := readLocs(t, out)
		keep := map[string]bool{"sitemap.xml": true}
		if b, err := os.ReadFile(out); err == nil && strings.Contains(string(b), "<sitemapindex") {
			parts := all
			all = nil
			for _, loc := range parts {
				name := loc[strings.LastIndexByte(loc, '/')+1:]
				keep[name] = true
				all = append(all, readLocs(t, filepath.Join(dir, name))...)
			}
		}
		require.Len(t, all, 2*n*(i+1), "iteration %d: every URL of every run is kept", i)
		des, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, d := range des {
			require.True(t, keep[d.Name()], "iteration %d: a stray file: %s", i, d.Name())
		}
	}
}

// TestAccumulateOverDamagedSet damages the previous set in every way found
// (a part cut short, a gzip part cut short or corrupt, a part the index
// lists missing, invalid XML in the middle of a part, an entry that cannot
// be read, the index cut short, a single sitemap cut short): --accumulate
// refuses, naming the file and the place and how to proceed, and leaves
// every file as it was; --accumulate-repair keeps what can be read, with a
// warning that counts what was lost.
func TestAccumulateOverDamagedSet(t *testing.T) {
	type set struct{ dir, out string }
	replace := func(t *testing.T, path, old, new string) {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Contains(t, string(b), old)
		require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
	}
	cut := func(t *testing.T, path string, keep float64) {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b[:int(float64(len(b))*keep)], 0o644))
	}
	part := func(t *testing.T, s set, n int) string {
		m, err := filepath.Glob(filepath.Join(s.dir, fmt.Sprintf("sitemap-%d-*", n)))
		require.NoError(t, err)
		require.Len(t, m, 1)
		return m[0]
	}
	for _, c := range []struct {
		name   string
		flags  []string // of the set
		damage func(t *testing.T, s set) string
		msg    string // a pattern of the refusal, after the damaged file's name
		kept   [2]int // entries kept by the repair, at least and at most
		repair string // a pattern of the repair's warning, after the file's name
	}{
		{"part cut short", nil, func(t *testing.T, s set) string { p := part(t, s, 2); cut(t, p, 0.6); return p },
			`:\d+:\d+: XML syntax error: unexpected EOF \(document cut short\?\)`, [2]int{20, 29}, `: kept \d entries, lost what followed the damage \(how many entries is unknown\)`},
		{"gzip part cut short", []string{"--gzip"}, func(t *testing.T, s set) string { p := part(t, s, 2); cut(t, p, 0.7); return p },
			`:\d+:\d+: reading stopped after \d entries: corrupt gzip data: unexpected EOF`, [2]int{20, 29}, `: kept \d entries, lost what followed`},
		{"gzip part corrupt", []string{"--gzip"}, func(t *testing.T, s set) string {
			p := part(t, s, 2)
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			for i := len(b) / 2; i < len(b)/2+8; i++ {
				b[i] ^= 0x55
			}
			require.NoError(t, os.WriteFile(p, b, 0o644))
			return p
		}, `:\d+(:\d+)?: .*(corrupt|invalid|checksum)`, [2]int{20, 29}, `: kept \d entries, lost what followed`},
		{"part missing", nil, func(t *testing.T, s set) string { p := part(t, s, 2); require.NoError(t, os.Remove(p)); return s.out },
			` lists sitemap-2-[0-9a-f]{8}\.xml, which is missing`, [2]int{20, 20}, ` lists sitemap-2-[0-9a-f]{8}\.xml, which is missing: what it held is lost \(how many entries is unknown\)`},
		{"invalid XML in a part", nil, func(t *testing.T, s set) string {
			p := part(t, s, 2)
			replace(t, p, "p/15</loc>", "p/15</lox>")
			return p
		}, `:8:\d+: content after the root element ignored`, [2]int{20, 26}, `: kept \d entries, lost what the problem describes \(how many entries is unknown\)`},
		{"an entry that cannot be read", nil, func(t *testing.T, s set) string {
			p := part(t, s, 2)
			replace(t, p, "https://a.example/p/15", "ftp://a.example/p/15")
			return p
		}, `:8:\d+: <loc> skipped: not an http or https URL: "ftp://a.example/p/15"`, [2]int{29, 29}, `: kept 9 entries, lost 1 entry that could not be read`},
		{"index cut short", nil, func(t *testing.T, s set) string { cut(t, s.out, 0.55); return s.out },
			`:\d+:\d+: XML syntax error: unexpected EOF \(document cut short\?\)`, [2]int{10, 20}, `:\d+:\d+: XML syntax error: unexpected EOF .*: what it held is lost`},
		{"single sitemap cut short", []string{"--max-urls", "50"}, func(t *testing.T, s set) string { cut(t, s.out, 0.5); return s.out },
			`:\d+:\d+: XML syntax error: unexpected EOF \(document cut short\?\)`, [2]int{1, 29}, `: kept \d+ entries, lost what followed`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := set{dir: t.TempDir()}
			s.out = filepath.Join(s.dir, "sitemap.xml")
			args := append([]string{"-", "-o", s.out, "--max-urls", "10", "--base-url", "https://a.example/"}, c.flags...)
			_, errOut, status := runCLI(t, strings.NewReader(generation("p", 30)), append(args, "--accumulate")...)
			require.Equal(t, exitOK, status, errOut)
			if slices.Contains(c.flags, "--gzip") {
				s.out += ".gz"
			}
			damaged := c.damage(t, s)
			before := dirContent(t, s.dir)

			_, errOut, status = runCLI(t, strings.NewReader(generation("new", 1)), append(args, "--accumulate")...)
			assert.Equal(t, exitFail, status, errOut)
			assert.Contains(t, errOut, "feed2sitemap: error: --accumulate: the previous output does not read cleanly: ")
			assert.Regexp(t, "error: .*"+regexp.QuoteMeta(filepath.Base(damaged))+c.msg, errOut)
			assert.Contains(t, errOut, "nothing was written")
			assert.Contains(t, errOut, "or give --accumulate-repair to accumulate over what can be read")
			assert.Equal(t, before, dirContent(t, s.dir), "every file as it was")

			_, errOut, status = runCLI(t, strings.NewReader(generation("new", 1)), append(args, "--accumulate-repair")...)
			require.Equal(t, exitOK, status, errOut)
			assert.Regexp(t, "feed2sitemap: warning: --accumulate-repair: .*"+regexp.QuoteMeta(filepath.Base(damaged))+c.repair, errOut)
			got := readSetLocs(t, s.dir, s.out)
			assert.Contains(t, got, "https://a.example/new/0")
			kept := len(got) - 1
			assert.True(t, kept >= c.kept[0] && kept <= c.kept[1], "kept %d of the previous 30, want %d to %d", kept, c.kept[0], c.kept[1])
		})
	}
}

// readSetLocs returns the locs of the set at path, following an index to
// its parts in dir; every file must read cleanly.
func readSetLocs(t *testing.T, dir, path string) []string {
	t.Helper()
	locs := readLocs(t, path)
	if len(locs) == 0 || !strings.HasSuffix(locs[0], filepath.Ext(path)) {
		return locs
	}
	var all []string
	for _, loc := range locs {
		all = append(all, readLocs(t, filepath.Join(dir, loc[strings.LastIndexByte(loc, '/')+1:]))...)
	}
	return all
}
