package live

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNoindexHeader(t *testing.T) {
	for _, c := range []struct {
		values []string
		want   string
	}{
		{[]string{"noindex"}, "noindex"},
		{[]string{"NoIndex, nofollow"}, "NoIndex, nofollow"},
		{[]string{"none"}, "none"},
		{[]string{"nofollow"}, ""},
		{[]string{"googlebot: noindex"}, "googlebot: noindex"},
		{[]string{"BingBot: none"}, "BingBot: none"},
		{[]string{"otherbot: noindex"}, ""},
		{[]string{"unavailable_after: 25 Jun 2040 15:00:00 PST"}, ""},
		{[]string{"max-snippet: 20", "otherbot: noindex", "googlebot: noarchive, noindex"}, "googlebot: noarchive, noindex"},
		{nil, ""},
	} {
		h := http.Header{}
		for _, v := range c.values {
			h.Add("X-Robots-Tag", v)
		}
		assert.Equal(t, c.want, noindexHeader(h), "%q", c.values)
	}
}

func TestLinkCanonical(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{`<https://example.com/a>; rel="canonical"`, "https://example.com/a"},
		{`<https://example.com/a>; rel=canonical`, "https://example.com/a"},
		{`<https://cdn.example/s.css>; rel="preload"; as="style", </b>; rel="Canonical alternate"`, "/b"},
		{`<https://example.com/a>; rel="alternate"; title="x, y", <https://example.com/c>; REL="canonical"`, "https://example.com/c"},
		{`<https://example.com/a>; rel="alternate"`, ""},
		{`garbage`, ""},
	} {
		h := http.Header{}
		h.Set("Link", c.value)
		assert.Equal(t, c.want, linkCanonical(h), c.value)
	}
}

func TestReadHead(t *testing.T) {
	h := readHead(strings.NewReader(`<!DOCTYPE html><HTML><HEAD><base href="https://example.com/dir/">` +
		`<meta name="description" content="noindex in a description does not count">` +
		`<Link REL="canonical" HREF=" page ">` +
		`<meta content="none" name="bingbot"></head><body><link rel="canonical" href="/late">`))
	assert.Equal(t, &htmlHead{noindex: `<meta name="bingbot" content="none">`, canonical: "page", base: "https://example.com/dir/"}, h)
	// A head that ends with the first element of the body.
	h = readHead(strings.NewReader(`<html><head><title>x</title><p>text<meta name="robots" content="noindex">`))
	assert.Equal(t, &htmlHead{}, h)
}
