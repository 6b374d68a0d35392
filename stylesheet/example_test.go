package stylesheet_test

import (
	"bytes"
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

func ExampleDefault() {
	xsl := stylesheet.Default()
	// Serve it beside the sitemap, as /sitemap.xsl with stylesheet.MediaType,
	// and name it in the sitemap:
	//   <?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
	fmt.Println(bytes.HasPrefix(xsl, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)))
	fmt.Println(stylesheet.FileName, stylesheet.MediaType)
	// Output:
	// true
	// sitemap.xsl text/xsl; charset=utf-8
}
