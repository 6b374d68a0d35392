package indexnow_test

// The -update flag of internal/golden is defined in every test binary, so
// that go test ./... -update (which rewrites golden files and the
// generated docs) runs in this package too.
import _ "github.com/feed2sitemap/feed2sitemap/internal/golden"
