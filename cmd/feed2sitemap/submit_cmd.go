package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/indexnow"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// submitCmd submits the URLs of its inputs with IndexNow.
type submitCmd struct {
	Inputs          []string `arg:"" optional:"" name:"input" help:"A sitemap, sitemap index, feed, URL list or robots.txt whose URLs to submit: a file path, an http(s) URL, or - for standard input (the default when none is named and standard input is not a terminal)."`
	IndexNowKey     string   `name:"indexnow-key" env:"INDEXNOW_KEY" placeholder:"KEY" help:"The IndexNow key: 8 to 128 characters of a-z, A-Z, 0-9 and -. Each host must serve it in a text file, KEY.txt at the root of its URLs' scheme, host and port unless --key-location says where. On the command line ps and CI logs show it: prefer INDEXNOW_KEY or --indexnow-key-file. One of the three is required."`
	IndexNowKeyFile string   `name:"indexnow-key-file" placeholder:"FILE" help:"Read the IndexNow key from FILE, which holds just the key (space around it is ignored). Not with --indexnow-key; either one wins over INDEXNOW_KEY."`
	KeyLocation     string   `name:"key-location" placeholder:"URL" help:"Where the key file is, when not at KEY.txt at the root of each host: a URL on the host, or a path (/keys/KEY.txt) taken on each host. Default: none sent."`
	NoKeyCheck      bool     `name:"no-key-check" help:"Post without first checking the key file. By default each host's key file is read before its first batch (remote inputs' time-out, retries and address policy; redirects on the host only); a host that does not answer 2xx with the key gets no POST, and the run fails."`
	Endpoint        string   `placeholder:"URL" default:"https://api.indexnow.org/indexnow" help:"The IndexNow endpoint to post to (default: the shared endpoint ${default}, which forwards to every participating search engine)."`
	SinceState      string   `name:"since-state" placeholder:"FILE" help:"Submit only URLs that are new or whose lastmod changed since the submissions FILE records, and record in it those of every batch accepted."`
	Batch           int      `placeholder:"N" default:"10000" help:"At most N URLs per request, 1 to 10,000."`
	DryRun          bool     `name:"dry-run" help:"Send nothing, and read no key file: print each request's JSON body, one per line, and leave --since-state as it is."`
	From            string   `placeholder:"FORMAT" enum:"${from_enum}" default:"" help:"Read every input as FORMAT: ${readers} (default: recognized from each input's content)."`
	Host            []string `placeholder:"HOST" help:"Submit only URLs on HOST (repeatable; *.example.com matches its subdomains)."`
	Include         []string `placeholder:"GLOB" sep:"none" help:"Submit only URLs whose path matches GLOB (repeatable; the glob syntax of convert --include)."`
	Exclude         []string `placeholder:"GLOB" sep:"none" help:"Leave out URLs whose path matches GLOB (repeatable)."`
	Quiet           bool     `short:"q" xor:"verbosity" help:"Print only errors and the batches that failed."`
	Verbose         bool     `short:"v" xor:"verbosity" help:"Print every warning, and the summary even when all went well (it is printed anyway on a terminal, after a failure, in a dry run, or when child sitemaps were left out)."`

	Sources sourceFlags `embed:""`
}

