package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// completionCmd writes a shell's completion script, made from the command
// line's model: the commands, every flag of each, and the values of flags
// that take a list (the format names of --to and --from).
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

// Run writes the script to standard output.
func (c *completionCmd) Run(ctx *kong.Context, e *env) error {
	cmds := completionModel(ctx.Model.Node)
	switch c.Shell {
	case "bash":
		return bashCompletion(e.Stdout, cmds)
	case "zsh":
		return zshCompletion(e.Stdout, cmds)
	default:
		return fishCompletion(e.Stdout, cmds)
	}
}

// completeCmd is what a completion script knows of a command.
type completeCmd struct {
	name, help string
	flags      []completeFlag
}

// completeFlag is what a completion script knows of a flag.
type completeFlag struct {
	long   string
	short  rune
	help   string
	value  bool     // takes a value
	values []string // the values it takes, when it names them
}

// completionModel returns the commands of app, convert (the default) first.
func completionModel(app *kong.Node) []completeCmd {
	var cmds []completeCmd
	for _, n := range app.Children {
		if n.Hidden {
			continue
		}
		c := completeCmd{name: n.Name, help: firstSentence(n.Help)}
		for _, group := range n.AllFlags(true) {
			for _, f := range group {
				cf := completeFlag{long: f.Name, short: f.Short, help: firstSentence(f.Help), value: !f.IsBool() && !f.IsCounter()}
				if f.Enum != "" {
					cf.values = slices.DeleteFunc(f.EnumSlice(), func(s string) bool { return s == "" })
				}
				c.flags = append(c.flags, cf)
			}
		}
		cmds = append(cmds, c)
	}
	slices.SortStableFunc(cmds, func(a, b completeCmd) int {
		return boolRank(b.name == "convert") - boolRank(a.name == "convert")
	})
	return cmds
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// firstSentence returns the first sentence of help, without the
// characters the shells' description syntax gives a meaning.
func firstSentence(help string) string {
	if i := strings.Index(help, ". "); i >= 0 {
		help = help[:i]
	}
	help = strings.TrimSuffix(help, ".")
	help = strings.Map(func(r rune) rune {
		if strings.ContainsRune("[]:'\"`$\\\n", r) {
			return -1
		}
		return r
	}, help)
	if len(help) > 70 {
		help = help[:strings.LastIndexByte(help[:70], ' ')] + "..."
	}
	return help
}

func commandNames(cmds []completeCmd) string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	return strings.Join(names, " ")
}

func bashCompletion(w io.Writer, cmds []completeCmd) error {
	var b strings.Builder
	b.WriteString(`# bash completion for feed2sitemap (feed2sitemap completion bash)
_feed2sitemap() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd=convert i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            ` + strings.ReplaceAll(commandNames(cmds), " ", "|") + `) cmd="${COMP_WORDS[i]}"; break ;;
        esac
    done
    case "$cmd $prev" in
`)
	for _, c := range cmds {
		for _, f := range c.flags {
			if len(f.values) == 0 {
				continue
			}
			pat := fmt.Sprintf("%q", c.name+" --"+f.long)
			if f.short != 0 {
				pat += fmt.Sprintf("|%q", fmt.Sprintf("%s -%c", c.name, f.short))
			}
			fmt.Fprintf(&b, "        %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", pat, strings.Join(f.values, " "))
		}
	}
	b.WriteString("    esac\n    case \"$cmd\" in\n")
	for _, c := range cmds {
		var flags, valued []string
		for _, f := range c.flags {
			flags = append(flags, "--"+f.long)
			if f.short != 0 {
				flags = append(flags, fmt.Sprintf("-%c", f.short))
			}
			if f.value {
				valued = append(valued, "--"+f.long)
			}
		}
		fmt.Fprintf(&b, "        %s) flags=%q ;;\n", c.name, strings.Join(flags, " "))
	}
	b.WriteString(`    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "` + commandNames(cmds) + `" -- "$cur"))
    fi
    COMPREPLY+=($(compgen -f -- "$cur"))
}
complete -o filenames -F _feed2sitemap feed2sitemap
`)
	_, err := io.WriteString(w, b.String())
	return err
}

func zshCompletion(w io.Writer, cmds []completeCmd) error {
	var b strings.Builder
	b.WriteString("#compdef feed2sitemap\n# zsh completion for feed2sitemap (feed2sitemap completion zsh)\n\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "_feed2sitemap_%s() {\n    _arguments -s \\\n", c.name)
		for _, f := range c.flags {
			action := ""
			switch {
			case len(f.values) > 0:
				action = fmt.Sprintf(":%s:(%s)", f.long, strings.Join(f.values, " "))
			case f.value:
				action = fmt.Sprintf(":%s:_files", f.long)
			}
			if f.short != 0 {
				fmt.Fprintf(&b, "        '(-%c --%s)'{-%c,--%s}'[%s]%s' \\\n", f.short, f.long, f.short, f.long, f.help, action)
			} else {
				fmt.Fprintf(&b, "        '--%s[%s]%s' \\\n", f.long, f.help, action)
			}
		}
		b.WriteString("        '*:input:_files'\n}\n\n")
	}
	b.WriteString("_feed2sitemap() {\n    local -a commands\n    commands=(\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "        '%s:%s'\n", c.name, c.help)
	}
	b.WriteString(`    )
    case "${words[2]}" in
        ` + strings.ReplaceAll(commandNames(cmds), " ", "|") + `)
            local cmd="${words[2]}"
            shift words
            (( CURRENT-- ))
            "_feed2sitemap_$cmd"
            ;;
        *)
            if (( CURRENT == 2 )) && [[ "$PREFIX" != -* ]]; then
                _describe -t commands command commands
            fi
            _feed2sitemap_convert
            ;;
    esac
}

_feed2sitemap "$@"
`)
	_, err := io.WriteString(w, b.String())
	return err
}

func fishCompletion(w io.Writer, cmds []completeCmd) error {
	var b strings.Builder
	names := commandNames(cmds)
	b.WriteString("# fish completion for feed2sitemap (feed2sitemap completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c feed2sitemap -n '__fish_use_subcommand' -a %s -d '%s'\n", c.name, c.help)
	}
	for _, c := range cmds {
		cond := "__fish_seen_subcommand_from " + c.name
		if c.name == "convert" {
			cond = "not __fish_seen_subcommand_from " + strings.TrimPrefix(names, "convert ")
		}
		for _, f := range c.flags {
			fmt.Fprintf(&b, "complete -c feed2sitemap -n '%s' -l %s", cond, f.long)
			if f.short != 0 {
				fmt.Fprintf(&b, " -s %c", f.short)
			}
			switch {
			case len(f.values) > 0:
				fmt.Fprintf(&b, " -x -a '%s'", strings.Join(f.values, " "))
			case f.value:
				b.WriteString(" -r")
			}
			fmt.Fprintf(&b, " -d '%s'\n", f.help)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
