package source

import "errors"

// ErrDamaged is matched by errors that end an input part-way but leave
// what came before intact: a document cut short, a truncated or corrupt
// gzip stream. Package formats exports it as formats.ErrDamaged, where its
// meaning is documented; the readers mark their errors with Damaged.
var ErrDamaged = errors.New("formats: input damaged")

// Damaged marks err as damage in the sense of ErrDamaged, keeping its
// message. It returns nil for nil.
func Damaged(err error) error {
	if err == nil {
		return nil
	}
	return damagedError{err}
}

// damagedError is an error that errors.Is reports as ErrDamaged too.
type damagedError struct{ err error }

func (d damagedError) Error() string        { return d.err.Error() }
func (d damagedError) Unwrap() error        { return d.err }
func (d damagedError) Is(target error) bool { return target == ErrDamaged }
