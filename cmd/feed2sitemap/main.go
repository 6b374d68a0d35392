// Command feed2sitemap turns RSS, Atom and JSON feeds, URL lists, XML
// sitemaps and robots.txt files into correct sitemaps.
//
// Usage:
//
//	feed2sitemap [convert] INPUT... [-o PATH] [--to FORMAT] [flags]
//	feed2sitemap validate INPUT... [flags]
//	feed2sitemap robots --base-url URL SITEMAP... [-o FILE | --update FILE]
//	feed2sitemap submit --indexnow-key-file FILE INPUT... [flags]
//	feed2sitemap stylesheet [-o FILE]
//	feed2sitemap formats
//
// Run "feed2sitemap --help" for every flag, with examples.
package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"

	// The formats the command reads and writes, one import each: the
	// command treats each by what it says of itself (formats.Format).
	_ "github.com/feed2sitemap/feed2sitemap/formats/csv"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/html"
	_ "github.com/feed2sitemap/feed2sitemap/formats/jsonl"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// it comes from the module's build information.
var version = ""

// cli is the command line: its commands and the flags they share.
type cli struct {
	Convert    convertCmd       `cmd:"" default:"withargs" help:"Convert feeds, URL lists, sitemaps and robots.txt files into one sitemap (the default command)."`
	Formats    formatsCmd       `cmd:"" help:"List the registered readers and writers, with what each accepts."`
	Robots     robotsCmd        `cmd:"" help:"Print the robots.txt Sitemap: lines of the sitemaps written, or put them in an existing robots.txt (--update)."`
	Submit     submitCmd        `cmd:"" help:"Submit the URLs of sitemaps, feeds or URL lists to search engines with IndexNow."`
	Stylesheet stylesheetCmd    `cmd:"" help:"Write the default XSL stylesheet, which shows a sitemap or an index in a browser as a table."`
	Completion completionCmd    `cmd:"" help:"Write the shell completion script of bash, zsh or fish: commands, flags and format names."`
	Valid      validateCmd      `cmd:"" name:"validate" help:"Check sitemaps, indexes, feeds, URL lists and robots.txt files against the protocol, the schemas and search-engine rules."`
	Diff       diffCmd          `cmd:"" help:"Show the pages added, removed and changed between two sitemaps, indexes, feeds or lists (exit status 1 when they differ)."`
	Version    kong.VersionFlag `help:"Print the version and exit."`
}

const description = `Turn what a website already publishes (RSS and Atom feeds, JSON Feeds,
plain-text URL lists, XML sitemaps and sitemap indexes, robots.txt) into a
correct sitemap.

Examples:
  feed2sitemap blog.rss -o sitemap.xml          a sitemap from a feed
  feed2sitemap urls.txt > sitemap.xml           a sitemap from a URL list
  feed2sitemap sitemap.xml.gz --to text         a sitemap's URLs, one per line
  feed2sitemap a.rss b.atom old-sitemap.xml -o sitemap.xml.gz
                                                merge three sources, gzipped
  feed2sitemap https://example.com/robots.txt --to text
                                                every URL a site declares
  feed2sitemap blog.rss -o feed.atom            a feed in another format
  feed2sitemap validate sitemap.xml             what is wrong with a sitemap
  feed2sitemap formats                          what can be read and written

Exit status: 0 success (warnings allowed), 1 failure (nothing written,
unless --keep-going), 2 usage error (or, for validate, an unreadable input).`

// env is what commands get from the outside world; tests supply their own.
type env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Network holds the hooks of the remote-host policy (LookupIP, Dial)
	// that tests set to map names to addresses; the zero value is the
	// system's resolver and dialer. Commands get it as a network, bound by
	// the parser, which builds the fetcher of every request.
	Network fetch.Policy
	// Terminal reports whether one of Stdin, Stdout or Stderr is a
	// terminal; nil asks the system. Tests set it to act as a user at a
	// terminal.
	Terminal func(any) bool
	// Now tells the time (what --max-age counts from); nil is time.Now.
	// Commands get it as a clock, bound by the parser.
	Now func() time.Time
}

// isTerminal reports whether x, the env's standard input, output or error,
// is a terminal.
func (e *env) isTerminal(x any) bool {
	if w, ok := x.(io.Writer); ok {
		x = termsafe.Unwrap(w)
	}
	if e.Terminal != nil {
		return e.Terminal(x)
	}
	f, ok := x.(*os.File)
	return ok && fileIsTerminal(f)
}

