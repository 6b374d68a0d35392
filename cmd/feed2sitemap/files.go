package main

import (
	"errors"
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// isStdout reports whether the value of an output flag means standard
// output: none, "-", or /dev/stdout, which is written to the standard
// output the command was given, whatever it is (a terminal, a pipe, a
// file), never replaced as a file.
func isStdout(name string) bool { return name == "" || name == "-" || name == "/dev/stdout" }

// checkOutput checks, before anything is read, that the file an output
// flag names can be written as internal/atomicfile writes it: a regular
// file or a link to one (written through), or a new file in a directory
// that exists. Anything else is a usage error.
func checkOutput(flag, path string) error {
	if _, err := atomicfile.Target(path); err != nil {
		return outputError(flag, err)
	}
	return nil
}

// outputError makes an error about the file an output flag names a usage
// error, saying how to write to standard output when it names a device.
func outputError(flag string, err error) error {
	hint := ""
	if errors.Is(err, atomicfile.ErrNotRegular) && flag == "-o" {
		hint = " (to write to standard output, omit -o or give -o -; to discard the output, redirect standard output to /dev/null)"
	}
	return usageError{fmt.Errorf("%s: %w%s", flag, err, hint)}
}

// sameFileError is the usage error of an output flag that names a file
// the command reads or writes otherwise.
func sameFileError(flag, path, what string) error {
	return usageError{fmt.Errorf("%s %s is %s: writing it would destroy it; give %s a file of its own", flag, path, what, flag)}
}
