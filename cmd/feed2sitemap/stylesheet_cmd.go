package main

import (
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

// stylesheetCmd writes the default XSL stylesheet.
type stylesheetCmd struct {
	Output string `short:"o" placeholder:"FILE" help:"Write the stylesheet to FILE, replacing it atomically (through a symbolic link), instead of standard output."`
}

// Run writes the stylesheet.
func (c *stylesheetCmd) Run(e *env) error {
	if !isStdout(c.Output) {
		if err := checkOutput("-o", c.Output); err != nil {
			return err
		}
		return atomicfile.WriteFile(c.Output, stylesheet.Default(), 0o644)
	}
	_, err := e.Stdout.Write(stylesheet.Default())
	return err
}
