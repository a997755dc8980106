package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// pkg builds a minimal package whose manifest names name@version.
func pkg(t *testing.T, name, version, runtime string) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: '"+version+"'\nruntime: "+runtime+"\n", "t.wasm", "\x00asm"+name+version)
}

func meta(name, version string, platforms ...artifact.Platform) artifact.Meta {
	m := artifact.FallbackMeta(name, version)
	m.ArtifactRuntime = "tool"
	m.Platforms = append(m.Platforms, platforms...)
	return m
}

var linux = artifact.Platform{OS: "linux", Arch: "x86_64"}

func TestLocalPublishResolveLayout(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	l := NewLocal(root, nil)
	data := pkg(t, "t", "1.0.0", "tool")
	pub, err := l.Publish(ctx, meta("t", "1.0.0"), data)
	if err != nil {
		t.Fatal(err)
	}
	if pub.ArtifactID != "t@1.0.0" || pub.SHA256 != artifact.SHA256Hex(data) {
		t.Errorf("published %+v", pub)
	}
	dir := filepath.Join(root, "t", "1.0.0")
	side, _ := os.ReadFile(filepath.Join(dir, "t-1.0.0.sha256"))
	if string(side) != pub.SHA256 {
		t.Errorf("sidecar %q", side)
	}
	mj, _ := os.ReadFile(filepath.Join(dir, "t-1.0.0.meta.json"))
	var mf struct{ Meta map[string]any }
	if json.Unmarshal(mj, &mf) != nil || mf.Meta["runtime"] != "wasm" || mf.Meta["description"] != nil || !strings.Contains(string(mj), "\n  \"meta\"") {
		t.Errorf("meta.json %s", mj)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("version dir holds %d files (temporaries left?)", len(ents))
	}
	res, err := l.Resolve(ctx, "t", "1.0.0", &linux)
	if err != nil || !bytes.Equal(res.Data, data) || res.Platform != nil || res.Verify() != nil {
		t.Fatalf("generic fallback under a platform: %+v %v", res, err)
	}
}

func TestLocalErrors(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(t.TempDir(), nil)
	data := pkg(t, "t", "1", "tool")
	if _, err := l.Publish(ctx, meta("t", "1"), data); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		code diag.Code
		msg  string
	}{
		{"conflict", func() error { _, err := l.Publish(ctx, meta("t", "1"), data); return err }(), CodeConflict, "artifact t@1 already exists in registry"},
		{"reserved", func() error { _, err := l.Publish(ctx, meta("t", "Latest"), data); return err }(), CodeReserved, "version 'Latest' is reserved and cannot be published"},
		{"not found", func() error { _, err := l.Resolve(ctx, "t", "2", nil); return err }(), CodeNotFound, "artifact t@2 not found in registry"},
		{"traversal name", func() error { _, err := l.Publish(ctx, meta("../x", "1"), data); return err }(), CodeIO, "invalid artifact name '../x'"},
		{"traversal version", func() error { _, err := l.Resolve(ctx, "t", "..", nil); return err }(), CodeIO, "invalid artifact version '..'"},
		{"integrity", func() error { _, err := l.StoreInstalled(ctx, meta("t", "1"), data, "00"); return err }(), CodeIntegrity, "artifact integrity check failed for t@1"},
	} {
		var e *diag.Error
		if !errors.As(tc.err, &e) || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%s: got %v, want %s %q", tc.name, tc.err, tc.code, tc.msg)
		}
	}
	// Empty sidecar and a tampered package.
	zip, sha := l.files("t", "1", nil)
	os.WriteFile(sha, []byte("\n"), 0o644)
	if _, err := l.Resolve(ctx, "t", "1", nil); !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), "has an empty sha256 sidecar") {
		t.Errorf("empty sidecar: %v", err)
	}
	os.WriteFile(sha, []byte(artifact.SHA256Hex(data)+"\n"), 0o644)
	os.WriteFile(zip, append(data, 0), 0o644)
	res, err := l.Resolve(ctx, "t", "1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Verify(); !errors.Is(err, ErrIntegrity) {
		t.Errorf("tampered package verified: %v", err)
	}
}

