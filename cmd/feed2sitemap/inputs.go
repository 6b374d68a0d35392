package main

import (
	"errors"
	"io"
	"os"

	"github.com/feed2sitemap/feed2sitemap/convert"
)

// inputs returns the inputs the command line names: files, or "-" for
// standard input (at most once).
func (e *env) inputs(names []string) ([]convert.Input, error) {
	stdin := 0
	inputs := make([]convert.Input, len(names))
	for i, name := range names {
		if name == "-" {
			if stdin++; stdin > 1 {
				return nil, usageError{errors.New("standard input (-) can be read only once")}
			}
			inputs[i] = convert.Input{Name: "<stdin>", Open: func() (io.ReadCloser, error) { return io.NopCloser(e.Stdin), nil }}
			continue
		}
		inputs[i] = convert.Input{Name: name, Open: func() (io.ReadCloser, error) { return os.Open(name) }}
	}
	return inputs, nil
}
