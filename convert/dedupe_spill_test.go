package convert_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// spillInputs returns two sitemaps and a URL list whose pages repeat within
// and across them: lastmods older, newer and equal, images to merge, and
// spellings that normalize alike.
func spillInputs() []convert.Input {
	sitemap := func(from, n, day int) []byte {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
		for i := from; i < from+n; i++ {
			p := (i * 7919) % 3000
			fmt.Fprintf(&b, "<url><loc>https://www.example.com/p/%d</loc>", p)
			if d := (i*31+day)%6 - 1; d > 0 {
				fmt.Fprintf(&b, "<lastmod>2024-02-%02d</lastmod>", d)
			}
			if i%4 == 1 {
				fmt.Fprintf(&b, "<image:image><image:loc>https://www.example.com/i/%d.png</image:loc></image:image>", i%5)
			}
			b.WriteString("</url>\n")
		}
		b.WriteString("</urlset>\n")
		return b.Bytes()
	}
	var list bytes.Buffer
	for i := range 4000 {
		fmt.Fprintf(&list, "HTTPS://WWW.EXAMPLE.COM:443/p/%d\n", (i*104729)%2500)
	}
	return []convert.Input{
		input("a.xml", sitemap(0, 5000, 1)),
		input("urls.txt", list.Bytes()),
		input("b.xml", sitemap(2500, 5000, 3)),
	}
}

// A tiny memory cap makes dedupe (and sort) spill to disk; the output is the
// same, byte for byte, as in memory, and so are the counts, with every
// order, for inputs with dates and extensions and for a plain URL list.
func TestRunSpillsToSameBytes(t *testing.T) {
	lists := func() []convert.Input { return spillInputs()[1:2] }
	for _, inputs := range []func() []convert.Input{spillInputs, lists} {
		// The list alone fits in 64 KiB (its table takes 8 bytes a page):
		// 16 KiB makes it spill too.
		capBytes := int64(64 << 10)
		if len(inputs()) == 1 {
			capBytes = 16 << 10
		}
		for _, order := range []convert.Order{convert.SortNone, convert.SortLoc, convert.SortLastMod} {
			run := func(maxMemory int64) (string, *convert.Stats) {
				var out bytes.Buffer
				stats, err := convert.Run(inputs(), func(o formats.WriteOptions) (formats.Writer, error) {
					return xml.Format.NewWriter(&out, o), nil
				}, convert.Options{Sort: order, MaxMemory: maxMemory, TempDir: t.TempDir()})
				require.NoError(t, err)
				return out.String(), stats
			}
			want, wantStats := run(0)
			got, stats := run(capBytes)
			name := fmt.Sprintf("%d inputs, order %d", len(inputs()), order)
			require.Greater(t, wantStats.Duplicates, 1000, name)
			assert.Equal(t, want, got, name)
			assert.Equal(t, wantStats.Written, stats.Written, name)
			assert.Equal(t, wantStats.Duplicates, stats.Duplicates, name)
			for i := range wantStats.Inputs {
				assert.Equal(t, wantStats.Inputs[i].Duplicates, stats.Inputs[i].Duplicates, name)
			}
		}
	}
}