func main() {
	tuneGC()
	// net/http logs some of what a server sent (an unsolicited answer,
	// a bad HTTP/2 header) with package log: not to the terminal.
	log.SetOutput(io.Discard)
	os.Exit(run(os.Args[1:], &env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}

// tuneGC sets the garbage collector as the command runs, unless GOGC
// says otherwise, and returns what undoes it (for benchmarks, which
// measure the command as it runs). The heap holds little for long (entries
// stream, and the dedupe table lives outside it), so the default would
// collect every few megabytes allocated; a few more megabytes of heap save
// a third of the collections' cost on big inputs.
func tuneGC() (undo func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// exit carries kong's request to exit (after --help or --version) out of
// the parser without calling os.Exit.
type exit int

// usageError is an error in how the command was called: exit status 2.
type usageError struct{ error }

// run runs the command line args and returns the exit status. A panic
// (a bug) ends the run with a message and status 1, never a stack trace;
// deferred clean-up, such as removing a half-written output, has run by
// then.
func run(args []string, e *env) (status int) {
	// Messages quote servers and inputs: no control character of theirs
	// reaches the terminal raw.
	safe := *e
	safe.Stderr = termsafe.NewWriter(e.Stderr)
	e = &safe
	defer func() {
		switch r := recover().(type) {
		case nil:
		case exit:
			status = int(r)
		default:
			fmt.Fprintf(e.Stderr, "feed2sitemap: internal error: %v\n"+
				"feed2sitemap: this is a bug; please report it with the input that caused it\n", r)
			status = exitFail
		}
	}()
	parser, err := newParser(e)
	if err != nil {
		fmt.Fprintf(e.Stderr, "feed2sitemap: %v\n", err)
		return exitFail
	}
	args = helpCommand(args)
	if err := checkArgs(parser, args); err != nil {
		fmt.Fprintf(e.Stderr, "feed2sitemap: error: %v\n", err)
		return exitUsage
	}
	ctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(e.Stderr, "feed2sitemap: error: %v (see feed2sitemap --help)\n", err)
		return exitUsage
	}
	if err := ctx.Run(); err != nil {
		var se statusError
		if errors.As(err, &se) {
			if se.err != nil {
				fmt.Fprintf(e.Stderr, "feed2sitemap: error: %v\n", se.err)
			}
			return se.status
		}
		fmt.Fprintf(e.Stderr, "feed2sitemap: error: %v\n", err)
		if errors.As(err, &usageError{}) {
			return exitUsage
		}
		return exitFail
	}
	return exitOK
}

// newParser builds the command line's parser, writing to e's standard
// output and error and exiting through a panic of type exit that run
// recovers. The generated CLI reference (docs/cli.md) walks its model.
func newParser(e *env) (*kong.Kong, error) {
	return kong.New(&cli{},
		kong.Name("feed2sitemap"),
		kong.Description(description),
		kong.Writers(e.Stdout, e.Stderr),
		kong.Exit(func(code int) { panic(exit(code)) }),
		kong.Vars{
			"version":   versionString(),
			"readers":   strings.Join(formatNames((*formats.Format).CanRead), ", "),
			"writers":   strings.Join(formatNames((*formats.Format).CanWrite), ", "),
			"to_enum":   "," + strings.Join(formatNames((*formats.Format).CanWrite), ","),
			"from_enum": "," + strings.Join(formatNames((*formats.Format).CanRead), ","),
			// The protocol's limits, as flag defaults and in help.
			"max_urls":        strconv.Itoa(formats.MaxURLs),
			"max_urls_text":   thousands(formats.MaxURLs),
			"max_bytes":       strconv.Itoa(formats.MaxBytes),
			"max_bytes_text":  thousands(formats.MaxBytes),
			"fetch_max_bytes": strconv.Itoa(fetch.DefaultMaxBytes),
		},
		kong.Bind(e, e.clock(), e.network()),
		kong.Help(helpWithExamples),
	)
}

// thousands writes n with a comma between groups of three digits, as help
// texts write numbers: 52,428,800.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// helpWithExamples prints kong's help, ending with examples of the
// command. The top level is compact, to fit one screen, and says where
// the flags of convert, the default command, are.
func helpWithExamples(opts kong.HelpOptions, ctx *kong.Context) error {
	cmd := ctx.Selected()
	if cmd == nil {
		opts.Compact = true
	}
	if err := kong.DefaultHelpPrinter(opts, ctx); err != nil {
		return err
	}
	if cmd == nil {
		fmt.Fprintln(ctx.Stdout, "The default command is convert: feed2sitemap help convert lists its flags.")
		return nil
	}
	if ex := commandExamples[cmd.Name]; ex != "" {
		fmt.Fprintf(ctx.Stdout, "\nExamples:\n%s", ex)
	}
	return nil
}

// commandExamples are the examples that end each command's help.
var commandExamples = map[string]string{
	"convert": `  feed2sitemap blog.rss -o sitemap.xml
  feed2sitemap https://example.com/sitemap_index.xml --to text > urls.txt
  feed2sitemap urls.txt -o public/sitemap.xml --base-url https://example.com/ --gzip
`,
	"validate": `  feed2sitemap validate sitemap.xml
  feed2sitemap validate https://example.com/robots.txt --format json
  feed2sitemap < sitemap.xml validate
`,
	"robots": `  feed2sitemap robots --base-url https://example.com/ public/sitemap.xml
  feed2sitemap robots --base-url https://example.com/ public/sitemap.xml --update public/robots.txt
`,
	"submit": `  feed2sitemap submit --indexnow-key-file indexnow.key sitemap.xml --dry-run
  feed2sitemap submit --indexnow-key-file indexnow.key blog.rss --since-state submitted.json
`,
	"stylesheet": `  feed2sitemap stylesheet -o public/sitemap.xsl
  feed2sitemap blog.rss -o public/sitemap.xml --stylesheet /sitemap.xsl
  feed2sitemap blog.rss -o sitemap.xml --stylesheet "$(feed2sitemap stylesheet --data-url)"
`,
	"formats": `  feed2sitemap formats
  feed2sitemap blog.rss --to text
`,
	"completion": `  feed2sitemap completion bash > /etc/bash_completion.d/feed2sitemap
  feed2sitemap completion zsh > "${fpath[1]}/_feed2sitemap"
  feed2sitemap completion fish > ~/.config/fish/completions/feed2sitemap.fish
`,
}
