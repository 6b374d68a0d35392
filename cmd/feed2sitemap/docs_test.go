package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// cliReference is the generated page of every command and flag.
const cliReference = "../../docs/cli.md"

// TestCLIReference checks that docs/cli.md is what the command's kong
// model says today: every command, argument and flag, with its default,
// its values, its environment variables and its help. It fails when the
// page is stale; go test ./cmd/feed2sitemap -run TestCLIReference -update
// (or go test ./... -update) rewrites it.
func TestCLIReference(t *testing.T) {
	golden.Check(t, cliReference, renderCLIReference(t))
}

// testOnlyFormats are registered by this package's tests, not by the
// command: the reference leaves them out of the lists of formats.
var testOnlyFormats = []string{panicFormat.Name}

// renderCLIReference walks the model of the parser run builds.
func renderCLIReference(t *testing.T) []byte {
	t.Helper()
	parser, err := newParser(&env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	app := parser.Model
	var b bytes.Buffer
	b.WriteString("# Command-line reference\n\n")
	b.WriteString("<!-- Generated from the command's kong model by TestCLIReference (cmd/feed2sitemap/docs_test.go).\n")
	b.WriteString("     Do not edit: change the flags' tags, then run  go test ./cmd/feed2sitemap -run TestCLIReference -update -->\n\n")
	b.WriteString("Every command and flag of `feed2sitemap`, generated from the program itself, so it cannot drift from\n")
	b.WriteString("`--help`. What the flags do in depth: [behaviour notes](behaviour.md); the rules of `validate`:\n")
	b.WriteString("[validation rules](validation-rules.md).\n\n")
	b.WriteString("```\n" + app.Help + "\n```\n\n")
	b.WriteString("## Commands\n\n| command | what it does |\n|---|---|\n")
	for _, n := range commands(app.Node) {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", n.Path(), anchor(n), cell(n.Help))
	}
	b.WriteString("\n## Global flags\n\nAccepted by every command.\n\n")
	writeFlags(&b, app.Flags)
	for _, n := range commands(app.Node) {
		writeCommand(&b, n)
	}
	page := b.String()
	for _, name := range testOnlyFormats {
		page = strings.NewReplacer("`"+name+"`, ", "", name+", ", "").Replace(page)
	}
	return []byte(page)
}

// commands lists the visible commands under n, depth first, in the
// model's order.
func commands(n *kong.Node) []*kong.Node {
	var out []*kong.Node
	for _, c := range n.Children {
		if c.Type != kong.CommandNode || c.Hidden {
			continue
		}
		out = append(out, c)
		out = append(out, commands(c)...)
	}
	return out
}

// anchor is the GitHub anchor of a command's heading.
func anchor(n *kong.Node) string {
	return strings.ReplaceAll("feed2sitemap-"+n.Path(), " ", "-")
}

func writeCommand(b *bytes.Buffer, n *kong.Node) {
	fmt.Fprintf(b, "\n## feed2sitemap %s\n\n", n.Path())
	fmt.Fprintf(b, "```\nfeed2sitemap %s\n```\n\n", n.Summary())
	b.WriteString(n.Help + "\n")
	if n.Detail != "" {
		b.WriteString("\n" + n.Detail + "\n")
	}
	if n.Parent != nil && n.Parent.DefaultCmd == n {
		b.WriteString("\nThis is the default command: `feed2sitemap INPUT...` runs it.\n")
	}
	if len(n.Positional) > 0 {
		b.WriteString("\n### Arguments\n\n| argument | required | meaning |\n|---|---|---|\n")
		for _, p := range n.Positional {
			name := strings.ToUpper(p.Name)
			if p.IsCumulative() {
				name += "..."
			}
			req := "no"
			if p.Required {
				req = "yes"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s |\n", name, req, cell(p.Help))
		}
	}
	// Flags in kong's groups, the ungrouped first, each group in the
	// order of its first flag.
	var order []string
	groups := map[string][]*kong.Flag{}
	for _, f := range n.Flags {
		if f.Hidden {
			continue
		}
		title := ""
		if f.Group != nil {
			title = f.Group.Title
		}
		if _, ok := groups[title]; !ok {
			order = append(order, title)
		}
		groups[title] = append(groups[title], f)
	}
	if len(order) > 0 {
		b.WriteString("\n### Flags\n")
	}
	for _, title := range order {
		if title != "" {
			fmt.Fprintf(b, "\n#### %s\n", title)
		}
		b.WriteString("\n")
		writeFlags(b, groups[title])
	}
}

func writeFlags(b *bytes.Buffer, flags []*kong.Flag) {
	b.WriteString("| flag | default | values | env | meaning |\n|---|---|---|---|---|\n")
	for _, f := range flags {
		if f.Hidden {
			continue
		}
		name := "`--" + f.Name
		if !f.IsBool() && !f.IsCounter() {
			name += " " + f.FormatPlaceHolder()
		}
		name += "`"
		if f.Short != 0 {
			name = fmt.Sprintf("`-%c`, %s", f.Short, name)
		}
		name = strings.ReplaceAll(name, "|", `\|`)
		if f.IsSlice() {
			name += " (repeatable)"
		}
		def := ""
		if f.HasDefault && f.Default != "" {
			def = "`" + f.Default + "`"
		}
		if f.Required {
			def = "required"
		}
		var values []string
		for _, v := range f.EnumSlice() {
			if v = strings.TrimSpace(v); v != "" {
				values = append(values, "`"+v+"`")
			}
		}
		var envs []string
		for _, e := range f.Envs {
			envs = append(envs, "`"+e+"`")
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", name, def, strings.Join(values, ", "), strings.Join(envs, ", "), cell(f.Help))
	}
}

// cell makes help text safe in a Markdown table cell.
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "[", `\[`, "]", `\]`).Replace(s)
}