// Run reads the inputs, groups their URLs by host into batches, posts each
// batch and prints what became of it.
func (c *submitCmd) Run(e *env, net network) error {
	c.Sources.net = net
	var err error
	if c.Inputs, err = e.stdinByDefault(c.Inputs); err != nil {
		return err
	}
	client, err := c.client(e)
	if err != nil {
		return err
	}
	var state *indexnow.State
	if c.SinceState != "" {
		if state, err = indexnow.LoadState(c.SinceState); err != nil {
			return fmt.Errorf("--since-state: %w", err)
		}
	}
	ctx, cancel := c.Sources.runCtx(context.Background())
	defer cancel()
	var acct submitAccount
	sub := &indexnow.Submitter{Send: client.Send, BatchSize: c.Batch}
	if c.DryRun {
		sub.Send = func(_ context.Context, b indexnow.Batch) indexnow.Result {
			body, err := client.Body(b)
			if err == nil {
				_, err = fmt.Fprintf(e.Stdout, "%s\n", body)
			}
			return indexnow.Result{Host: b.Host, URLs: len(b.URLs), Err: err}
		}
	}
	sub.Done = func(b indexnow.Batch, r indexnow.Result) {
		r.Err = hinted(r.Err)
		acct.add(r)
		if state != nil && !c.DryRun {
			state.Done(b.URLs, r.OK())
		}
		if !c.DryRun && (!c.Quiet || !r.OK()) {
			fmt.Fprintln(e.Stdout, r)
		}
	}
	w := &submitWriter{ctx: ctx, sub: sub, state: state}
	_, err = c.read(e, w)
	if state != nil && state.Changed() && !c.DryRun {
		if serr := state.Save(c.SinceState); serr != nil {
			err = errors.Join(err, fmt.Errorf("--since-state: %w", serr))
		}
	}
	if errors.Is(err, convert.ErrNoEntries) {
		err = errors.New("nothing to submit: the inputs hold no URLs")
	}
	// Quiet when all is well, as convert: the summary is for a
	// terminal, -v, or a run that failed or left something out.
	unusual := err != nil || acct.failed > 0 || c.DryRun || w.children > 0
	if !c.Quiet && (unusual || c.Verbose || e.isTerminal(e.Stderr)) {
		fmt.Fprintf(e.Stderr, "feed2sitemap: %s\n", acct.summary(w, c.DryRun, client.Endpoint))
	}
	if err == nil && acct.failed > 0 {
		err = fmt.Errorf("%d of %d %s failed: %s", acct.failed, acct.batches, plural(acct.batches, "batch", "batches"), acct.firstFailure)
		if acct.keyRefused > 0 {
			err = fmt.Errorf("%w (a host gets no POST unless it serves its key file with the key; --no-key-check posts without checking)", err)
		}
	}
	return err
}

// key returns the IndexNow key: from --indexnow-key-file, else from
// --indexnow-key or INDEXNOW_KEY (kong fills the flag from the variable).
// The two flags exclude each other; either wins over the variable. Its
// errors never show the key.
func (c *submitCmd) key() (string, error) {
	env, fromEnv := os.LookupEnv("INDEXNOW_KEY")
	fromEnv = fromEnv && env == c.IndexNowKey
	if c.IndexNowKeyFile != "" {
		if c.IndexNowKey != "" && !fromEnv {
			return "", usageError{errors.New("--indexnow-key and --indexnow-key-file exclude each other: give the key one way")}
		}
		key, err := indexnow.ReadKeyFile(c.IndexNowKeyFile)
		if err != nil {
			return "", usageError{fmt.Errorf("--indexnow-key-file: %w", err)}
		}
		return key, nil
	}
	if c.IndexNowKey == "" {
		return "", usageError{errors.New("missing flags: --indexnow-key or --indexnow-key-file (or INDEXNOW_KEY in the environment)")}
	}
	if err := indexnow.CheckKey(c.IndexNowKey); err != nil {
		from := "--indexnow-key"
		if fromEnv {
			from = "INDEXNOW_KEY"
		}
		return "", usageError{fmt.Errorf("%s: %w", from, err)}
	}
	return c.IndexNowKey, nil
}

// client checks the IndexNow flags and returns the client they describe:
// its requests follow the remote-host policy, the endpoint being a
// top-level input.
func (c *submitCmd) client(e *env) (*indexnow.Client, error) {
	key, err := c.key()
	if err != nil {
		return nil, err
	}
	for _, check := range []error{
		indexnow.CheckKeyLocation(c.KeyLocation),
		indexnow.CheckEndpoint(c.Endpoint),
	} {
		if check != nil {
			return nil, usageError{check}
		}
	}
	if c.Batch < 1 || c.Batch > indexnow.MaxBatch {
		return nil, usageError{fmt.Errorf("--batch must be 1 to %d", indexnow.MaxBatch)}
	}
	if err := c.Sources.check(); err != nil {
		return nil, err
	}
	c.Sources.start(e)
	return &indexnow.Client{
		HTTPClient:  c.Sources.client().NewScope(c.Endpoint).HTTPClient(),
		Endpoint:    c.Endpoint,
		Key:         key,
		KeyLocation: c.KeyLocation,
		Timeout:     c.Sources.Timeout,
		Retry:       c.Sources.retry(),
		UserAgent:   c.Sources.userAgent(),
		// The hosts of the URLs are no input the user named: a key file
		// on a loopback or private address is read only with
		// --allow-private-hosts (the engines could not read it anyway).
		KeyCheck:      !c.NoKeyCheck && !c.DryRun,
		KeyFileClient: c.Sources.client().NewScope("").HTTPClient(),
	}, nil
}

