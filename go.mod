module github.com/feed2sitemap/feed2sitemap

go 1.26.0

require (
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
)

require (
	github.com/alecthomas/kong v1.17.0 // indirect
	github.com/mmcdole/gofeed v1.4.2 // indirect
	github.com/mmcdole/goxpp/v2 v2.0.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
