package formats

// The protocol's limits, declared here only: the readers, the writers,
// package output (which splits at them), validate and the command refer to
// these.
const (
	// MaxURLs is the most entries one file may hold, whatever its format;
	// a sitemap index lists at most as many sitemaps.
	MaxURLs = 50000
	// MaxBytes is the most bytes one file may hold, uncompressed, header
	// and footer counted.
	MaxBytes = 52428800
	// MaxLocLength is the longest loc the protocol allows, in bytes of the
	// encoded URL.
	MaxLocLength = 2048
	// MaxImages is the most images one URL may list; Extensions.Merge and
	// the readers keep no more.
	MaxImages = 1000
	// MaxNews is the most news:news entries one sitemap file may hold
	// (Google's news sitemap rule); package output splits a set at it like
	// at MaxURLs.
	MaxNews = 1000
)
