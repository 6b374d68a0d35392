package robotsfile

// The sitemap formats output writes, registered whenever this package is
// used: the names of their files are those a Sitemap: line of the set may
// have (see newFamily).
import (
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)
