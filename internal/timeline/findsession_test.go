package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestFindSession(t *testing.T) {
	work := t.TempDir()
	const (
		older = "ses_01a24e016ee27c06a07c853e3654aaaa"
		newer = "ses_01a24e016ee27c06a07c853e3654bbbb"
		inDot = "ses_01a24e016ee27c06a07c853e3654cccc" // a --workdir run's
		bait  = "ses_01a24e016ee27c06a07c853e3654ffff"
		twin  = "ses_01a24e016ee27c06a07c853e3653aaaa" // ends as older does
	)
	for _, d := range []string{older, twin, newer, filepath.Join(".murmur", inDot), "not-a-session", filepath.Join("elsewhere", bait)} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link with the session id form is not a session: it could lead
	// anywhere.
	if err := os.Symlink(filepath.Join(work, "elsewhere", bait), filepath.Join(work, "ses_01a24e016ee27c06a07c853e3654eeee")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(work, older, "transcript.jsonl")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	for _, tc := range []struct {
		name, workdir, sel, want string
		code                     diag.Code
		msg                      string
	}{
		{"newest", work, "", filepath.Join(work, ".murmur", inDot), "", ""},
		{"id", work, newer, filepath.Join(work, newer), "", ""},
		{"suffix", work, "4aaaa", filepath.Join(work, older), "", ""},
		{"suffix in .murmur", work, "cccc", filepath.Join(work, ".murmur", inDot), "", ""},
		{"directory", work, filepath.Join(work, newer), filepath.Join(work, newer), "", ""},
		{"file in a session", work, file, filepath.Join(work, older), "", ""},
		{"ambiguous", work, "aaaa", "", CodeSelect, `"aaaa" names 2 sessions`},
		{"too short", work, "aaa", "", CodeSelect, "no session in"},
		{"no match", work, "dddd", "", CodeSelect, "no session in"},
		{"a link is not a session", work, "eeee", "", CodeSelect, "no session in"},
		{"no sessions", empty, "", "", CodeSelect, "no sessions in"},
		{"no workdir", filepath.Join(empty, "missing"), "", "", CodeNotFound, "does not exist"},
		{"no such path", work, filepath.Join(work, "nope", "x"), "", CodeNotFound, "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindSession(tc.workdir, tc.sel)
			if tc.code == "" {
				if err != nil || got != tc.want {
					t.Errorf("FindSession = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			var d *diag.Error
			if !asDiag(err, &d) || d.Code != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("FindSession = %q, %v; want %s containing %q", got, err, tc.code, tc.msg)
			}
		})
	}
}

func asDiag(err error, d **diag.Error) bool {
	e, ok := err.(*diag.Error)
	*d = e
	return ok
}
