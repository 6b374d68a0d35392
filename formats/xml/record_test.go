package xml_test

import (
	encxml "encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// traceRecorded reads data with a reader observed by a Recording, marking
// each entry's end, cut after every `every` entries, and replays the cuts
// in order into a spaceFieldTracer, which writes each entry down at its
// mark: it returns the trace, to compare with the trace of the tracer
// observing the reader itself.
func traceRecorded(data []byte, opts formats.ReadOptions, every int) []string {
	// The reader keeps its observer: the recording is swapped under it.
	rec := &recordingSwitch{&xml.Recording{}}
	r := xml.NewObservedReaderSize(strings.NewReader(string(data)), opts, 0, rec)
	var cuts []*xml.Recording
	var entries []string
	var end string
	for n := 0; n <= len(data)+1; n++ {
		e, err := r.Next()
		if err != nil {
			end = fmt.Sprintf("Next: %v", err)
			break
		}
		rec.Mark()
		entries = append(entries, "entry "+e.Loc)
		if len(entries)%every == 0 {
			cuts = append(cuts, rec.Recording)
			rec.Recording = &xml.Recording{}
		}
	}
	cuts = append(cuts, rec.Recording)
	t := &spaceFieldTracer{}
	observing, i := true, 0
	for _, c := range cuts {
		observing = c.Replay(t, func() { t.add("%s", entries[i]); i++ }, observing)
		c.Reset()
		if c.Len() != 0 {
			panic("Reset left calls")
		}
	}
	t.add("%s", end)
	return t.trace
}

// recordingSwitch is the observer of a reader whose calls go to the
// Recording it holds, which is swapped at each cut.
type recordingSwitch struct{ *xml.Recording }

// checkRecordedSame fails when what a Recording replays differs from what
// the observer is given observing the reader itself.
func checkRecordedSame(t testing.TB, data []byte) {
	t.Helper()
	for _, opts := range []formats.ReadOptions{{Base: diffBase}, {Strict: true}} {
		want := traceObservedBy(&spaceFieldTracer{}, data, strings.NewReader(string(data)), opts, 0)
		for _, every := range []int{1, 2, 1 << 30} {
			got := traceRecorded(data, opts, every)
			if i := firstDifference(want, got); i >= 0 {
				t.Fatalf("strict=%v, cut every %d entries: the replay differs on %q\nat token %d: observed %q, replayed %q",
					opts.Strict, every, data, i, at(want, i), at(got, i))
			}
		}
	}
}

func TestRecordingReplaysWhatItWasGiven(t *testing.T) {
	// Whole documents and damaged ones, with text, entities, attributes,
	// processing instructions and a DOCTYPE: replayed, in one piece or
	// cut at every entry, the observer is given what it is given
	// observing the reader itself, each entry's end in its place.
	docs := append([]string{
		urlset + "\n<url>\n  <loc>https://example.com/a?x=1&amp;y=2</loc>\n  <lastmod>2024-01-01</lastmod>\n</url>\n" +
			`<url><loc>https://example.com/b</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/b.png</image:loc></image:image></url>` +
			"<!-- a comment --><url><loc><![CDATA[https://example.com/c]]></loc></url>\n</urlset>\n",
		"<?xml version=\"1.0\"?>\n<!DOCTYPE urlset>\n" + urlset + `<url><loc>https://example.com/</loc></url></urlset>`,
	}, observedDocs...)
	for _, doc := range docs {
		checkRecordedSame(t, []byte(doc))
	}
}

func TestRecordingReplayStops(t *testing.T) {
	// An observer that stops on replay is given nothing more, End
	// included, as the reader gives it nothing more; the marks still
	// come, and the next Recording of the same reading gives it nothing.
	name := encxml.Name{Local: "url"}
	first, second := &xml.Recording{}, &xml.Recording{}
	for _, rec := range []*xml.Recording{first, second} {
		for range 3 {
			rec.StartElement(name, []encxml.Attr{{Name: encxml.Name{Local: "a"}, Value: "b"}}, 1, 1)
			rec.Field(encxml.Name{Local: "loc"}, []byte("https://example.com/"), 1, 6, 1, 11, 1, 31)
			rec.EndElement(name, 1, 37)
			rec.Mark()
		}
	}
	second.End(nil, 2, 1)
	s := &stopper{after: 4}
	marks := 0
	observing := first.Replay(fieldStopper{s}, func() { marks++ }, true)
	assert.False(t, observing)
	observing = second.Replay(fieldStopper{s}, func() { marks++ }, observing)
	assert.False(t, observing)
	assert.Equal(t, 4, s.seen, "nothing after the tag that stopped it")
	assert.False(t, s.ended, "no End once stopped")
	assert.Equal(t, 6, marks)

	// Not stopped, End ends the observing.
	s = &stopper{after: 100}
	assert.True(t, first.Replay(fieldStopper{s}, nil, true))
	assert.False(t, second.Replay(fieldStopper{s}, nil, true))
	assert.True(t, s.ended)
}

// FuzzRecordingReplaysAsObserved checks that what a Recording replays is
// what the observer is given observing the reader itself, whatever the
// document.
func FuzzRecordingReplaysAsObserved(f *testing.F) {
	for _, doc := range observedDocs {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecordedSame(t, data)
	})
}

func TestRecordingBytes(t *testing.T) {
	// Bytes grows with the text and the attributes recorded, and Reset
	// brings it back to nothing.
	rec := &xml.Recording{}
	assert.Zero(t, rec.Bytes())
	rec.CharData([]byte(strings.Repeat("x", 10_000)), 1, 1)
	text := rec.Bytes()
	assert.Greater(t, text, 10_000)
	rec.StartElement(encxml.Name{Local: "url"}, []encxml.Attr{{Name: encxml.Name{Local: "a"}, Value: strings.Repeat("v", 5_000)}}, 2, 1)
	assert.Greater(t, rec.Bytes(), text+5_000)
	rec.Reset()
	assert.Zero(t, rec.Bytes())
	assert.Zero(t, rec.Len())
}
