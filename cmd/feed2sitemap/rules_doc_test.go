package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/golden"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// rulesReference is the generated page of validate's rules.
const rulesReference = "../../docs/validation-rules.md"

// TestRulesReference checks that docs/validation-rules.md lists every rule
// of validate.Rules() with its severity, whether the schemas decide it,
// its meaning and its fix, with the command's flags for them (ruleHints),
// as the program has them today. It fails when the page is stale; go test
// ./cmd/feed2sitemap -run TestRulesReference -update (or go test ./...
// -update) rewrites it.
func TestRulesReference(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(rulesIntro)
	b.WriteString("| rule | severity | schema | meaning | fix |\n|---|---|---|---|---|\n")
	for _, r := range validate.Rules() {
		schema := ""
		if r.Schema {
			schema = "yes"
		}
		meaning := r.Meaning
		if f := ruleHints[r.ID].runBy; f != "" {
			meaning = "(" + f + ") " + meaning
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.ID, r.Severity, schema, ruleCell(meaning), ruleCell(reportFix(r)))
	}
	golden.Check(t, rulesReference, b.Bytes())
}

// reportFix returns the fix of rule r as the command's reports give it
// (validate.Report.FixHint).
func reportFix(r *validate.Rule) string {
	if h := ruleFixHint(r); h != "" {
		return r.Fix + " (" + h + ")"
	}
	return r.Fix
}

// ruleCell makes a rule's text safe in a Markdown table cell.
func ruleCell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "`", "\\`", "[", `\[`, "]", `\]`).Replace(s)
}

const rulesIntro = `# Validation rules

<!-- Generated from validate.Rules() by TestRulesReference (cmd/feed2sitemap/rules_doc_test.go).
     Do not edit: change the rules in validate/rules.go, then run  go test ./cmd/feed2sitemap -run TestRulesReference -update -->

The rules of ` + "`feed2sitemap validate`" + ` (and of ` + "`convert --strict`" + `, which applies them to what it reads).
How to run it and read its output: [validate in the behaviour notes](behaviour.md#validate); its flags:
[CLI reference](cli.md#feed2sitemap-validate).

**What is checked.** XML sitemaps and indexes against content models transcribed from the official schemas
(` + "`sitemap.xsd`, `siteindex.xsd`" + `, and the image, video, news, mobile and xhtml extension schemas), with the same
verdict as ` + "`xmllint`" + `: a document has a finding of a rule marked *schema* below exactly when xmllint rejects it
(tests compare the two on a catalogue of documents, ` + "`testdata/validate/catalogue`" + `, and on the real-world corpus).
The other rules go where the schemas are silent: absolute http(s) URLs, escaping, the host and directory of the
sitemap, limits, dates in the future, duplicates and twins, session ids, news age, hreflang, deprecated tags. Text
sitemaps and feeds get the rules that apply to them (encoding, every URL rule, limits, duplicates, twins, session
ids, a feed item dated in the future, items a sitemap cannot use); robots.txt files, absolute ` + "`Sitemap:`" + ` URLs,
which are then followed. Duplicates and twins are compared after URL normalization (see
[merging and duplicates](behaviour.md#merging-and-duplicates)), within a file and across every file of the run.
Nothing is expanded from a DTD, and memory stays bounded: duplicates and twins are found with 64-bit hashes, in a
table of at most 32 MiB, for the first 1,000,000 URLs of the run; later URLs are compared with those.

Severity: an **error** is what the schemas or the protocol forbid; a **warning** is search-engine advice. Every
rule has a failing and a passing document in ` + "`testdata/validate/rules`" + ` (` + "`TestRules`" + `), but the ` + "`live-`" + ` rules:
they check the pages listed, fetched with ` + "`validate --live`" + ` (see [live checks](behaviour.md#live-checks)).

`
