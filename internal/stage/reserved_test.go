package stage

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A scope naming or lying inside an entry the runtime hides from guests
// is refused before anything is written.
func TestReservedScopeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		scope   string
		workdir bool
		refused bool
	}{
		{"tools", false, true},
		{"./tools/victim", false, true},
		{"a/../tools", false, true},
		{"trace.jsonl", false, true},
		{"transcript.jsonl", false, true},
		{".murmur", true, true},
		{".murmur/ses_x/tools", true, true},
		{"tools", true, false}, // with --workdir, tools/ lives in .murmur/<id>
		{"toolsmith", false, false},
		{"data/tools", false, false},
		{".", false, false},
	} {
		t.Run(tc.scope, func(t *testing.T) {
			f := newFixture(t)
			f.wasmTool(f.local, "w", "1.0.0", "")
			opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - name: w
    version: "1.0.0"
    capabilities:
      filesystem: {scope: "` + tc.scope + `"}
`))
			if tc.workdir {
				opts.Workdir = t.TempDir()
			}
			before := tree(t, f.project)
			_, err := Stage(context.Background(), opts)
			if !tc.refused {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if codeOf(err) != CodeScope || !strings.Contains(err.Error(), "is reserved for the runtime") {
				t.Fatalf("err = %v, want the E-CAP-002 reserved-scope refusal", err)
			}
			if after := tree(t, f.project); !slices.Equal(before, after) {
				t.Fatalf("the refused stage wrote %v", after)
			}
		})
	}
}

func TestHiddenUnder(t *testing.T) {
	plain := NewWorkdir("/p/workdir/s", "/p/workdir/s", nil)
	user := NewWorkdir("/w", "/w/.murmur/s", nil)
	for _, tc := range []struct {
		s    Workdir
		dir  string
		want []string
	}{
		{plain, "/p/workdir/s", []string{"tools", "trace.jsonl", "transcript.jsonl"}},
		{plain, "/p/workdir/s/data", nil},
		{user, "/w", []string{".murmur"}},
		{user, "/w/.murmur/s", []string{"tools", "trace.jsonl", "transcript.jsonl"}}, // an on-stage hook's scope "."
		{user, "/w/src", nil},
	} {
		if got := tc.s.HiddenUnder(filepath.FromSlash(tc.dir)); !slices.Equal(got, tc.want) {
			t.Errorf("HiddenUnder(%s) = %v, want %v", tc.dir, got, tc.want)
		}
	}
}

// A scope directory an earlier session's guest replaced with a link in a
// reused --workdir must not become a preopen, whether the link leaves the
// workdir or not.
func TestScopeSymlinkIsRefused(t *testing.T) {
	for name, target := range map[string]func(work string) string{
		"outside": func(string) string { return t.TempDir() },
		"inside": func(work string) string {
			dir := filepath.Join(work, "elsewhere")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			return dir
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.wasmTool(f.local, "w", "1.0.0", "")
			work := t.TempDir()
			if err := os.Symlink(target(work), filepath.Join(work, "data")); err != nil {
				t.Fatal(err)
			}
			opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - name: w
    version: "1.0.0"
    capabilities:
      filesystem: {scope: data/in}
`))
			opts.Workdir = work
			_, err := Stage(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), "failed to create granted filesystem scope 'data/in'") || !strings.Contains(err.Error(), "is a symbolic link") {
				t.Fatalf("err = %v, want the linked scope refused", err)
			}
		})
	}
}

// A .murmur link left in a reused --workdir does not move the session's
// bookkeeping (tools/ included) to wherever it points.
func TestMurmurDirLinkIsRefused(t *testing.T) {
	f := newFixture(t)
	work, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(work, ".murmur")); err != nil {
		t.Fatal(err)
	}
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\n"))
	opts.Workdir = work
	if _, err := Stage(context.Background(), opts); err == nil || codeOf(err) != CodeIO || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Fatalf("err = %v, want the linked .murmur refused", err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Fatalf("staging wrote through the link: %v", ents)
	}
}
