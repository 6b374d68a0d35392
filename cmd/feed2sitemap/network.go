package main

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// network is how a run reaches the web: it builds the one fetcher through
// which every request of every command goes (remote inputs and the
// sitemaps they list, submit's posts and key files, validate --live's
// checks). The parser binds it (kong.Bind) from the env, as it binds the
// clock, so that a command takes it as an argument of Run; a test sets the
// env's Network (a resolver and a dialer that reach its own servers) and
// every command gets them through this binding.
type network struct {
	hooks fetch.Policy // LookupIP and Dial: the env's, nil for the system's
}

// network returns the env's network, which the parser binds.
func (e *env) network() network { return network{hooks: e.Network} }

// fetcher returns a fetcher of the requests of a run made with the flags
// f, its warnings written to f's standard error.
func (n network) fetcher(f *sourceFlags) *fetch.Fetcher {
	policy := n.hooks
	policy.AllowPrivate, policy.OtherHosts = f.AllowPrivateHosts, f.FollowOtherHosts
	return fetch.New(fetch.Options{
		UserAgent: f.userAgent(),
		Timeout:   f.Timeout,
		MaxBytes:  f.maxBytes(true),
		Retry:     f.retry(),
		CacheDir:  f.Cache,
		Policy:    policy,
		Warn: func(err error) {
			if f.stderr != nil {
				fmt.Fprintf(f.stderr, "feed2sitemap: warning: %v (--cache)\n", err)
			}
		},
	})
}

// userAgent returns the User-Agent of the requests: --user-agent, or the
// program's own.
func (f *netFlags) userAgent() string {
	if f.UserAgent != "" {
		return f.UserAgent
	}
	return fetch.UserAgent(buildVersion())
}

// retry returns the policy of retried requests: --retries times, with the
// fetch package's waits.
func (f *netFlags) retry() fetch.RetryPolicy {
	return fetch.RetryPolicy{Retries: f.Retries, Base: fetch.DefaultBackoff, MaxWait: fetch.DefaultMaxWait}
}
