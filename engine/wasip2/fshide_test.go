package wasip2

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// TestHiddenHostCalls covers the hidden-entry refusals for calls and
// argument spellings a preview1 guest cannot make directly: metadata
// hashes, descriptors opened on the root another way, two descriptors.
func TestHiddenHostCalls(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"tools", "sub"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := testHost(t)
	c, err := NewCtx(Grants{Dirs: []DirGrant{{Host: dir, Guest: ".", Hide: []string{"tools/"}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	root := h.call(t, c, "wasi:filesystem/preopens#get-directories").([]any)[0].([]any)[0].(wit.Resource)
	open := func(p string) wit.Resource {
		return h.call(t, c, fsTypes+"open-at", root, uint64(1), p, uint64(2), uint64(1)).(wit.ResultValue).Value.(wit.Resource)
	}
	sub, again := open("sub"), open("sub/..")
	now := wit.VariantValue{Case: 1}
	cases := []struct {
		name, fn string
		args     []any
		want     string
	}{
		{"metadata hash", "metadata-hash-at", []any{root, uint64(1), "tools"}, "no-entry"},
		{"metadata hash no follow", "metadata-hash-at", []any{root, uint64(0), ".//tools/"}, "no-entry"},
		{"stat through", "stat-at", []any{root, uint64(0), "sub/../TOOLS/x"}, "no-entry"},
		{"root reopened", "stat-at", []any{again, uint64(1), "tools"}, "no-entry"},
		{"root reopened mkdir", "create-directory-at", []any{again, "tools"}, "access"},
		{"from a subdirectory into hidden", "rename-at", []any{sub, "f", root, "tools"}, "access"},
		{"from a subdirectory through hidden", "rename-at", []any{sub, "f", root, "tools/f"}, "no-entry"},
		{"hidden into a subdirectory", "rename-at", []any{root, "tools", sub, "t"}, "no-entry"},
		{"link across descriptors", "link-at", []any{again, uint64(0), "tools", sub, "t"}, "no-entry"},
		{"set-times-at", "set-times-at", []any{root, uint64(0), "tools", now, now}, "no-entry"},
		{"subdirectory's own tools is not hidden", "create-directory-at", []any{sub, "tools"}, "ok"},
	}
	for _, tc := range cases {
		v := h.call(t, c, fsTypes+tc.fn, tc.args...).(wit.ResultValue)
		got := "ok"
		if v.Err {
			got = fsErrorNames[v.Value.(uint32)]
		}
		if got != tc.want {
			t.Errorf("%s: %s = %s, want %s", tc.name, tc.fn, got, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "f")); err != nil {
		t.Errorf("sub/f moved: %v", err)
	}
}
