package main

import (
	"errors"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/output"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// hints name the flag to try for an error of the libraries, by the
// sentinel it wraps: the libraries say what happened and know nothing of
// flags; the command says which of its flags changes the outcome.
var hints = []struct {
	err  error
	hint string
	// inside puts the hint inside a parenthesis that ends the message,
	// after a semicolon, rather than in one of its own.
	inside bool
}{
	{err: fetch.ErrOtherOrigin, hint: "--follow-other-hosts follows it", inside: true},
	{err: fetch.ErrAddressRefused, hint: "--allow-private-hosts allows it"},
	{err: formats.ErrTooLarge, hint: "--max-input-bytes sets the cap"},
	{err: formats.ErrAmbiguous, hint: "--from chooses one"},
	{err: convert.ErrTooManyURLs, hint: "--max-urls-total"},
	{err: convert.ErrGlobURL, hint: "--host keeps only a host's URLs"},
	{err: output.ErrLocked, hint: "--lock-timeout sets how long to wait"},
	{err: formats.ErrNoSiteURL, hint: "--base-url gives it: the site's URL, such as https://example.com/"},
	// What validate's text report says, rather than an error
	// (validate.Report.Hint).
	{err: validate.ErrFindingsNotShown, hint: "--max-findings"},
	{err: validate.ErrScopeUnknown, hint: "give --base-url"},
}

// reportHint is the command's validate.Report.Hint: the hint of the
// sentinel key in hints, "" for none.
func reportHint(key error) string {
	for _, x := range hints {
		if x.err == key {
			return x.hint
		}
	}
	return ""
}

// ruleHints name the flags of the command for rules of validate, by the
// rule's ID: fix, the flag that fixes its findings, added to the rule's
// fix in the reports and docs/validation-rules.md (validate.Report's
// FixHint); runBy, the flag that runs the rule, before its meaning in
// docs/validation-rules.md.
var ruleHints = map[string]struct{ fix, runBy string }{
	"session-id":     {fix: "feed2sitemap --strip-session-ids"},
	"live-status":    {runBy: "--live"},
	"live-redirect":  {runBy: "--live"},
	"live-noindex":   {runBy: "--live"},
	"live-canonical": {runBy: "--live"},
	"live-robots":    {runBy: "--live"},
}

// ruleFixHint is the command's validate.Report.FixHint.
func ruleFixHint(r *validate.Rule) string { return ruleHints[r.ID].fix }

// hinted returns err with the hint of the first sentinel of hints it
// wraps added to its message, in a parenthesis (see inside). An error
// hinted already, or that matches no sentinel, is returned as it is.
func hinted(err error) error {
	var h *hintedError
	if err == nil || errors.As(err, &h) {
		return err
	}
	for _, x := range hints {
		if errors.Is(err, x.err) {
			msg := err.Error()
			if x.inside && strings.HasSuffix(msg, ")") {
				msg = msg[:len(msg)-1] + "; " + x.hint + ")"
			} else {
				msg += " (" + x.hint + ")"
			}
			return &hintedError{err: err, msg: msg}
		}
	}
	return err
}

// hintedError is an error with a hint of the command added to its message.
type hintedError struct {
	err error
	msg string
}

func (h *hintedError) Error() string { return h.msg }
func (h *hintedError) Unwrap() error { return h.err }
