package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// previousInputs returns the files of the previous output (-o) as the
// inputs to read before the others. It takes the output's lock first, so
// that no other run changes the set between this reading and the writing,
// then reads every file through. A set that does not read cleanly (a file
// cut short, corrupt, malformed or with entries that cannot be read, or a
// part the index lists missing) is refused, naming the file and the place:
// accumulating over it would lose the rest for good. With repair, what can
// be read is accumulated instead, with a warning that counts what was
// lost. cleanup removes the copies of what could be read of damaged files.
func (c *convertCmd) previousInputs(d *destination, warn func(string)) (inputs []convert.Input, cleanup func(), err error) {
	var temps []string
	cleanup = func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	if err := d.set.Lock(c.lockTimeout()); err != nil {
		return nil, cleanup, hinted(err)
	}
	files, err := previousFiles(d.set)
	var damage *damageError
	switch {
	case errors.As(err, &damage) && c.AccumulateRepair:
		for _, p := range damage.Problems {
			warn(fmt.Sprintf("--accumulate-repair: %v: what it held is lost (how many entries is unknown)", p))
		}
	case damage != nil:
		return nil, cleanup, damageRefusal(damage)
	case err != nil:
		return nil, cleanup, fmt.Errorf("--accumulate: %w", err)
	}
	for _, path := range files {
		n, problems, stop := readPrevious(path, nil)
		if len(problems) == 0 && stop == nil {
			inputs = append(inputs, c.Sources.local(path))
			continue
		}
		first := stop
		if len(problems) > 0 {
			first = problems[0]
		}
		if !c.AccumulateRepair {
			return nil, cleanup, damageRefusal(first)
		}
		warn(fmt.Sprintf("--accumulate-repair: %s: kept %d %s, lost %s (%v)", path, n, plural(n, "entry", "entries"), lostText(problems, stop), first))
		if n == 0 {
			continue
		}
		in, tmp, err := c.salvage(d, path)
		if tmp != "" {
			temps = append(temps, tmp)
		}
		if err != nil {
			return nil, cleanup, fmt.Errorf("--accumulate-repair: %s: %w", path, err)
		}
		inputs = append(inputs, in)
	}
	return inputs, cleanup, nil
}

// damageRefusal is the error of --accumulate over a previous set that does
// not read cleanly, problem saying where.
func damageRefusal(problem error) error {
	return fmt.Errorf("--accumulate: the previous output does not read cleanly: %v; nothing was written, for accumulating over it would lose "+
		"what it held after the damage for good: restore the file (from a backup, or rebuild the set from complete inputs without --accumulate), "+
		"or give --accumulate-repair to accumulate over what can be read", problem)
}

// lostText says what a damaged file lost: the entries that could not be
// read, and what followed the error that stopped the reading.
func lostText(problems []error, stop error) string {
	skipped := 0
	for _, p := range problems {
		if pe := (*formats.ParseError)(nil); errors.As(p, &pe) && pe.Skipped {
			skipped++
		}
	}
	var lost []string
	if skipped > 0 {
		lost = append(lost, fmt.Sprintf("%d %s that could not be read", skipped, plural(skipped, "entry", "entries")))
	}
	if stop != nil {
		lost = append(lost, "what followed the damage (how many entries is unknown)")
	}
	if len(lost) == 0 {
		return "what the problem describes (how many entries is unknown)"
	}
	if len(lost) == 2 {
		return lost[0] + " and " + lost[1]
	}
	return lost[0]
}

// readPrevious reads the file at path, of the previous set, through. It
// returns how many entries it read, the problems that kept it from reading
// cleanly (warnings: an entry or a field that could not be read, content
// after the document), and the error that stopped it part-way, after
// which what the file held is lost. The entries read are written to w
// when it is not nil.
func readPrevious(path string, w formats.Writer) (n int, problems []error, stop error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	r, _, err := formats.Open(f, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: path,
		Warn: func(pe *formats.ParseError) { problems = append(problems, pe) }}})
	if err != nil {
		return 0, nil, err
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return n, problems, nil
		}
		if err != nil {
			return n, problems, err
		}
		if w != nil {
			if err := w.Write(e); err != nil {
				return n, problems, err
			}
		}
		n++
	}
}

// salvage copies what can be read of the damaged file at path to a
// temporary file, in the output's format, and returns it as the input to
// read in its place, with the temporary file's path, to remove.
func (c *convertCmd) salvage(d *destination, path string) (convert.Input, string, error) {
	tmp, err := os.CreateTemp("", "feed2sitemap-repaired-*")
	if err != nil {
		return convert.Input{}, "", err
	}
	w := d.format.NewWriter(tmp, formats.WriteOptions{Uses: formats.ExtAll})
	_, _, stop := readPrevious(path, w)
	if stop != nil && errors.Is(stop, os.ErrNotExist) {
		err = stop
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	in := c.Sources.local(tmp.Name())
	in.Name, in.Path = path+" (what could be read)", ""
	return in, tmp.Name(), err
}
