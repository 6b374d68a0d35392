package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The documentation's commands are run as a user would type them, with the
// command built from this package:
//
//   - in README.md, every ```sh block runs as one bash script (set -e),
//     "go run ./cmd/feed2sitemap" standing for the built command; its
//     "go test ./..." must be the test command .ci/run calls (it is not run
//     again from inside the tests), and "go install" lines are not run;
//   - in README.md and docs/*.md, every ```console block runs its "$ "
//     lines, and what each prints (standard output and error, as they
//     come) must be the lines that follow it.
//
// Each file runs in its own temporary directory, in which testdata is the
// repository's testdata, so the commands name the bundled examples as they
// would from the root of a clone.
func TestDocumentedCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs every documented example")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "feed2sitemap"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	ran := 0
	for _, file := range files {
		doc, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Symlink(filepath.Join(root, "testdata"), filepath.Join(dir, "testdata")); err != nil {
				t.Fatal(err)
			}
			shell := func(script string) (string, error) {
				cmd := exec.Command("bash", "-c", "set -euo pipefail\ntrap 'echo \"failed: $BASH_COMMAND\"' ERR\n"+script)
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			for _, b := range codeBlocks(string(doc)) {
				switch {
				case b.lang == "sh" && name == "README.md":
					var script []string
					for _, line := range strings.Split(b.text, "\n") {
						cmd := strings.TrimSpace(strings.SplitN(line, " #", 2)[0])
						switch {
						case cmd == "" || strings.HasPrefix(cmd, "#") || strings.HasPrefix(cmd, "go install "):
							continue
						case strings.HasPrefix(cmd, "go test"):
							checkCITestCommand(t, root, cmd)
							continue
						}
						script = append(script, strings.ReplaceAll(cmd, "go run ./cmd/feed2sitemap", "feed2sitemap"))
						ran++
					}
					if out, err := shell(strings.Join(script, "\n")); err != nil {
						t.Errorf("%s:%d: the commands of this block fail: %v\n%s", name, b.line, err, out)
					}
				case b.lang == "console":
					for _, c := range consoleCommands(b.text) {
						got, err := shell(strings.ReplaceAll(c.cmd, "go run ./cmd/feed2sitemap", "feed2sitemap"))
						ran++
						if err != nil && !strings.Contains(c.cmd, "||") {
							t.Errorf("%s:%d: $ %s: %v\n%s", name, b.line, c.cmd, err, got)
							continue
						}
						if strings.TrimRight(got, "\n") != strings.TrimRight(c.want, "\n") {
							t.Errorf("%s:%d: $ %s\nthe page says:\n%s\nthe command prints:\n%s", name, b.line, c.cmd, c.want, got)
						}
					}
				}
			}
		})
	}
	if ran < 10 {
		t.Errorf("only %d documented commands ran", ran)
	}
}

// checkCITestCommand checks that the README's test command is the one
// .ci/run calls.
func checkCITestCommand(t *testing.T, root, cmd string) {
	t.Helper()
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(cmd) + `$`).Match(ci) {
		t.Errorf("README.md says the tests are %q, but .ci/run does not run that line", cmd)
	}
}

// codeBlock is a fenced block of a Markdown page.
type codeBlock struct {
	lang string
	text string
	line int // of the opening fence
}

var fence = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```$")

func codeBlocks(doc string) []codeBlock {
	var out []codeBlock
	for _, m := range fence.FindAllStringSubmatchIndex(doc, -1) {
		out = append(out, codeBlock{
			lang: doc[m[2]:m[3]],
			text: doc[m[4]:m[5]],
			line: 1 + strings.Count(doc[:m[0]], "\n"),
		})
	}
	return out
}

// consoleCommand is a "$ " line of a console block and the lines it
// prints.
type consoleCommand struct{ cmd, want string }

func consoleCommands(text string) []consoleCommand {
	var out []consoleCommand
	var want bytes.Buffer
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if cmd, ok := strings.CutPrefix(line, "$ "); ok {
			if len(out) > 0 {
				out[len(out)-1].want = want.String()
			}
			want.Reset()
			out = append(out, consoleCommand{cmd: cmd})
			continue
		}
		want.WriteString(line + "\n")
	}
	if len(out) > 0 {
		out[len(out)-1].want = want.String()
	}
	return out
}
