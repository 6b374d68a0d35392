package uri_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

func TestTrimSpace(t *testing.T) {
	assert.Equal(t, "x", uri.TrimSpace("\ufeff\u00a0\u2003\t\r\n x \u200b\u3000"))
	assert.Equal(t, "a b", uri.TrimSpace(" a b "))
}
