package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestCompletionScripts(t *testing.T) {
	writers := strings.Join(formatNames((*formats.Format).CanWrite), " ") // atom rss text xml, and any format registered
	for shell, wants := range map[string][]string{
		"bash": {`convert|formats|robots|submit|stylesheet|completion|validate|diff)`, `"convert --to") COMPREPLY=($(compgen -W "` + writers + `"`,
			`"validate --format") COMPREPLY=($(compgen -W "text json"`, "--output -o", "--base-url", "--include"},
		"zsh":  {"#compdef feed2sitemap", "'(-o --output)'{-o,--output}'[", ":to:(" + writers + ")'", ":format:(text json)'", "'validate:Check"},
		"fish": {"-a validate -d 'Check", "-l to -x -a '" + writers + "'", "-l output -s o -r", "'__fish_seen_subcommand_from validate' -l format -x -a 'text json'"},
	} {
		out, errOut, status := runCLI(t, nil, "completion", shell)
		require.Equal(t, exitOK, status, errOut)
		for _, want := range wants {
			assert.Contains(t, out, want, shell)
		}
	}
	_, _, status := runCLI(t, nil, "completion", "powershell")
	assert.Equal(t, exitUsage, status)
}

// TestBashCompletion runs the bash script as bash does at a Tab.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	script, _, status := runCLI(t, nil, "completion", "bash")
	require.Equal(t, exitOK, status)
	dir := t.TempDir()
	path := filepath.Join(dir, "feed2sitemap.bash")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "urls.txt"), nil, 0o644))
	complete := func(words ...string) []string {
		t.Helper()
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1"; COMP_WORDS=(`+strings.Join(quoted, " ")+`); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _feed2sitemap; printf '%s\n' "${COMPREPLY[@]}"`, "bash", path)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return strings.Fields(string(out))
	}
	assert.Equal(t, formatNames((*formats.Format).CanWrite), complete("feed2sitemap", "blog.rss", "--to", ""))
	assert.Subset(t, formatNames((*formats.Format).CanWrite), []string{"atom", "rss", "text", "xml"})
	assert.Equal(t, []string{"text"}, complete("feed2sitemap", "--to", "t"))
	assert.Equal(t, []string{"validate"}, complete("feed2sitemap", "vali"))
	assert.Equal(t, []string{"--format"}, complete("feed2sitemap", "validate", "--form"))
	assert.Equal(t, []string{"json"}, complete("feed2sitemap", "validate", "--format", "j"))
	assert.Contains(t, complete("feed2sitemap", "--gz"), "--gzip")
	assert.Equal(t, []string{"urls.txt"}, complete("feed2sitemap", "ur"), "inputs are files")
}
