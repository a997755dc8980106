package wasip2

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// testHost registers everything on a fresh linker and records the host
// functions, so tests can call them the way a guest would.
func testHost(t testing.TB) *host {
	t.Helper()
	h := newHost(component.NewLinker(), func(*component.Store) *Ctx { return nil }, map[string]hostFn{})
	if err := h.register(); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *host) call(t *testing.T, c *Ctx, name string, args ...any) any {
	t.Helper()
	f := h.record[name]
	if f == nil {
		t.Fatalf("no host function %s", name)
	}
	v, err := f(context.Background(), c, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

const fsTypes = "wasi:filesystem/types#[method]descriptor."

// TestConfinement is the confinement matrix: every way out of a preopen is
// refused with the expected error code and nothing outside changes.
func TestConfinement(t *testing.T) {
	tmp := t.TempDir()
	in, out, other := filepath.Join(tmp, "in"), filepath.Join(tmp, "out"), filepath.Join(tmp, "other")
	for _, d := range []string{in, out, other, filepath.Join(in, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(out, "secret"), []byte("secret"), 0o644))
	must(os.WriteFile(filepath.Join(in, "file"), []byte("inside"), 0o644))
	must(os.Symlink("../out", filepath.Join(in, "esc")))
	must(os.Symlink(out, filepath.Join(in, "abs")))
	must(os.Symlink("c2", filepath.Join(in, "c1")))
	must(os.Symlink("../out/secret", filepath.Join(in, "c2")))
	must(os.Symlink("file", filepath.Join(in, "ok-link")))
	snapshot := func() string {
		var b strings.Builder
		filepath.Walk(out, func(p string, fi os.FileInfo, err error) error {
			data, _ := os.ReadFile(p)
			b.WriteString(p + "|" + fi.Mode().String() + "|" + string(data) + "\n")
			return nil
		})
		return b.String()
	}
	before := snapshot()

	h := testHost(t)
	c, err := NewCtx(Grants{Dirs: []DirGrant{{Host: in, Guest: "rw"}, {Host: in, Guest: "ro", ReadOnly: true}, {Host: other, Guest: "other"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pre := h.call(t, c, "wasi:filesystem/preopens#get-directories").([]any)
	rw := pre[0].([]any)[0].(wit.Resource)
	ro := pre[1].([]any)[0].(wit.Resource)
	oth := pre[2].([]any)[0].(wit.Resource)

	const (
		follow                = uint64(1)
		create, dir, excl, tr = uint64(1), uint64(2), uint64(4), uint64(8)
		read, write           = uint64(1), uint64(2)
	)
	// open a file read-only in ro for the descriptor-level cases
	roFile := h.call(t, c, fsTypes+"open-at", ro, follow, "file", uint64(0), read).(wit.ResultValue).Value.(wit.Resource)

	cases := []struct {
		name string
		fn   string
		args []any
		want string // error-code name, or "ok"
	}{
		{"dotdot", "open-at", []any{rw, follow, "../out/secret", uint64(0), read}, "not-permitted"},
		{"dotdot inside path", "open-at", []any{rw, follow, "sub/../../out/secret", uint64(0), read}, "not-permitted"},
		{"absolute", "open-at", []any{rw, follow, "/etc/passwd", uint64(0), read}, "not-permitted"},
		{"absolute via stat", "stat-at", []any{rw, follow, filepath.Join(out, "secret")}, "not-permitted"},
		{"symlink to outside", "open-at", []any{rw, follow, "esc/secret", uint64(0), read}, "not-permitted"},
		{"absolute symlink", "open-at", []any{rw, follow, "abs/secret", uint64(0), read}, "not-permitted"},
		{"symlink chain", "open-at", []any{rw, follow, "c1", uint64(0), read}, "not-permitted"},
		{"symlink chain stat", "stat-at", []any{rw, follow, "c1"}, "not-permitted"},
		{"symlink not followed", "open-at", []any{rw, uint64(0), "ok-link", uint64(0), read}, "loop"},
		{"symlink inside ok", "open-at", []any{rw, follow, "ok-link", uint64(0), read}, "ok"},
		{"create through escaping symlink", "open-at", []any{rw, follow, "esc/new", create, write}, "not-permitted"},
		{"guest symlink relative escape", "symlink-at", []any{rw, "../out/secret", "mine"}, "not-permitted"},
		{"guest symlink deep escape", "symlink-at", []any{rw, "../../out/secret", "sub/mine"}, "not-permitted"},
		{"guest symlink absolute", "symlink-at", []any{rw, "/etc/passwd", "mine"}, "not-permitted"},
		{"guest symlink climbing inside", "symlink-at", []any{rw, "../file", "sub/mine"}, "not-permitted"},
		{"guest symlink empty", "symlink-at", []any{rw, "", "mine"}, "no-entry"},
		{"guest symlink dot", "symlink-at", []any{rw, "./file", "mine"}, "not-permitted"},
		{"guest symlink trailing slash", "symlink-at", []any{rw, "sub/", "mine"}, "not-permitted"},
		{"guest symlink names only", "symlink-at", []any{rw, "file", "sub/mine"}, "ok"},
		{"hard link from outside", "link-at", []any{rw, uint64(0), "../out/secret", rw, "hl"}, "not-permitted"},
		{"hard link via symlink dir", "link-at", []any{rw, uint64(0), "esc/secret", rw, "hl"}, "not-permitted"},
		{"hard link to outside", "link-at", []any{rw, uint64(0), "file", rw, "../out/hl"}, "not-permitted"},
		{"hard link across preopens", "link-at", []any{rw, uint64(0), "file", oth, "hl"}, "cross-device"},
		{"rename out", "rename-at", []any{rw, "file", rw, "../out/moved"}, "not-permitted"},
		{"rename through symlink", "rename-at", []any{rw, "file", rw, "esc/moved"}, "not-permitted"},
		{"rename to other preopen", "rename-at", []any{rw, "file", oth, "moved"}, "cross-device"},
		{"unlink outside", "unlink-file-at", []any{rw, "esc/secret"}, "not-permitted"},
		{"rmdir outside", "remove-directory-at", []any{rw, "../out"}, "not-permitted"},
		{"mkdir outside", "create-directory-at", []any{rw, "esc/newdir"}, "not-permitted"},
		{"set-times outside", "set-times-at", []any{rw, follow, "esc/secret", wit.VariantValue{Case: 1}, wit.VariantValue{Case: 1}}, "not-permitted"},
		{"ro create", "open-at", []any{ro, follow, "new", create, write}, "read-only"},
		{"ro open for write", "open-at", []any{ro, follow, "file", uint64(0), write}, "read-only"},
		{"ro truncate", "open-at", []any{ro, follow, "file", tr, read}, "read-only"},
		{"ro mkdir", "create-directory-at", []any{ro, "d"}, "read-only"},
		{"ro unlink", "unlink-file-at", []any{ro, "file"}, "read-only"},
		{"ro rmdir", "remove-directory-at", []any{ro, "sub"}, "read-only"},
		{"ro rename", "rename-at", []any{ro, "file", ro, "file2"}, "read-only"},
		{"ro symlink", "symlink-at", []any{ro, "file", "l"}, "read-only"},
		{"ro link", "link-at", []any{ro, uint64(0), "file", ro, "l"}, "read-only"},
		{"ro set-times", "set-times-at", []any{ro, follow, "file", wit.VariantValue{Case: 1}, wit.VariantValue{Case: 1}}, "read-only"},
		{"ro file write stream", "write-via-stream", []any{roFile, uint64(0)}, "bad-descriptor"},
		{"ro file append", "append-via-stream", []any{roFile}, "bad-descriptor"},
		{"ro file write", "write", []any{roFile, []byte("x"), uint64(0)}, "bad-descriptor"},
		{"ro file set-size", "set-size", []any{roFile, uint64(0)}, "bad-descriptor"},
		{"ro file set-times", "set-times", []any{roFile, wit.VariantValue{Case: 1}, wit.VariantValue{Case: 1}}, "read-only"},
		{"ro subdir mkdir", "open-at", []any{ro, follow, "sub", dir, read | 32}, "read-only"},
		{"ro read ok", "open-at", []any{ro, follow, "file", uint64(0), read}, "ok"},
		{"exclusive on symlink", "open-at", []any{rw, follow, "esc", create | excl, write}, "exist"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := h.call(t, c, fsTypes+tc.fn, tc.args...).(wit.ResultValue)
			got := "ok"
			if v.Err {
				got = fsErrorNames[v.Value.(uint32)]
			}
			if got != tc.want {
				t.Errorf("%s = %s, want %s", tc.fn, got, tc.want)
			}
		})
	}
	if after := snapshot(); after != before {
		t.Errorf("outside changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if _, err := os.Lstat(filepath.Join(out, "hl")); err == nil {
		t.Error("hard link appeared outside")
	}
}
