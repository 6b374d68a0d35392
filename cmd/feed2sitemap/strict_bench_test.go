//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// writeStrictBenchSitemap writes a valid sitemap of n ASCII URLs, each
// with a lastmod, changefreq and priority, and returns its path.
func writeStrictBenchSitemap(b *testing.B, n int) string {
	b.Helper()
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	freqs := []string{"daily", "weekly", "monthly", "yearly"}
	for i := range n {
		fmt.Fprintf(&buf, "  <url>\n    <loc>https://www.example.com/news/%d/%02d/story-about-things-%d/?page=%d&amp;sort=name</loc>\n"+
			"    <lastmod>%s</lastmod>\n    <changefreq>%s</changefreq>\n    <priority>0.%d</priority>\n  </url>\n",
			2020+i%5, 1+i%12, i, i%7, day.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), freqs[i%len(freqs)], i%10)
	}
	buf.WriteString("</urlset>\n")
	path := filepath.Join(b.TempDir(), "sitemap.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkStrictConvert converts a valid 50,000-URL sitemap to a text
// list with and without --strict, side by side: --strict checks the input
// with validate's rules as it is read, which should cost at most half
// again as much (issue 15's goal: strict/plain <= 1.5). The ratio of the
// two cpu-ns/op (the process's CPU time, user and system, a run: the
// figure that the machine's load changes least) is the figure. The
// collector is set as the command sets it (tuneGC).
func BenchmarkStrictConvert(b *testing.B) {
	defer tuneGC()()
	in := writeStrictBenchSitemap(b, 50_000)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"convert", []string{in, "--to", "text"}},
		{"strict", []string{in, "--to", "text", "--strict"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			start := cpuTime(b)
			for b.Loop() {
				var stderr bytes.Buffer
				if status := run(c.args, &env{Stdin: bytes.NewReader(nil), Stdout: io.Discard, Stderr: &stderr}); status != exitOK {
					b.Fatalf("exit status %d: %s", status, stderr.String())
				}
			}
			reportCPU(b, start)
		})
	}
}

// cpuTime returns the CPU time the process has used so far, user and
// system.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time used since start, per run, as the
// metric cpu-ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}
