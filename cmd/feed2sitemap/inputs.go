package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// sourceFlags are the flags of remote inputs and of following sitemap
// indexes: every command that reads inputs embeds them (`embed:""`), sets
// their network from its Run's, and reads its inputs with inputs.
type sourceFlags struct {
	NoFollow     bool `name:"no-follow" group:"Remote inputs and indexes" help:"Read a sitemap index (or robots.txt) as its list of child sitemaps instead of following it to the sitemaps it lists."`
	MaxDepth     int  `name:"max-depth" group:"Remote inputs and indexes" placeholder:"N" default:"5" help:"Follow indexes at most N levels deep, the input being level 1 (robots.txt, its index and the index's sitemaps are 3; default: ${default})."`
	Concurrency  int  `group:"Remote inputs and indexes" placeholder:"N" default:"4" help:"Fetch (or open) at most N child sitemaps at once; they are still read in the index's order (default: ${default})."`
	MaxURLsTotal int  `name:"max-urls-total" group:"Remote inputs and indexes" placeholder:"N" default:"0" help:"Stop with an error once more than N entries were read over all inputs (0: no cap)."`
	KeepGoing    bool `name:"keep-going" group:"Remote inputs and indexes" help:"Write the output even when a child sitemap failed (the exit status is still 1)."`

	netFlags `embed:""`

	once    sync.Once // makes fetcher, from the goroutines that open children too
	fetcher *fetch.Fetcher
	net     network         // the run's, bound by the parser: set by the command's Run
	stderr  io.Writer       // where the fetcher's warnings go
	ctx     context.Context // ends at the run's deadline
	stop    context.CancelFunc
	scopes  sync.Map // input name -> *fetch.Scope, the scope of its top-level input
}

// netFlags are the flags of requests, of the remote-host policy and of
// the run's deadline: in sourceFlags, and in validate, which follows
// indexes its own way.
type netFlags struct {
	Timeout           time.Duration `group:"Remote inputs and indexes" placeholder:"DURATION" default:"30s" help:"Give up on a request that takes longer, from connecting to the last byte (connecting alone: at most 10s; default: ${default})."`
	Retries           int           `group:"Remote inputs and indexes" placeholder:"N" default:"2" help:"Try a request again up to N times after a network error, a time-out, 429 or 5xx, waiting longer each time or as Retry-After says (up to 60s; default: ${default})."`
	UserAgent         string        `name:"user-agent" group:"Remote inputs and indexes" placeholder:"STRING" help:"The User-Agent to send (default: feed2sitemap/VERSION (+https://github.com/feed2sitemap/feed2sitemap))."`
	MaxInputBytes     *int64        `name:"max-input-bytes" group:"Remote inputs and indexes" placeholder:"N" help:"Stop with an error at an input larger than N bytes, counted decompressed (default: ${fetch_max_bytes} for remote inputs, no cap for files and standard input; 0: no cap)."`
	Cache             string        `group:"Remote inputs and indexes" placeholder:"DIR" help:"Keep what was fetched in DIR, and on the next run ask servers whether it changed (If-None-Match, If-Modified-Since): an unchanged answer (304) reads the copy. A DIR that cannot be used is left out with a warning."`
	AllowPrivateHosts bool          `name:"allow-private-hosts" group:"Remote inputs and indexes" help:"Fetch from loopback, link-local (169.254.0.0/16, fe80::/10), private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), unspecified and multicast addresses too. Without it, only an input named on the command line may be on one (and then that class is allowed for what it lists)."`
	FollowOtherHosts  bool          `name:"follow-other-hosts" group:"Remote inputs and indexes" help:"Follow child sitemaps (and their redirects) on other origins than the index or robots.txt that lists them. Without it, a child must be on the index's scheme, host and port."`
	Deadline          time.Duration `group:"Remote inputs and indexes" placeholder:"DURATION" default:"0s" help:"Stop the whole run with an error once it has taken longer, naming what was being fetched (0, the default: 5m per level of following, so 25m with --max-depth 5, and 10m for validate)."`
}

// deadlinePerLevel is the run's time budget per level of following, when
// --deadline is not given.
const deadlinePerLevel = 5 * time.Minute

