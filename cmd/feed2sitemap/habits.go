package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// helpCommand turns "help [COMMAND...]" into "[COMMAND...] --help", unless
// a file named help is there to be read.
func helpCommand(args []string) []string {
	if len(args) == 0 || args[0] != "help" {
		return args
	}
	if _, err := os.Stat("help"); err == nil {
		return args
	}
	return append(slices.Clone(args[1:]), "--help")
}

// checkArgs catches two slips before kong reads args: a long flag typed
// with one dash (-output, which kong would read as -o utput), and a
// mistyped command (valdiate), which convert, the default command, would
// read as an input file. A file of that name is read as usual.
func checkArgs(parser *kong.Kong, args []string) error {
	long := map[string]bool{}
	var commands []string
	for _, node := range parser.Model.Leaves(false) {
		for _, f := range node.AllFlags(false) {
			for _, flag := range f {
				long[flag.Name] = true
			}
		}
	}
	for _, f := range parser.Model.Flags {
		long[f.Name] = true
	}
	commands = append(commands, "help")
	for _, c := range parser.Model.Children {
		if !c.Hidden {
			commands = append(commands, c.Name)
		}
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(a, "=")
		if len(name) > 2 && name[0] == '-' && name[1] != '-' && long[name[1:]] {
			return usageError{fmt.Errorf("%s: a flag with a long name takes two dashes: -%s (one dash is for one-letter flags such as -o)", a, a)}
		}
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "/") || strings.Contains(args[0], ".") {
		return nil
	}
	first := args[0]
	if slices.Contains(commands, first) {
		return nil
	}
	if _, err := os.Lstat(first); err == nil {
		return nil
	}
	best, dist := "", 3
	for _, c := range commands {
		if d := editDistance(strings.ToLower(first), c); d < dist && d <= max(1, len(c)/3) {
			best, dist = c, d
		}
	}
	if best == "" {
		return nil
	}
	return usageError{fmt.Errorf("%q is not a command, nor a file here: did you mean %s? (feed2sitemap help lists the commands)", first, best)}
}

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment) between a and b: a swap of two neighbours counts one.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// versionString is what --version prints: the version set at build time,
// else the module version Go recorded (go install module@version), else
// the revision and time of the checkout it was built from (go build in a
// git checkout), never a bare "(devel)".
func versionString() string {
	info, _ := debug.ReadBuildInfo()
	return "feed2sitemap " + describeBuild(version, info)
}

// buildVersion is the short version, for the User-Agent: the version set
// at build time or recorded by Go, else devel and the revision.
func buildVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			return "devel-" + s.Value[:min(12, len(s.Value))]
		}
	}
	return "devel"
}

// describeBuild describes a build from the version set with -ldflags and
// the build information.
func describeBuild(set string, info *debug.BuildInfo) string {
	if set != "" {
		return set
	}
	if info == nil {
		return "(devel: no build information recorded)"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = ""
	}
	var rev, when, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", with uncommitted changes"
			}
		}
	}
	switch {
	case v != "":
	case rev != "":
		v = "(devel) revision " + rev[:min(12, len(rev))]
		if when != "" {
			v += " of " + when
		}
		v += dirty
	default:
		v = "(devel: built without version control information; go install github.com/feed2sitemap/feed2sitemap/cmd/feed2sitemap@latest, or go build in a git checkout, records one)"
	}
	if info.GoVersion != "" {
		v += ", " + info.GoVersion
	}
	return v
}

// stdinByDefault returns names, or "-" when there are none and standard
// input is not a terminal (feed2sitemap < urls.txt, or a pipe). With no
// name and a terminal there is nothing to read: a usage error.
func (e *env) stdinByDefault(names []string) ([]string, error) {
	if len(names) > 0 {
		return names, nil
	}
	if e.Stdin == nil || e.isTerminal(e.Stdin) {
		return nil, usageError{fmt.Errorf("no input: name a file or an http(s) URL, or give - or pipe one in to read standard input (feed2sitemap help shows examples)")}
	}
	return []string{"-"}, nil
}
