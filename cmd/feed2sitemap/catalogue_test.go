package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryProjectBadInputRowHasATest checks that every row of the
// project's own catalogue (testdata/BAD-INPUTS.md) names at least one test,
// and that every test it names exists in the module.
func TestEveryProjectBadInputRowHasATest(t *testing.T) {
	spec, err := os.ReadFile("../../testdata/BAD-INPUTS.md")
	require.NoError(t, err)
	sources := testSources(t)
	row := regexp.MustCompile(`(?m)^\| (.+?) \| (.+?) \| (.*?) \|$`)
	name := regexp.MustCompile("`(Test[A-Za-z0-9_]+|Fuzz[A-Za-z0-9_]+|Benchmark[A-Za-z0-9_]+)`")
	for _, m := range row.FindAllStringSubmatch(string(spec), -1) {
		class := strings.TrimSpace(m[1])
		if class == "class" || strings.HasPrefix(class, "---") {
			continue
		}
		tests := name.FindAllStringSubmatch(m[3], -1)
		if !assert.NotEmpty(t, tests, "the row %q names no test", class) {
			continue
		}
		for _, n := range tests {
			assert.Contains(t, sources, "func "+n[1]+"(", "the test %s of row %q does not exist", n[1], class)
		}
	}
}
