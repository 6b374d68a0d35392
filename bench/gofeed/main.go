// Command gofeed is the reference bench/compare.sh measures feed2sitemap's
// feed reading against: it parses a feed with github.com/mmcdole/gofeed
// alone (the version go.mod names, which feed2sitemap reads feeds with),
// through its universal parser as a gofeed user would, and prints how many
// items have a link. Nothing is written: the time and memory are gofeed's.
//
//	go run ./bench/gofeed < feed.rss
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/mmcdole/gofeed"
)

func main() {
	f, err := gofeed.NewParser().Parse(bufio.NewReaderSize(os.Stdin, 1<<16))
	if err != nil {
		fmt.Fprintln(os.Stderr, "gofeed:", err)
		os.Exit(1)
	}
	n := 0
	for _, it := range f.Items {
		if it.Link != "" {
			n++
		}
	}
	fmt.Println(n)
}
