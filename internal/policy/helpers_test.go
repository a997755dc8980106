package policy

import (
	"errors"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// parseCapsule parses a capsule manifest with an empty environment, so
// tests never see the real process environment.
func parseCapsule(t *testing.T, src string) *manifest.Capsule {
	t.Helper()
	none := func(string) (string, bool) { return "", false }
	f, _, err := manifest.Parse([]byte(src), "", manifest.ParseOptions{Role: manifest.RoleCapsule, Env: none})
	if err != nil {
		t.Fatalf("unexpected error:\n%v\n--- yaml:\n%s", err, src)
	}
	return f.Capsule
}

// errs returns every *diag.Error joined in err.
func errs(err error) []*diag.Error {
	var out []*diag.Error
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var me *diag.Error
		if errors.As(e, &me) {
			out = append(out, me)
		}
	}
	walk(err)
	return out
}
