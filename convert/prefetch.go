package convert

import (
	"io"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// batchSize is how many entries a Prefetcher hands over at once.
const batchSize = 512

// Prefetcher is the step that hands entries from one goroutine to another.
type Prefetcher struct {
	batches chan batch
	free    chan batch // batches the consumer is done with, to fill again
	stop    chan struct{}
	done    sync.WaitGroup
	cur     batch
	i       int
	err     error
	strs    stringsDone // whether it says which batches of strings are done with, and the entry given last
}

type batch struct {
	items []Item
	err   error // after the items: io.EOF or the error that ended the source
}

// Prefetch reads r in a goroutine of its own, a few batches of entries
// ahead, so that reading r (and the steps r reads) and what consumes its
// entries run on two cores. The steps before it run on its goroutine:
// their Observer is called there. The entries keep their provenance.
// Close stops the goroutine; it must be called.
func Prefetch(r formats.Reader) *Prefetcher {
	p := &Prefetcher{batches: make(chan batch, 4), free: make(chan batch, 6), stop: make(chan struct{})}
	p.done.Add(1)
	go p.run(intoOf(stream(r)))
	return p
}

func (p *Prefetcher) run(r into) {
	defer p.done.Done()
	defer close(p.batches)
	for {
		var b batch
		select {
		case b = <-p.free:
			// Memory that is in cache, and no garbage.
			b.items, b.err = b.items[:0], nil
		default:
			b = batch{items: make([]Item, 0, batchSize)}
		}
		b.items, b.err = fillBatch(r, b.items)
		select {
		case p.batches <- b:
		case <-p.stop:
			return
		}
		if b.err != nil {
			return
		}
	}
}

// fillBatch fills items up to batchSize entries from r, each in its place,
// and returns them; with the error that ended r, the entries before it.
func fillBatch(r into, items []Item) ([]Item, error) {
	for n := len(items); n < batchSize; n++ {
		items = items[:n+1]
		if err := r.nextInto(&items[n]); err != nil {
			items[n] = Item{}
			return items[:n], err
		}
	}
	return items, nil
}

// Next returns the next entry.
func (p *Prefetcher) Next() (formats.Entry, error) {
	if err := p.await(); err != nil {
		return formats.Entry{}, err
	}
	it := &p.cur.items[p.i]
	p.strs.gave(it)
	p.i++
	return it.Entry, nil
}

// NextItem returns the next entry with its provenance.
func (p *Prefetcher) NextItem() (Item, error) {
	if err := p.await(); err != nil {
		return Item{}, err
	}
	it := p.cur.items[p.i]
	p.strs.gave(&it)
	p.cur.items[p.i] = Item{}
	p.i++
	return it, nil
}

func (p *Prefetcher) nextInto(it *Item) error {
	if err := p.await(); err != nil {
		return err
	}
	*it = p.cur.items[p.i]
	p.strs.gave(it)
	p.i++
	return nil
}

// await waits, when the current batch is given whole, for the next one
// that holds an entry, and returns the error that ended the source after
// the last.
func (p *Prefetcher) await() error {
	for p.i == len(p.cur.items) {
		if p.err != nil {
			return p.err
		}
		p.recycle()
		b, ok := <-p.batches
		if !ok {
			p.err = io.EOF
			continue
		}
		p.cur, p.i, p.err = b, 0, b.err
	}
	return nil
}

// recycle hands the current batch, which the consumer is done with, back
// to be filled again.
func (p *Prefetcher) recycle() {
	if cap(p.cur.items) == 0 {
		return
	}
	p.strs.done()
	select {
	case p.free <- p.cur:
	default:
	}
	p.cur, p.i = batch{}, 0
}

// nextBatch returns the rest of the current batch, or the next one, whole;
// err is io.EOF (or the error that ended the source) with the last. What
// it returns is valid until the next call.
func (p *Prefetcher) nextBatch() ([]Item, error) {
	if err := p.await(); err != nil {
		return nil, err
	}
	items := p.cur.items[p.i:]
	p.i = len(p.cur.items)
	return items, p.err
}

// Close stops reading and waits for the goroutine to end.
func (p *Prefetcher) Close() error {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.done.Wait()
	return nil
}
