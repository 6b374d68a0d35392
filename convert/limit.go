package convert

import "github.com/feed2sitemap/feed2sitemap/formats"

// Limiter is the step that gives the first entries of a reader and counts
// the rest.
type Limiter struct {
	src     Stream
	n       int
	given   int
	limited int
}

// Limit returns the first n entries of r, or all of them when n is 0 or
// less. The rest are still read, to the end of r, and counted (Limited):
// what comes before it (a failed input, the account of the inputs) is
// then whole.
func Limit(r formats.Reader, n int) *Limiter {
	return &Limiter{src: stream(r), n: n}
}

// Limited returns how many entries were left out so far.
func (l *Limiter) Limited() int { return l.limited }

// Next returns the next entry.
func (l *Limiter) Next() (formats.Entry, error) {
	it, err := l.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry with its input.
func (l *Limiter) NextItem() (Item, error) {
	for {
		it, err := l.src.NextItem()
		if err != nil {
			return it, err
		}
		if l.n > 0 && l.given == l.n {
			l.limited++
			continue
		}
		l.given++
		return it, nil
	}
}
