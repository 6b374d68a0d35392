package asciiset_test

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
)

func ExampleSet_Span() {
	digits := asciiset.Of(func(c byte) bool { return '0' <= c && c <= '9' })
	fmt.Println(digits.Span("2026-11-27"))
	// Output: 4
}
