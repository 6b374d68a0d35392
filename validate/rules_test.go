package validate

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRules checks every rule against its two documents in
// testdata/validate/rules: ID.fail.* has a finding of the rule, and
// ID.pass.* has no finding at all.
func TestRules(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "testdata", "validate", "rules")
	for _, r := range Rules() {
		if strings.HasPrefix(r.ID, "live-") {
			continue // they check pages on the web: package live's tests and the CLI's check them
		}
		t.Run(r.ID, func(t *testing.T) {
			for _, kind := range []string{"fail", "pass"} {
				files, _ := filepath.Glob(filepath.Join(dir, r.ID+"."+kind+".*"))
				if len(files) != 1 {
					t.Fatalf("want one %s.%s.* document in %s, have %d", r.ID, kind, dir, len(files))
				}
				got := checkFile(t, files[0], "https://example.com/blog/", Options{})
				switch {
				case kind == "fail" && !slices.Contains(ruleIDs(got), r.ID):
					t.Errorf("%s: no %s finding; got:%s", filepath.Base(files[0]), r.ID, describe(got))
				case kind == "pass" && len(got) > 0:
					t.Errorf("%s: want no finding, got:%s", filepath.Base(files[0]), describe(got))
				}
			}
		})
	}
}

// TestRuleTable checks the rule definitions: unique kebab-case ids, a
// meaning and a fix each, and LookupRule finding each.
func TestRuleTable(t *testing.T) {
	id := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	flag := regexp.MustCompile(`(^|[ (])--?[a-z]`)
	seen := map[string]bool{}
	for _, r := range Rules() {
		if !id.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("rule id %q is not kebab-case or is not unique", r.ID)
		}
		seen[r.ID] = true
		if r.Meaning == "" || r.Fix == "" {
			t.Errorf("rule %s lacks its meaning or fix", r.ID)
		}
		if flag.MatchString(r.Meaning) || flag.MatchString(r.Fix) {
			t.Errorf("rule %s names a flag: a program adds its own (Report.FixHint)", r.ID)
		}
		if LookupRule(r.ID) != r {
			t.Errorf("LookupRule(%q) does not return the rule", r.ID)
		}
	}
	if LookupRule("no-such-rule") != nil {
		t.Error("LookupRule of an unknown id is not nil")
	}
	if len(seen) < 40 {
		t.Errorf("only %d rules", len(seen))
	}
}

// TestReportHints writes a report with findings not shown, a document
// whose URL is unknown and a finding of a rule with a fix hint: in the
// report's own words (no flag), then in a program's (Hint, FixHint).
func TestReportHints(t *testing.T) {
	write := func(rep *Report) (string, JSONReport) {
		v := New(Options{OnDocument: rep.Document})
		require.NoError(t, v.Check(strings.NewReader("https://example.com/a;jsessionid=1\nhttps://example.com/a;jsessionid=1\n"), Source{Name: "urls.txt"}, rep.Finding))
		var b strings.Builder
		require.NoError(t, rep.WriteText(&b))
		return b.String(), rep.JSON()
	}
	text, js := write(NewReport(1))
	assert.Contains(t, text, "fix: remove the session id\n")
	assert.Contains(t, text, "\n2 findings not shown (at most 1)\n")
	assert.Contains(t, text, "whose URL is unknown (give it: Source.URL)\n")
	assert.Equal(t, "remove the session id", js.Files[0].Findings[0].Fix)
	assert.NotContains(t, text, "--")

	rep := NewReport(1)
	rep.Hint = func(key error) string {
		switch key {
		case ErrFindingsNotShown:
			return "-n"
		case ErrScopeUnknown:
			return "give -u"
		}
		return ""
	}
	rep.FixHint = func(r *Rule) string {
		if r.ID == "session-id" {
			return "strip them"
		}
		return ""
	}
	text, js = write(rep)
	assert.Contains(t, text, "fix: remove the session id (strip them)\n")
	assert.Contains(t, text, "\n2 findings not shown (-n 1)\n")
	assert.Contains(t, text, "whose URL is unknown (give -u)\n")
	assert.Equal(t, "remove the session id (strip them)", js.Files[0].Findings[0].Fix)
}
