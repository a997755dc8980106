package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestText(t *testing.T) {
	inner := &Error{Code: "E-IO-003", Msg: "zip entry 'x' not found", Hint: "rebuild it"}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"plain", errors.New("boom"), "boom"},
		{"coded with hint", inner, "zip entry 'x' not found"},
		{"wrapped", fmt.Errorf("missing murmur.yaml: %w", inner), "missing murmur.yaml: zip entry 'x' not found"},
		{"lines joined", errors.New("a\nb"), "a; b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.err); got != tc.want {
				t.Errorf("Text = %q, want %q", got, tc.want)
			}
		})
	}
}
