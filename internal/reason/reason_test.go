package reason

import (
	"errors"
	"fmt"
	"testing"
)

func TestOf(t *testing.T) {
	errHost := errors.New("formats: bad host")
	errPlain := errors.New("no prefix here: at all")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Of(errHost), "bad host"},
		{fmt.Errorf("%w: %q", Of(errHost), "x"), `bad host: "x"`},
		{Of(errPlain), "no prefix here: at all"},
		{Of(errors.New("nothing")), "nothing"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
	if err := fmt.Errorf("x.xml:3: %w", Of(errHost)); !errors.Is(err, errHost) {
		t.Error("the sentinel is not matched through the reason")
	}
}