func TestLocalPlatformVariants(t *testing.T) {
	ctx := context.Background()
	l := NewLocal(t.TempDir(), nil)
	mac := artifact.Platform{OS: "darwin", Arch: "aarch64"}
	lin, dar := pkg(t, "n", "1", "tool"), append(pkg(t, "n", "1", "tool"), 1)
	if _, err := l.Publish(ctx, meta("n", "1", linux), lin); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Publish(ctx, meta("n", "1", mac), dar); err != nil {
		t.Fatalf("another variant of the same version must coexist: %v", err)
	}
	if _, err := l.Publish(ctx, meta("n", "1", linux), lin); !errors.Is(err, ErrConflict) {
		t.Errorf("same variant again: %v", err)
	}
	res, err := l.Resolve(ctx, "n", "1", &mac)
	if err != nil || !bytes.Equal(res.Data, dar) || res.Platform == nil {
		t.Errorf("darwin variant: %v", err)
	}
	if _, err := l.Resolve(ctx, "n", "1", nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("no generic package, no platform: %v", err)
	}
	list, err := l.List(ctx)
	if err != nil || len(list) != 1 || list[0].Name != "n" || !slices.Equal(list[0].Platforms, []artifact.Platform{mac, linux}) {
		t.Errorf("platform-only version listed as %+v, %v (want both variants recorded)", list, err)
	}
}

func TestLocalListAndStoreInstalled(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "store")
	l := NewLocal(root, nil)
	if list, err := l.List(ctx); err != nil || len(list) != 0 {
		t.Fatalf("missing root: %v %v", list, err)
	}
	for _, nv := range [][2]string{{"b", "1"}, {"a", "2"}, {"a", "10"}} {
		data := pkg(t, nv[0], nv[1], "tool")
		if _, err := l.StoreInstalled(ctx, meta(nv[0], nv[1]), data, artifact.SHA256Hex(data)); err != nil {
			t.Fatal(err)
		}
	}
	// Version dir without meta.json: fallback meta, names from the dirs.
	os.Remove(l.metaPath("b", "1"))
	os.MkdirAll(filepath.Join(root, "c", "1"), 0o755) // empty: not listed
	list, err := l.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range list {
		got = append(got, m.ID()+":"+m.ArtifactRuntime)
	}
	if strings.Join(got, " ") != "a@10:tool a@2:tool b@1:" {
		t.Errorf("list %v", got)
	}
	// Overwrite keeps one set of files and no backups.
	data := append(pkg(t, "a", "2", "tool"), 9)
	p, err := l.StoreInstalled(ctx, meta("a", "2"), data, artifact.SHA256Hex(data))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !bytes.Equal(b, data) {
		t.Error("overwrite did not replace the package")
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 3 {
		t.Errorf("%d files after overwrite", len(ents))
	}
	// Corrupt meta.json is an error, not a silent fallback.
	os.WriteFile(l.metaPath("a", "2"), []byte("{"), 0o644)
	if _, err := l.List(ctx); err == nil {
		t.Error("invalid meta.json listed")
	}
}

func TestGlobalRoot(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if r, err := GlobalRoot(env(map[string]string{"HOME": "/h", "USERPROFILE": "/u"})); err != nil || r != filepath.Join("/h", ".murmur", "artifacts") {
		t.Errorf("HOME: %s %v", r, err)
	}
	if r, err := GlobalRoot(env(map[string]string{"USERPROFILE": "/u"})); err != nil || r != filepath.Join("/u", ".murmur", "artifacts") {
		t.Errorf("USERPROFILE: %s %v", r, err)
	}
	if _, err := GlobalRoot(env(nil)); err == nil || err.(*diag.Error).Code != CodeNoHome {
		t.Errorf("no home: %v", err)
	}
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) { os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(s), 0o644) }
	for _, tc := range []struct {
		flag, yaml string
		want       string
		err        string
	}{
		{"", "", "local", ""},
		{" LOCAL ", "registry: {remote_url: http://x}", "local", ""},
		{"http://reg:7800/", "", "http://reg:7800", ""},
		{"", "registry:\n  remote_url: ' http://a/ '\n  default: local\n", "http://a", ""},
		{"", "registry:\n  default: remote\n", "http://localhost:7800", ""},
		{"", "registry:\n  default: local\n", "local", ""},
		{"", "registry:\n  default: cloud\n", "", "invalid registry.default 'cloud' (expected local|remote)"},
		{"", "name: [\n", "", "failed to parse "},
	} {
		os.Remove(filepath.Join(dir, "murmur.yaml"))
		if tc.yaml != "" {
			write(tc.yaml)
		}
		got, err := Select(tc.flag, dir)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q/%q: %v, want %q", tc.flag, tc.yaml, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%q/%q: %v %v, want %s", tc.flag, tc.yaml, got, err, tc.want)
		}
	}
	_, err := Target{Remote: true, URL: "http://x"}.Open(func(string) string { return "" }, nil)
	if err == nil || !strings.Contains(err.Error(), "NEXUS_API_KEY is required for remote registry mode. Set it or use local mode.") {
		t.Errorf("remote without key: %v", err)
	}
}
