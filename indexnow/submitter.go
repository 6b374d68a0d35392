package indexnow

import (
	"context"
	"fmt"
	"net/url"
)

// Submitter groups a stream of URLs by host into batches and sends each
// batch when it is full, or at Flush. It holds at most about MaxBatch URLs
// of every host at once, and at most 2×MaxBatch over all hosts: beyond
// that, the URLs waiting for every host are sent early (which happens only
// with thousands of hosts).
type Submitter struct {
	// Send sends one batch: Client.Send, or a function of the caller's
	// (a dry run that prints the body, say).
	Send func(context.Context, Batch) Result
	// BatchSize is the most URLs of a batch, 1 to MaxBatch; 0 is
	// MaxBatch.
	BatchSize int
	// Done, when set, is told what became of each batch, in the order they
	// were sent.
	Done func(Batch, Result)

	hosts   map[string]*[]string
	order   []string // hosts in the order their first URL came
	waiting int      // URLs held over all hosts
	results []Result
}

// maxWaiting is the most URLs a Submitter holds over all hosts.
const maxWaiting = 2 * MaxBatch

// Add queues loc, an absolute http or https URL, and sends its host's batch
// when it is full. It returns an error for a URL without a host, and ctx's
// error when it is done.
func (s *Submitter) Add(ctx context.Context, loc string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("indexnow: %q is not an absolute http(s) URL", loc)
	}
	if s.hosts == nil {
		s.hosts = map[string]*[]string{}
	}
	q := s.hosts[u.Host]
	if q == nil {
		q = new([]string)
		s.hosts[u.Host] = q
		s.order = append(s.order, u.Host)
	}
	*q = append(*q, loc)
	s.waiting++
	if len(*q) >= s.size() {
		s.send(ctx, u.Host)
	} else if s.waiting > maxWaiting {
		s.sendAll(ctx)
	}
	return nil
}

func (s *Submitter) size() int {
	if s.BatchSize <= 0 || s.BatchSize > MaxBatch {
		return MaxBatch
	}
	return s.BatchSize
}

// send sends the URLs waiting for host, as one batch.
func (s *Submitter) send(ctx context.Context, host string) {
	q := s.hosts[host]
	if len(*q) == 0 {
		return
	}
	b := Batch{Host: host, URLs: *q}
	s.waiting -= len(*q)
	*q = make([]string, 0, min(len(*q), s.size()))
	r := s.Send(ctx, b)
	s.results = append(s.results, r)
	if s.Done != nil {
		s.Done(b, r)
	}
}

// Flush sends every batch still waiting, host by host in the order their
// first URLs came, and returns the results of all the batches sent since
// the Submitter was made. It returns ctx's error when ctx is done.
func (s *Submitter) Flush(ctx context.Context) ([]Result, error) {
	s.sendAll(ctx)
	return s.results, ctx.Err()
}

// sendAll sends the URLs waiting for every host, in the order the hosts
// came, and forgets the hosts, unless ctx is done.
func (s *Submitter) sendAll(ctx context.Context) {
	for _, h := range s.order {
		if ctx.Err() != nil {
			return
		}
		s.send(ctx, h)
	}
	clear(s.hosts)
	s.order = s.order[:0]
}
