package convert

import (
	"io"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// batchSize is how many entries a pipe hands over at once.
const batchSize = 512

// pipe reads r in a goroutine of its own, a few batches ahead, so that
// reading and what consumes the entries run on two cores. Close stops the
// goroutine; it must be called.
type pipe struct {
	batches chan batch
	free    chan batch // batches the consumer is done with, to fill again
	stop    chan struct{}
	done    sync.WaitGroup
	cur     batch
	i       int
	err     error
}

type batch struct {
	entries []formats.Entry
	inputs  []int // the input of each entry
	err     error // after the entries: io.EOF or the error that ended r
}

func newPipe(r source) *pipe {
	p := &pipe{batches: make(chan batch, 4), free: make(chan batch, 6), stop: make(chan struct{})}
	p.done.Add(1)
	go p.run(r)
	return p
}

func (p *pipe) run(r source) {
	defer p.done.Done()
	defer close(p.batches)
	for {
		var b batch
		select {
		case b = <-p.free:
			// Memory that is in cache, and no garbage.
			b.entries, b.inputs, b.err = b.entries[:0], b.inputs[:0], nil
		default:
			b = batch{entries: make([]formats.Entry, 0, batchSize), inputs: make([]int, 0, batchSize)}
		}
		for len(b.entries) < batchSize && b.err == nil {
			e, err := r.Next()
			if err != nil {
				b.err = err
				break
			}
			b.entries = append(b.entries, e)
			b.inputs = append(b.inputs, r.Input())
		}
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

// Next returns the next entry of r.
func (p *pipe) Next() (formats.Entry, error) {
	for p.i == len(p.cur.entries) {
		if p.err != nil {
			return formats.Entry{}, p.err
		}
		p.recycle()
		b, ok := <-p.batches
		if !ok {
			p.err = io.EOF
			continue
		}
		p.cur, p.i, p.err = b, 0, b.err
	}
	e := p.cur.entries[p.i]
	p.cur.entries[p.i] = formats.Entry{}
	p.i++
	return e, nil
}

// recycle hands the current batch, which the consumer is done with, back
// to be filled again.
func (p *pipe) recycle() {
	if cap(p.cur.entries) == 0 {
		return
	}
	select {
	case p.free <- p.cur:
	default:
	}
	p.cur, p.i = batch{}, 0
}

// nextBatch returns the rest of the current batch, or the next one, whole;
// err is io.EOF (or the error that ended the source) with the last. What
// it returns is valid until the next call.
func (p *pipe) nextBatch() (batch, error) {
	for p.i == len(p.cur.entries) {
		if p.err != nil {
			return batch{}, p.err
		}
		p.recycle()
		b, ok := <-p.batches
		if !ok {
			p.err = io.EOF
			continue
		}
		p.cur, p.i, p.err = b, 0, b.err
	}
	b := batch{entries: p.cur.entries[p.i:], inputs: p.cur.inputs[p.i:]}
	p.i = len(p.cur.entries)
	return b, p.err
}

// Input returns the input of the last entry Next returned.
func (p *pipe) Input() int { return p.cur.inputs[p.i-1] }

// Close stops reading and waits for the goroutine to end.
func (p *pipe) Close() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.done.Wait()
}
