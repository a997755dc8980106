package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

// envOf builds an EnvFunc from pairs, so tests never see the real
// process environment.
func envOf(kv ...string) EnvFunc {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func parseCapsule(t *testing.T, src string, env ...string) (*Capsule, []Warning) {
	t.Helper()
	f, w, err := Parse([]byte(src), "", ParseOptions{Role: RoleCapsule, Env: envOf(env...)})
	if err != nil {
		t.Fatalf("unexpected error:\n%v\n--- yaml:\n%s", err, src)
	}
	return f.Capsule, w
}

func parseArtifact(t *testing.T, src string) (*Artifact, []Warning) {
	t.Helper()
	f, w, err := Parse([]byte(src), "", ParseOptions{Role: RoleArtifact, Env: envOf()})
	if err != nil {
		t.Fatalf("unexpected error:\n%v\n--- yaml:\n%s", err, src)
	}
	return f.Artifact, w
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

// expectErr parses src and checks the first error's code, path and that
// its message contains msg.
func expectErr(t *testing.T, role Role, src string, code diag.Code, path, msg string, env ...string) *diag.Error {
	t.Helper()
	_, _, err := Parse([]byte(src), "", ParseOptions{Role: role, Env: envOf(env...)})
	if err == nil {
		t.Fatalf("expected %s error, got none\n--- yaml:\n%s", code, src)
	}
	es := errs(err)
	if len(es) == 0 {
		t.Fatalf("error is not *diag.Error: %v", err)
	}
	e := es[0]
	if e.Code != code || (path != "" && e.Pos.Path != path) || !strings.Contains(e.Msg, msg) {
		t.Fatalf("got  %s %s %q\nwant %s %s %q\nall: %v", e.Code, e.Pos.Path, e.Msg, code, path, msg, err)
	}
	if e.Pos.Line == 0 && code != CodeSyntax {
		t.Errorf("error has no position: %v", e)
	}
	return e
}

func warnCodes(ws []Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Code+" "+w.Path)
	}
	return out
}

func hasWarn(ws []Warning, code, path string) bool {
	for _, w := range ws {
		if w.Code == code && (path == "" || w.Path == path) {
			return true
		}
	}
	return false
}
