package main

import "time"

// clock tells the time of a run. The parser binds it (kong.Bind) from the
// env, so that a command takes it as an argument of Run and a test sets it
// in the env it runs the command with.
type clock func() time.Time

// clock returns the env's clock: Now, or the system's.
func (e *env) clock() clock {
	if e.Now != nil {
		return e.Now
	}
	return time.Now
}