// Gzipped inputs (some compressed, some not, several of them) spill to the
// same bytes and counts as in memory.
func TestRunSpillsGzipInputsToSameBytes(t *testing.T) {
	inputs := func() []convert.Input {
		list := spillInputs()
		for i, in := range list {
			if i == 1 {
				continue // the URL list stays plain
			}
			r, err := in.Open()
			require.NoError(t, err)
			raw, err := io.ReadAll(r)
			require.NoError(t, err)
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			_, err = zw.Write(raw)
			require.NoError(t, err)
			require.NoError(t, zw.Close())
			list[i] = input(in.Name+".gz", buf.Bytes())
		}
		return list
	}
	run := func(maxMemory int64) (string, *convert.Stats) {
		var out bytes.Buffer
		stats, err := convert.Run(inputs(), func(o formats.WriteOptions) (formats.Writer, error) {
			return xml.Format.NewWriter(&out, o), nil
		}, convert.Options{Sort: convert.SortLoc, MaxMemory: maxMemory, TempDir: t.TempDir()})
		require.NoError(t, err)
		return out.String(), stats
	}
	want, wantStats := run(0)
	got, stats := run(64 << 10)
	require.Greater(t, wantStats.Duplicates, 1000)
	require.Contains(t, want, "<image:loc>")
	assert.Equal(t, want, got)
	assert.Equal(t, wantStats.Written, stats.Written)
	assert.Equal(t, wantStats.Duplicates, stats.Duplicates)
	for i := range wantStats.Inputs {
		assert.Equal(t, wantStats.Inputs[i].Duplicates, stats.Inputs[i].Duplicates, i)
	}
}

// A local URL list whose size guesses fewer pages than a run has (the
// others come from standard input or the network, which give no size) has
// its table of pages grow from the keys read so far: the run gives the
// same bytes, counts and duplicates told as when no input gives a size, in
// memory and past a memory cap, in every order, the local list plain or
// gzipped.
func TestRunGrowsTheGuessedTableOfPages(t *testing.T) {
	dir := t.TempDir()
	var local, piped bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&local, "https://www.example.com/guide/%d\n", (i*7)%250)
	}
	for i := range 30000 {
		fmt.Fprintf(&piped, "https://www.example.com/guide/%d\n", (i*7919)%12000)
		if i%9 == 0 {
			fmt.Fprintf(&piped, "HTTPS://WWW.EXAMPLE.COM:443/guide/%d\n", i%400) // not its normal form
		}
	}
	// The local list plain, and gzipped (its size then comes from the
	// gzip trailer).
	path := filepath.Join(dir, "local.txt")
	require.NoError(t, os.WriteFile(path, local.Bytes(), 0o644))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, err := zw.Write(local.Bytes())
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	gzPath := filepath.Join(dir, "local.txt.gz")
	require.NoError(t, os.WriteFile(gzPath, gz.Bytes(), 0o644))
	gzipped := false
	inputs := func(sized bool) []convert.Input {
		l := input(path, local.Bytes())
		if gzipped {
			l = input(gzPath, gz.Bytes())
		}
		if sized {
			l.Path = l.Name
		}
		return []convert.Input{l, input("-", piped.Bytes())}
	}
	run := func(sized bool, maxMemory int64, order convert.Order) (string, []string, *convert.Stats) {
		var out bytes.Buffer
		var drops []string
		stats, err := convert.Run(inputs(sized), func(o formats.WriteOptions) (formats.Writer, error) {
			return xml.Format.NewWriter(&out, o), nil
		}, convert.Options{Sort: order, MaxMemory: maxMemory, TempDir: t.TempDir(),
			Observer: convert.Observe{Drop: func(d convert.Drop) { drops = append(drops, fmt.Sprint(d.Input, " ", d.Loc, " ", d.Detail)) }}})
		require.NoError(t, err)
		slices.Sort(drops)
		return out.String(), drops, stats
	}
	for _, order := range []convert.Order{convert.SortNone, convert.SortLoc} {
		for _, maxMemory := range []int64{0, 48 << 10} {
			gzipped = !gzipped
			name := fmt.Sprintf("order %d, memory %d, gzipped %v", order, maxMemory, gzipped)
			want, wantDrops, wantStats := run(false, maxMemory, order)
			got, drops, stats := run(true, maxMemory, order)
			require.Greater(t, wantStats.Duplicates, 18000, name)
			assert.Equal(t, want, got, name)
			assert.Equal(t, wantDrops, drops, name)
			assert.Equal(t, wantStats.Duplicates, stats.Duplicates, name)
			for i := range wantStats.Inputs {
				assert.Equal(t, wantStats.Inputs[i].Duplicates, stats.Inputs[i].Duplicates, name)
			}
		}
	}
}