// read reads the inputs into w, with the machinery of convert: every input
// format, remote inputs, following indexes, dedupe and the filters. It is
// the one place the command builds its inputs.
func (c *submitCmd) read(e *env, w formats.Writer) (*convert.Stats, error) {
	inputs, err := c.Sources.inputs(e, c.Inputs)
	if err != nil {
		return nil, err
	}
	rep := &reporter{w: e.Stderr, quiet: c.Quiet, verbose: c.Verbose}
	opts := convert.Options{
		Read:     convert.ReadOptions{From: c.From},
		Filter:   convert.FilterOptions{Hosts: c.Host, Include: c.Include, Exclude: c.Exclude},
		Observer: convert.Observe{Warn: rep.warn},
		// Search engines get each page in its normal form, grouped by
		// its normal host: https://Example.com:443/a#b is
		// https://example.com/a, in example.com's batch.
		URLs: convert.RewriteOptions{Normalize: &normalize.Options{}, Normal: true},
	}
	if err := opts.Filter.Validate(); err != nil {
		return nil, usageError{err}
	}
	c.Sources.apply(&opts)
	return convert.Run(inputs, func(formats.WriteOptions) (formats.Writer, error) { return w, nil }, opts)
}

// submitWriter is the formats.Writer submit reads its inputs into: it hands
// each page's URL to the Submitter, unless the state says it is unchanged.
type submitWriter struct {
	ctx   context.Context
	sub   *indexnow.Submitter
	state *indexnow.State

	unchanged int // URLs left out as already submitted
	children  int // child sitemaps, which are not pages
}

// Write queues e's URL, which sends its host's batch when it is full.
func (w *submitWriter) Write(e formats.Entry) error {
	if e.Kind == formats.KindSitemap {
		w.children++
		return nil
	}
	if w.state != nil && !w.state.Check(e.Loc, e.LastMod.String()) {
		w.unchanged++
		return nil
	}
	return w.sub.Add(w.ctx, e.Loc)
}

// Close sends the batches still waiting.
func (w *submitWriter) Close() error {
	_, err := w.sub.Flush(w.ctx)
	return err
}

// submitAccount counts the batches and what became of them.
type submitAccount struct {
	batches, urls, failed int
	keyRefused            int // batches not posted: their host's key file did not hold the key
	hosts                 map[string]bool
	firstFailure          string
}

func (a *submitAccount) add(r indexnow.Result) {
	if a.hosts == nil {
		a.hosts = map[string]bool{}
	}
	a.batches++
	a.urls += r.URLs
	a.hosts[r.Host] = true
	if !r.OK() {
		if errors.As(r.Err, new(*indexnow.KeyFileError)) {
			a.keyRefused++
		}
		if a.failed == 0 {
			a.firstFailure = r.String()
		}
		a.failed++
	}
}

// summary is the closing line: what was submitted, what failed, what was
// left out.
func (a *submitAccount) summary(w *submitWriter, dryRun bool, endpoint string) string {
	var b strings.Builder
	verb := "submitted"
	switch {
	case dryRun:
		verb = "dry run: would submit"
	case a.failed > 0:
		verb = "tried to submit"
	}
	fmt.Fprintf(&b, "%s %d %s in %d %s for %d %s to %s", verb, a.urls, plural(a.urls, "URL", "URLs"),
		a.batches, plural(a.batches, "batch", "batches"), len(a.hosts), plural(len(a.hosts), "host", "hosts"), endpoint)
	if a.failed > 0 {
		fmt.Fprintf(&b, "; %d %s failed", a.failed, plural(a.failed, "batch", "batches"))
	}
	if w.unchanged > 0 {
		fmt.Fprintf(&b, "; %d unchanged since the last submission", w.unchanged)
	}
	if w.children > 0 {
		fmt.Fprintf(&b, "; left out %d child %s (IndexNow takes pages)", w.children, plural(w.children, "sitemap", "sitemaps"))
	}
	return b.String()
}
