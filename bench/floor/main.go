// Command floor is the minimal writer bench/compare.sh measures
// feed2sitemap against: it reads a URL list, one URL a line, and writes it
// as sitemap-N.xml files of at most 50,000 URLs with bufio, escaping & ' "
// < > and nothing else (no validation, normalization, dedupe, hashing or
// sync), then an index sitemap.xml listing the files.
//
//	go run ./bench/floor -base https://www.example.com/ < urls.txt
//
// It writes into the working directory.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
)

func main() {
	base := flag.String("base", "https://www.example.com/", "URL of the directory the files are served from")
	per := flag.Int("n", 50000, "URLs per file")
	flag.Parse()
	if err := run(*base, *per); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

const header = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"

func run(base string, per int) error {
	in := bufio.NewScanner(bufio.NewReaderSize(os.Stdin, 1<<20))
	in.Buffer(make([]byte, 64<<10), 1<<20)
	var f *os.File
	var w *bufio.Writer
	parts, count := 0, 0
	closePart := func() error {
		if f == nil {
			return nil
		}
		w.WriteString("</urlset>\n")
		if err := w.Flush(); err != nil {
			return err
		}
		return f.Close()
	}
	for in.Scan() {
		line := in.Bytes()
		if len(line) == 0 {
			continue
		}
		if f == nil || count == per {
			if err := closePart(); err != nil {
				return err
			}
			parts++
			var err error
			if f, err = os.Create(fmt.Sprintf("sitemap-%d.xml", parts)); err != nil {
				return err
			}
			w, count = bufio.NewWriterSize(f, 64<<10), 0
			w.WriteString(header)
		}
		w.WriteString("<url><loc>")
		last := 0
		for i, c := range line {
			var r string
			switch c {
			case '&':
				r = "&amp;"
			case '\'':
				r = "&apos;"
			case '"':
				r = "&quot;"
			case '<':
				r = "&lt;"
			case '>':
				r = "&gt;"
			default:
				continue
			}
			w.Write(line[last:i])
			w.WriteString(r)
			last = i + 1
		}
		w.Write(line[last:])
		w.WriteString("</loc></url>\n")
		count++
	}
	if err := in.Err(); err != nil {
		return err
	}
	if err := closePart(); err != nil {
		return err
	}
	idx, err := os.Create("sitemap.xml")
	if err != nil {
		return err
	}
	iw := bufio.NewWriter(idx)
	iw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := 1; i <= parts; i++ {
		fmt.Fprintf(iw, "<sitemap><loc>%ssitemap-%d.xml</loc></sitemap>\n", base, i)
	}
	iw.WriteString("</sitemapindex>\n")
	if err := iw.Flush(); err != nil {
		return err
	}
	return idx.Close()
}