// deadlineError is why the run's context ended at --deadline. It matches
// context.DeadlineExceeded, so that a child that fails of it stops the
// run, --keep-going or not.
type deadlineError struct{ d time.Duration }

func (e deadlineError) Error() string {
	return fmt.Sprintf("stopped: the run took longer than its deadline of %v (--deadline)", e.d)
}

func (e deadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

// isRemote reports whether an input name is a URL to fetch.
func isRemote(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// check validates the flags.
func (f *sourceFlags) check() error {
	switch {
	case f.MaxDepth < 1:
		return usageError{errors.New("--max-depth must be at least 1")}
	case f.Concurrency < 1:
		return usageError{errors.New("--concurrency must be at least 1")}
	case f.MaxURLsTotal < 0 || f.Retries < 0:
		return usageError{errors.New("--max-urls-total and --retries cannot be negative")}
	case f.Timeout <= 0:
		return usageError{errors.New("--timeout must be positive")}
	case f.MaxInputBytes != nil && *f.MaxInputBytes < 0:
		return usageError{errors.New("--max-input-bytes cannot be negative")}
	case f.Deadline < 0:
		return usageError{errors.New("--deadline cannot be negative")}
	}
	return nil
}

// start starts the run's clock, once: remote inputs and children are
// fetched within the deadline from now.
func (f *sourceFlags) start(e *env) {
	if f.ctx != nil {
		return
	}
	f.stderr = e.Stderr
	d := f.Deadline
	if d == 0 {
		d = deadlinePerLevel * time.Duration(max(f.MaxDepth, 1))
	}
	// The context ends with the process (or at the deadline); its timer
	// is all it holds.
	f.ctx, f.stop = context.WithTimeoutCause(context.Background(), d, deadlineError{d})
}

// runCtx returns ctx bounded by the run's deadline too.
func (f *sourceFlags) runCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	if f.ctx == nil {
		return context.WithCancel(ctx)
	}
	run := f.ctx
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(run, func() { cancel(context.Cause(run)) })
	return ctx, func() { stop(); cancel(context.Canceled) }
}

// maxBytes returns the cap on an input's decoded size.
func (f *sourceFlags) maxBytes(remote bool) int64 {
	switch {
	case f.MaxInputBytes != nil:
		return *f.MaxInputBytes
	case remote:
		return fetch.DefaultMaxBytes
	}
	return 0
}

// client returns the one fetcher of the run, built by its network.
func (f *sourceFlags) client() *fetch.Fetcher {
	f.once.Do(func() { f.fetcher = f.net.fetcher(f) })
	return f.fetcher
}

// remote returns the input of a URL, a top-level input with a remote-host
// scope of its own.
func (f *sourceFlags) remote(rawURL string) convert.Input {
	return convert.Input{Name: rawURL, MaxBytes: f.maxBytes(true), Open: func() (io.ReadCloser, error) {
		sc := f.client().NewScope(rawURL)
		f.scopes.Store(rawURL, sc)
		ctx, cancel := f.runCtx(context.Background())
		defer cancel()
		body, err := sc.Fetch(ctx, rawURL)
		return body, hinted(err)
	}}
}

// fetchChild fetches loc, listed by the index or robots.txt named parent,
// in the scope of parent's top-level input, and returns its body.
func (f *sourceFlags) fetchChild(ctx context.Context, parent, loc string) (*fetch.Body, error) {
	v, ok := f.scopes.Load(parent)
	if !ok {
		// An index without a location (standard input): a scope with
		// no top-level host, whose children share one origin.
		v, _ = f.scopes.LoadOrStore(parent, f.client().NewScope(""))
	}
	sc := v.(*fetch.Scope)
	var parents []string
	if isRemote(parent) {
		parents = append(parents, parent)
	}
	ctx, cancel := f.runCtx(ctx)
	defer cancel()
	body, err := sc.FetchChild(ctx, loc, parents...)
	if err == nil {
		f.scopes.LoadOrStore(loc, sc)
		f.scopes.LoadOrStore(body.URL.String(), sc)
	}
	return body, hinted(err)
}

// local returns the input of a file.
func (f *sourceFlags) local(path string) convert.Input {
	return convert.Input{Name: path, Path: path, MaxBytes: f.maxBytes(false), Open: func() (io.ReadCloser, error) { return os.Open(path) }}
}

// openChild opens a child sitemap: beside a local index, fetched for any
// other (a remote index, or one read from standard input).
func (f *sourceFlags) openChild(ctx context.Context, parent convert.Input, loc string) (convert.Input, error) {
	if parent.Path != "" {
		return convert.LocalChild(ctx, parent, loc)
	}
	in := f.remote(loc)
	body, err := f.fetchChild(ctx, parent.Name, loc)
	if err != nil {
		return in, err
	}
	// Fetched here, on the goroutine that opens children, so that several
	// are fetched at once; Run reads them in order.
	in.Open = func() (io.ReadCloser, error) { return body, nil }
	return in, nil
}

// apply sets the following options of a conversion, keeping the
// selection of children (FollowOptions.Select) the command made.
func (f *sourceFlags) apply(opts *convert.Options) {
	opts.Follow = convert.FollowOptions{Enabled: !f.NoFollow, MaxDepth: f.MaxDepth, Concurrency: f.Concurrency,
		KeepGoing: f.KeepGoing, OpenChild: f.openChild, Select: opts.Follow.Select}
	opts.Read.MaxURLsTotal = f.MaxURLsTotal
}

// inputs returns the inputs the command line names, with the defaults of
// the flags of remote inputs, on the env's network. Commands that embed
// sourceFlags call sourceFlags.inputs instead.
func (e *env) inputs(names []string) ([]convert.Input, error) {
	src := &sourceFlags{MaxDepth: convert.DefaultMaxDepth, Concurrency: convert.DefaultConcurrency,
		netFlags: netFlags{Timeout: fetch.DefaultTimeout, Retries: fetch.DefaultRetries}, net: e.network()}
	return src.inputs(e, names)
}

// inputs returns the inputs the command line names: files, http(s) URLs,
// or "-" for standard input (at most once), read as the flags say.
func (src *sourceFlags) inputs(e *env, names []string) ([]convert.Input, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	src.start(e)
	stdin := 0
	inputs := make([]convert.Input, len(names))
	for i, name := range names {
		switch {
		case name == "-":
			if stdin++; stdin > 1 {
				return nil, usageError{errors.New("standard input (-) can be read only once")}
			}
			inputs[i] = convert.Input{Name: "<stdin>", MaxBytes: src.maxBytes(false), Open: func() (io.ReadCloser, error) { return io.NopCloser(e.Stdin), nil }}
		case isRemote(name):
			inputs[i] = src.remote(name)
		default:
			inputs[i] = src.local(name)
		}
	}
	return inputs, nil
}

// failureLine describes an input that failed: its place and why.
func failureLine(s *convert.Stats, in convert.InputStats) string {
	if in.Depth > 0 {
		return fmt.Sprintf("%v (listed by %s)", in.Err, s.Inputs[in.Parent].Name)
	}
	return in.Err.Error()
}

// followed is the entries of some inputs as convert reads them, with the
// children of their indexes in their place when the options follow them:
// what diff, validate --live and --report's comparison read.
type followed struct {
	src    *convert.Source
	follow *convert.Follower
}

// openFollowed opens inputs with opts.Read, following indexes when
// opts.Follow.Enabled. Close it in every case but an error.
func openFollowed(inputs []convert.Input, opts convert.Options, obs convert.Observer) (*followed, error) {
	src, err := convert.Open(inputs, opts.Read, obs)
	if err != nil {
		src.Close()
		return nil, err
	}
	f := &followed{src: src}
	if opts.Follow.Enabled {
		f.follow = convert.Follow(src, opts.Follow)
	}
	return f, nil
}

// NextItem returns the next entry with the input it came from.
func (f *followed) NextItem() (convert.Item, error) {
	if f.follow != nil {
		return f.follow.NextItem()
	}
	return f.src.NextItem()
}

// Next returns the next entry.
func (f *followed) Next() (formats.Entry, error) {
	it, err := f.NextItem()
	return it.Entry, err
}

// Close stops the children being opened and closes the inputs.
func (f *followed) Close() {
	if f.follow != nil {
		f.follow.Close()
	}
	f.src.Close()
}
