package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/base/diag"
)

const (
	idOld = "ses_0197aaaa000070008000000000001abc"
	idNew = "ses_0197bbbb000070008000000000002abc"
	idAlt = "ses_0197cccc0000700080000000000033ff"
)

// workdirWith makes a workdir whose sessions hold an eval.jsonl each
// with one scorer named after the session.
func workdirWith(t *testing.T, ids ...string) string {
	t.Helper()
	wd := t.TempDir()
	for _, id := range ids {
		if err := os.MkdirAll(filepath.Join(wd, id), 0o755); err != nil {
			t.Fatal(err)
		}
		line := `{"record_type":"event_score","ts":1,"turn":1,"event_type":"session_end","scorer":"` + id + `","result":"pass"}` + "\n"
		if err := os.WriteFile(filepath.Join(wd, id, EvalFile), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return wd
}

// A selector names the newest session, a path, a full id or the end of
// one (any case): Murmur's order. Only ses_* directories are sessions,
// not links to them.
func TestLocate(t *testing.T) {
	wd := workdirWith(t, idNew, idOld, idAlt)
	outside := workdirWith(t, "ses_0197dddd000070008000000000004abc")
	if err := os.Symlink(filepath.Join(outside, "ses_0197dddd000070008000000000004abc"), filepath.Join(wd, "ses_0197ffff000070008000000000009abc")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, "ses_0197eeee00007000800000000000file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, selector string
		// scorer is the session whose file is read; err the error's text.
		scorer, err string
	}{
		{"newest", "", idAlt, ""},
		{"full id", idOld, idOld, ""},
		{"suffix", "2ABC", idNew, ""},
		{"unique suffix", "33ff", idAlt, ""},
		{"ambiguous suffix", "abc", "", "ambiguous: 'abc' matches 2 sessions — provide more characters\n  " + idOld + "\n  " + idNew},
		{"no match", "9abc", "", "no session found matching suffix '9abc' in " + wd},
		{"full id not there", "ses_0197eeee000070008000000000005abc", "", "session ses_0197eeee000070008000000000005abc not found in " + wd},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Locate(wd, tc.selector)
			if tc.err != "" {
				var d *diag.Error
				if err == nil || err.Error() != tc.err || !errors.As(err, &d) || d.Code != CodeSession {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f, err := src.Read()
			if err != nil || f.Events[0].Scorer != tc.scorer || src.Path != filepath.Join(wd, tc.scorer, EvalFile) {
				t.Errorf("read %s: %+v, %v", src.Path, f, err)
			}
		})
	}
	for _, p := range []string{"some/where", "x.jsonl"} {
		if src, err := Locate(wd, p); err != nil || src.Path != p || src.workdir != "" {
			t.Errorf("%s: %+v, %v", p, src, err)
		}
	}
	for _, missing := range []string{filepath.Join(wd, "nothing"), filepath.Join(wd, idOld, EvalFile)} {
		if _, err := Locate(missing, ""); err == nil || !strings.Contains(err.Error(), "no sessions found in workdir at "+missing) {
			t.Errorf("%s: %v", missing, err)
		}
	}
}

// A session's eval.jsonl is read confined: a link planted in its place
// is refused, not followed; a missing one is E-IO-001.
func TestSourceReadConfined(t *testing.T) {
	wd := workdirWith(t, idOld, idNew)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("not an eval file"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(wd, idNew, EvalFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(wd, idNew, EvalFile)); err != nil {
		t.Fatal(err)
	}
	src, _ := Locate(wd, idNew)
	if _, err := src.Read(); !errors.Is(err, confined.ErrSymlink) {
		t.Errorf("a planted link was followed: %v", err)
	}
	if err := os.Remove(filepath.Join(wd, idOld, EvalFile)); err != nil {
		t.Fatal(err)
	}
	src, err := Locate(wd, "1abc") // a suffix: found without looking at its file
	if err != nil {
		t.Fatal(err)
	}
	var d *diag.Error
	if _, err := src.Read(); !errors.As(err, &d) || d.Code != CodeNotFound || d.Msg != "eval file not found: "+src.Path {
		t.Errorf("missing file: %v", err)
	}
}

// A file the user names is read as a session's is: never through a link
// at its last element, never a FIFO (which would hang the command),
// never more than MaxFileBytes.
func TestReadNamed(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecords(fifo); !errors.Is(err, confined.ErrNotRegular) {
		t.Errorf("fifo: %v", err)
	}
	big := filepath.Join(dir, "big.jsonl")
	if err := os.WriteFile(big, make([]byte, MaxFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecords(big); err == nil || !strings.Contains(err.Error(), "is larger than 32 MiB") {
		t.Errorf("big: %v", err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(filepath.Join(workdirWith(t, idOld), idOld, EvalFile), link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadRecords(link); !errors.Is(err, confined.ErrSymlink) {
		t.Errorf("link: %v", err)
	}
	var d *diag.Error
	if _, err := ReadRecords(filepath.Join(dir, "none", "eval.jsonl")); !errors.As(err, &d) || d.Code != CodeNotFound {
		t.Errorf("missing directory: %v", err)
	}
}
