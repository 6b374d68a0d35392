package stylesheet_test

import (
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// TestMain runs the tests, then says in one line which were skipped for
// want of Chromium (package testenv).
func TestMain(m *testing.M) { testenv.Main(m) }
