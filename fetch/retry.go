package fetch

import (
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of RetryPolicy.
const (
	// DefaultRetries is how many times a request is tried again.
	DefaultRetries = 2
	// DefaultBackoff is the first back-off.
	DefaultBackoff = 500 * time.Millisecond
	// DefaultMaxWait caps one wait before trying again, and the
	// Retry-After a server may ask for.
	DefaultMaxWait = 60 * time.Second
)

// RetryPolicy says when a request that failed is tried again, and how long
// to wait first. The zero value tries no request again; DefaultRetryPolicy
// returns the defaults.
type RetryPolicy struct {
	// Retries is how many more attempts a request gets after the first,
	// when the answer is 429 Too Many Requests or a 5xx status, or the
	// request failed on the network (a time-out included).
	Retries int
	// Base is the back-off before the first retry; it doubles with each
	// further one. 0 means DefaultBackoff.
	Base time.Duration
	// MaxWait caps every wait. A server that asks (with Retry-After) for a
	// longer wait is not tried again. 0 means DefaultMaxWait.
	MaxWait time.Duration
}

// DefaultRetryPolicy returns the policy of DefaultRetries retries with the
// default back-off and cap.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{Retries: DefaultRetries, Base: DefaultBackoff, MaxWait: DefaultMaxWait}
}

// Retryable reports whether an answer with the HTTP status code is worth
// trying again: 429 Too Many Requests and the 5xx server errors. Other
// statuses (a 404, a 403) would only be answered the same way.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500 && status <= 599
}

// Backoff returns how long to wait before retry number attempt (1 for the
// first retry): Base doubled for each earlier retry, capped at MaxWait,
// with jitter that picks a wait between half of that and all of it, so
// that clients that failed together do not come back together.
func (p RetryPolicy) Backoff(attempt int) time.Duration {
	d := p.maxWait()
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 32 {
		if b := p.base() << (attempt - 1); b > 0 && b < d {
			d = b
		}
	}
	return d/2 + rand.N(d/2+1)
}

// Wait returns how long to wait before retry number attempt of a request
// whose answer had the header h (nil after a network error), and false
// when it should not be tried again because the server asked, with
// Retry-After, for a wait longer than MaxWait. A Retry-After the server
// gives is honoured (in seconds or as an HTTP date, measured from now);
// otherwise the wait is the back-off.
func (p RetryPolicy) Wait(attempt int, h http.Header, now time.Time) (time.Duration, bool) {
	if h != nil {
		if d, ok := ParseRetryAfter(h.Get("Retry-After"), now); ok {
			return d, d <= p.maxWait()
		}
	}
	return p.Backoff(attempt), true
}

func (p RetryPolicy) base() time.Duration {
	if p.Base > 0 {
		return p.Base
	}
	return DefaultBackoff
}

func (p RetryPolicy) maxWait() time.Duration {
	if p.MaxWait > 0 {
		return p.MaxWait
	}
	return DefaultMaxWait
}

// ParseRetryAfter parses the value of a Retry-After header: a number of
// seconds ("120") or an HTTP date ("Wed, 21 Oct 2015 07:28:00 GMT"), which
// is measured from now. A date in the past means no wait. ok is false for
// an empty or malformed value, or a negative number of seconds.
func ParseRetryAfter(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		n, err := strconv.ParseUint(v, 10, 63)
		if err != nil {
			if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
				return time.Duration(math.MaxInt64), true
			}
			return 0, false
		}
		if n > uint64(math.MaxInt64/int64(time.Second)) {
			return time.Duration(math.MaxInt64), true
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d = t.Sub(now); d < 0 {
		d = 0
	}
	return d, true
}
