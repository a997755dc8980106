package capsule

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
)

// coded reads the first coded failure of a chain into an *Error and, where
// the session's redactor wraps the chain, redacts the fields it copies
// out of it as the chain's text is redacted: an embedder logging e.Hint
// must not log the key the runtime kept out of e.Error().
func TestCodedRedactsWhatItCopies(t *testing.T) {
	const secret = "sk-secret-0123456789abcdef"
	inner := diag.New("E-RUN-001", "the endpoint refused %s", secret).
		WithHint("check the key " + secret).At(diag.Pos{File: "/tmp/" + secret + "/murmur.yaml", Line: 3, Column: 5})
	chain := fmt.Errorf("running: %w", inner)
	cases := []struct {
		name   string
		err    error
		secret bool
	}{
		{"bare", chain, true},
		{"redacted", redact.New(secret).Error(chain), false},
		{"joined", redact.New(secret).Error(errors.Join(errors.New("other"), chain)), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *Error
			if !errors.As(coded(c.err), &e) {
				t.Fatalf("coded(%v) is no *Error", c.err)
			}
			if e.Code != "E-RUN-001" || e.Line != 3 || e.Column != 5 || !errors.Is(e, inner) {
				t.Errorf("e = %+v; want the inner failure's code and place, and the chain behind it", e)
			}
			for what, text := range map[string]string{"Error()": e.Error(), "Message": e.Message, "Hint": e.Hint, "File": e.File} {
				if strings.Contains(text, secret) != c.secret {
					t.Errorf("%s = %q; secret shown %v, want %v", what, text, !c.secret, c.secret)
				}
			}
		})
	}
	if err := errors.New("plain"); coded(err) != err {
		t.Errorf("coded changed an error with no code")
	}
	if coded(nil) != nil {
		t.Errorf("coded(nil) is not nil")
	}
}
