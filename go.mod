module github.com/feed2sitemap/feed2sitemap

go 1.25.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/klauspost/compress v1.20.3
	github.com/mmcdole/gofeed v1.4.2
	github.com/mmcdole/goxpp/v2 v2.0.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/net v0.58.0
	golang.org/x/sys v0.47.0
	golang.org/x/text v0.41.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
