package fetch_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	for v, want := range map[string]time.Duration{
		"0":                                0,
		"120":                              2 * time.Minute,
		" 5 ":                              5 * time.Second,
		"Sat, 21 Nov 2026 12:01:00 GMT":    time.Minute,
		"Saturday, 21-Nov-26 12:00:30 GMT": 30 * time.Second,
		"Sat Nov 21 12:00:10 2026":         10 * time.Second,
		"Sat, 21 Nov 2026 11:00:00 GMT":    0, // in the past: no wait
		"99999999999999999999":             time.Duration(1<<63 - 1),
	} {
		d, ok := fetch.ParseRetryAfter(v, now)
		assert.True(t, ok, v)
		assert.Equal(t, want, d, v)
	}
	for _, v := range []string{"", "-1", "1.5", "soon", "12 seconds", "Sat, 21 Nov 2026"} {
		_, ok := fetch.ParseRetryAfter(v, now)
		assert.False(t, ok, v)
	}
}

func TestBackoff(t *testing.T) {
	p := fetch.RetryPolicy{Base: 100 * time.Millisecond, MaxWait: time.Second}
	for attempt, max := range map[int]time.Duration{0: 100 * time.Millisecond, 1: 100 * time.Millisecond, 2: 200 * time.Millisecond,
		3: 400 * time.Millisecond, 4: 800 * time.Millisecond, 5: time.Second, 40: time.Second, 1000: time.Second} {
		for range 50 {
			d := p.Backoff(attempt)
			assert.GreaterOrEqual(t, d, max/2, attempt)
			assert.LessOrEqual(t, d, max, attempt)
		}
	}
	def := fetch.DefaultRetryPolicy()
	assert.Equal(t, fetch.RetryPolicy{Retries: 2, Base: 500 * time.Millisecond, MaxWait: time.Minute}, def)
	assert.LessOrEqual(t, fetch.RetryPolicy{}.Backoff(1), fetch.DefaultBackoff, "zero values mean the defaults")

	h := http.Header{"Retry-After": {"30"}}
	d, ok := p.Wait(1, h, now)
	assert.False(t, ok, "a server asking for more than MaxWait is not tried again")
	assert.Equal(t, 30*time.Second, d)
	d, ok = def.Wait(1, h, now)
	assert.True(t, ok)
	assert.Equal(t, 30*time.Second, d)
	d, ok = def.Wait(1, http.Header{"Retry-After": {"later"}}, now)
	assert.True(t, ok, "a malformed Retry-After falls back to the back-off")
	assert.LessOrEqual(t, d, fetch.DefaultBackoff)
	_, ok = def.Wait(2, nil, now)
	assert.True(t, ok)
}

func TestRetryable(t *testing.T) {
	for status, want := range map[int]bool{200: false, 304: false, 400: false, 403: false, 404: false, 410: false,
		429: true, 500: true, 502: true, 503: true, 504: true, 599: true, 600: false} {
		assert.Equal(t, want, fetch.Retryable(status), status)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "120", "Sat, 21 Nov 2026 12:01:00 GMT", "Saturday, 21-Nov-26 12:00:30 GMT",
		"Sat Nov 21 12:00:10 2026", "99999999999999999999", "-1", "", " 7 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := fetch.ParseRetryAfter(v, now)
		if !ok {
			return
		}
		if d < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, negative", v, d)
		}
		w, retry := fetch.DefaultRetryPolicy().Wait(1, http.Header{"Retry-After": {v}}, now)
		if w != d || retry != (d <= fetch.DefaultMaxWait) {
			t.Fatalf("Wait with Retry-After %q = %v, %v; ParseRetryAfter gives %v", v, w, retry, d)
		}
	})
}

func TestSleep(t *testing.T) {
	assert.NoError(t, fetch.Sleep(context.Background(), time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, fetch.Sleep(ctx, time.Hour), context.Canceled, "returns when ctx ends, not after the wait")
}
