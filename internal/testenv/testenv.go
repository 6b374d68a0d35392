// Package testenv finds what some tests need outside the checkout: xmllint,
// and the folder ../shared beside it (the Google extension schemas, which
// may not be redistributed, and the shared catalogue of bad inputs). When
// one is absent the test is skipped, or failed when the environment
// variable CI is "true", so that CI never passes without it.
//
// A package whose tests use it runs them with Main (or Run, from its own
// TestMain); after the tests, Main prints one line naming what was skipped
// and why. go test hides what a passing package prints unless -v is given,
// so on Linux, when the test binary runs under the go command and that
// command's standard error is a terminal or a pipe (as in CI), the line is
// written there instead: a plain "go test ./..." shows it. (When it is a
// regular file, go test -v shows the line.) A result go test took from its cache prints
// nothing (go test -count=1 ./... runs everything again).
package testenv

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
)

// InCI reports whether the tests run under CI, where nothing may be
// skipped for want of xmllint or ../shared.
func InCI() bool { return os.Getenv("CI") == "true" }

// skipped maps a reason to the names of the tests skipped for it.
var (
	mu      sync.Mutex
	skipped = map[string][]string{}
)

// Skip skips t for the reason given, which names what is missing and why
// it matters, and records it for the line Main prints. Under CI it fails
// t instead.
func Skip(t testing.TB, reason string) {
	t.Helper()
	if InCI() {
		t.Fatalf("required under CI: %s", reason)
	}
	SkipOptional(t, reason)
}

// SkipOptional skips t for the reason given and records it for the line
// Main prints, under CI too: for what CI does not install (Chromium).
func SkipOptional(t testing.TB, reason string) {
	t.Helper()
	mu.Lock()
	if !slices.Contains(skipped[reason], t.Name()) {
		skipped[reason] = append(skipped[reason], t.Name())
	}
	mu.Unlock()
	t.Skip(reason)
}

// RepoRoot returns the directory holding go.mod, above the working
// directory of the test.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("testenv: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// sharedReason is why a test needs ../shared/schemas.
const sharedReason = "needs ../shared/schemas beside the checkout (Google's image, video, news and mobile schemas," +
	" which may not be redistributed) to validate documents with extensions"

// SharedSchemas returns ../shared/schemas, the folder beside the checkout
// that holds the Google extension schemas (sitemap-all.xsd and its offline
// catalog.xml), or skips t when it is absent.
func SharedSchemas(t testing.TB) string {
	t.Helper()
	dir, ok := LookupSharedSchemas(t)
	if !ok {
		Skip(t, sharedReason)
	}
	return dir
}

// LookupSharedSchemas returns ../shared/schemas and whether it is there,
// skipping nothing: a test that can run in part without it calls
// SkipSharedPart for each part it leaves out.
func LookupSharedSchemas(t testing.TB) (string, bool) {
	t.Helper()
	dir := filepath.Join(RepoRoot(t), "..", "shared", "schemas")
	_, err := os.Stat(filepath.Join(dir, "sitemap-all.xsd"))
	return dir, err == nil
}

// SkipSharedPart records that the part of t named what was left out for
// want of ../shared/schemas, and logs it; t goes on. Under CI it fails t.
func SkipSharedPart(t testing.TB, what string) {
	t.Helper()
	if InCI() {
		t.Errorf("%s: required under CI: %s", what, sharedReason)
		return
	}
	name := t.Name() + "/" + what
	mu.Lock()
	if !slices.Contains(skipped[sharedReason], name) {
		skipped[sharedReason] = append(skipped[sharedReason], name)
	}
	mu.Unlock()
	t.Logf("%s left out: %s", what, sharedReason)
}

// Xmllint returns the path of xmllint, or skips t when it is not
// installed.
func Xmllint(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		Skip(t, "needs xmllint (apt-get install libxml2-utils) to validate documents against the schemas")
	}
	return bin
}

// Main runs the tests of m, prints the line of what was skipped, and
// exits with the tests' status.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run runs the tests of m and prints the line of what was skipped; it
// returns the tests' exit status. A TestMain that does more calls it.
// Tests run with strblock.Check and bufpool.Check (benchmarks without): a
// string of a text list used after its memory was said to be free, and a
// reader's buffer read after it was given back, read as garbage.
func Run(m *testing.M) int {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		strblock.Check()
		bufpool.Check()
	}
	code := m.Run()
	if line := Summary(); line != "" {
		w, closeW := reportWriter()
		fmt.Fprintln(w, line)
		closeW()
	}
	return code
}

// Summary returns the line Run prints: the package, how many tests were
// skipped, a few of their names, and each reason; "" when nothing was
// skipped.
func Summary() string {
	mu.Lock()
	defer mu.Unlock()
	if len(skipped) == 0 {
		return ""
	}
	reasons := make([]string, 0, len(skipped))
	for r := range skipped {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	var names []string
	for _, r := range reasons {
		names = append(names, skipped[r]...)
	}
	shown := names
	more := ""
	if len(shown) > 2 {
		shown, more = shown[:2], ", …; go test -v lists them"
	}
	pkg := "."
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				if rel, err := filepath.Rel(dir, wd); err == nil {
					pkg = rel
				}
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	what := "tests or parts of tests"
	if len(names) == 1 {
		what = "test or part of a test"
	}
	return fmt.Sprintf("feed2sitemap tests: ./%s: skipped %d %s (%s%s): %s",
		filepath.ToSlash(pkg), len(names), what, strings.Join(shown, ", "), more, strings.Join(reasons, "; "))
}

// reportWriter returns where the line goes: the standard error of the go
// command that runs this test binary, when there is one and -v was not
// given (go test keeps a passing package's output to itself), else this
// process's standard error.
func reportWriter() (io.Writer, func()) {
	if !testing.Verbose() {
		ppid := os.Getppid()
		comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid))
		stderr := fmt.Sprintf("/proc/%d/fd/2", ppid)
		// Only a terminal or a pipe: a regular file has an offset of its
		// own in the go command, which would write over the line.
		info, statErr := os.Stat(stderr)
		if err == nil && strings.TrimSpace(string(comm)) == "go" && statErr == nil && !info.Mode().IsRegular() {
			f, err := os.OpenFile(stderr, os.O_WRONLY, 0)
			if err == nil {
				return f, func() { f.Close() }
			}
		}
	}
	return os.Stderr, func() {}
}
