package convert

import (
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// TestMain runs the tests with strblock.Check (see testenv.Run): the
// blocks of a text list's strings used again are filled with garbage
// first, so that a string still in use when its batch was said done
// with fails the test that reads it.
func TestMain(m *testing.M) { testenv.Main(m) }
