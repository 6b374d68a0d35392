package convert

import "github.com/feed2sitemap/feed2sitemap/internal/strblock"

// Strings used again. A text list's reader copies each URL into a block
// of memory shared with the URLs before it (internal/strblock). Left to
// the garbage collector, those blocks are new memory all along: 1M URLs
// make 64 MB of them, which the processor's cache never holds when they
// are written, and the heap grows to four times what it keeps. Instead,
// when its reader runs ahead (readAhead), the reader uses its blocks again
// once every URL cut from them is dead, as a strblock.Recycler allows:
//   - the goroutine that parses numbers the batches it reads ahead (Begin);
//     each entry of them carries its batch's number (Item.batch), from the
//     Source to wherever it goes;
//   - the step that hands the entries to the writer last (a Prefetcher)
//     says, each time the writer is done with a batch of its own, that
//     every batch before that of the last entry it gave is done with
//     (Done): the entries go in the order they were read, and those left
//     out on the way (duplicates, filtered) are dead where they are left.
//
// Run turns the saying on (stringsDone) only where nothing between the
// reader and the writer keeps an entry, nor the writer itself
// (formats.KeepsNothing): a plain run, deduped as it streams or with its
// duplicates kept, unsorted. Anything else that keeps a loc past its entry
// copies it: the Drop told to an Observer (tally), the warnings of a
// reader. Tests run with strblock.Check, which fills a block used again
// with garbage first, so that a string still in use shows.
//
// With 1M URLs to a split index, deduped: 174 ms instead of 191, 311 ms of
// CPU instead of 338, and 80 MB at the peak instead of 94 (medians of 21
// alternating runs; see docs/performance.md).

// stringRecycler is a reader that cuts its strings from blocks it can use
// again (formats/text's Reader).
type stringRecycler interface {
	RecycleStrings(*strblock.Recycler)
}

// stringsDone is what a Prefetcher that says which batches of strings are
// done with keeps: whether it says so, and the recycler and batch of the
// entry it gave last.
type stringsDone struct {
	on    bool
	strs  *strblock.Recycler
	batch uint64
}

// gave notes the item given.
func (d *stringsDone) gave(it *Item) {
	if d.on {
		d.strs, d.batch = it.strs, it.batch
	}
}

// done says, once the consumer is done with every entry given, that the
// batches before the last entry's are done with.
func (d *stringsDone) done() {
	if d.strs != nil {
		d.strs.Done(d.batch)
	}
}
