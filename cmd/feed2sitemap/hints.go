package main

import (
	"errors"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// hints name the flag to try for an error of the libraries, by the
// sentinel it wraps: the libraries say what happened and know nothing of
// flags; the command says which of its flags changes the outcome.
var hints = []struct {
	err  error
	hint string
}{
	{fetch.ErrOtherOrigin, "--follow-other-hosts follows it"},
	{fetch.ErrAddressRefused, "--allow-private-hosts allows it"},
	{formats.ErrTooLarge, "--max-input-bytes sets the cap"},
	{formats.ErrAmbiguous, "--from chooses one"},
	{convert.ErrTooManyURLs, "--max-urls-total"},
	{convert.ErrGlobURL, "--host keeps only a host's URLs"},
}

// hinted returns err with the hint of the first sentinel of hints it
// wraps added to its message: inside a parenthesis that ends the message,
// after a semicolon, else in a parenthesis of its own. An error hinted
// already, or that matches no sentinel, is returned as it is.
func hinted(err error) error {
	var h *hintedError
	if err == nil || errors.As(err, &h) {
		return err
	}
	for _, x := range hints {
		if errors.Is(err, x.err) {
			msg := err.Error()
			if strings.HasSuffix(msg, ")") {
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
