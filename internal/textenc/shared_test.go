package textenc_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// readAs reads in with opts through reads of random sizes (seed) and
// returns what it gives, its error and every invalid character it tells.
func readAs(in []byte, opts textenc.Options, seed uint64) string {
	var each []textenc.Invalid
	opts.Each = func(c textenc.Invalid) { each = append(each, c) }
	var problems []string
	opts.Report = func(p *textenc.Problem) { problems = append(problems, p.Error()) }
	var r io.Reader = textenc.NewReader(&jerky{r: bytes.NewReader(in), rng: rand.New(rand.NewPCG(seed, 1))}, opts)
	if seed%2 == 0 {
		r = iotest.OneByteReader(r)
	}
	out, err := io.ReadAll(r)
	return fmt.Sprintf("%q %v %v %v", out, err, each, problems)
}

// jerky reads its reader in reads of random sizes.
type jerky struct {
	r   io.Reader
	rng *rand.Rand
}

func (j *jerky) Read(p []byte) (int, error) {
	return j.r.Read(p[:min(len(p), 1+j.rng.IntN(70000))])
}

// Two readers of one text that share what they find valid (Options.Shared),
// as a conversion and the check of what it reads do, each on its own
// goroutine, give what each gives alone: text valid or not, strict or not,
// marked or not, whichever reads first.
func TestSharedReadersGiveWhatEachGivesAlone(t *testing.T) {
	pieces := []string{
		"https://www.example.com/a-long-path/segment?q=1\n", "    <loc>", "é", "✓", "\t", "\r\n",
		"\x00", "\x1f", "\xff", "\xe2\x9c", "\uFFFE", "<?xml version=\"1.0\"?>\n",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 90 {
		// Valid text, with a few invalid characters here and there in
		// two texts of three, and in some runs of them.
		var in []byte
		for size := rng.IntN(300_000); len(in) < size; {
			p := pieces[rng.IntN(len(pieces))]
			if bad := p[0] < 0x20 && p[0] != '\t' && p[0] != '\r' || p[0] == 0xff || p[0] == 0xe2 && len(p) == 2 || p == "\uFFFE"; bad &&
				(n%3 == 0 || n%3 == 1 && rng.IntN(2000) > 0) {
				continue
			}
			in = append(in, p...)
		}
		a := textenc.Options{Strict: n%2 == 0}
		b := textenc.Options{Mark: true}
		wantA, wantB := readAs(in, a, uint64(n)), readAs(in, b, uint64(n+1))
		for order := range 3 {
			sh := &textenc.Shared{}
			a.Shared, b.Shared = sh, sh
			var gotA, gotB string
			switch order {
			case 0: // one after the other, each way
				gotA = readAs(in, a, uint64(n))
				gotB = readAs(in, b, uint64(n+1))
			case 1:
				gotB = readAs(in, b, uint64(n+1))
				gotA = readAs(in, a, uint64(n))
			default:
				var wg sync.WaitGroup
				wg.Go(func() { gotA = readAs(in, a, uint64(n)) })
				wg.Go(func() { gotB = readAs(in, b, uint64(n+1)) })
				wg.Wait()
			}
			if !assert.Equal(t, wantA, gotA, "text %d, order %d, first reader", n, order) ||
				!assert.Equal(t, wantB, gotB, "text %d, order %d, second reader", n, order) {
				return
			}
		}
	}
}
