package host

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// fakeRegistry serves one package, optionally with a wrong digest.
type fakeRegistry struct {
	data   []byte
	sha    string
	rt     artifact.RuntimeType
	called int
}

func (f *fakeRegistry) Resolve(_ context.Context, name, version string, _ *artifact.Platform) (*registry.Resolved, error) {
	f.called++
	return &registry.Resolved{Name: name, Version: version, Data: f.data, SHA256: f.sha,
		Meta: artifact.Meta{Name: name, Version: version, Runtime: f.rt}}, nil
}

func skillZip(t *testing.T, name, text string) []byte {
	return testguest.Zip(t, "murmur.yaml", "name: "+name+"\nversion: 1.0.0\nruntime: skill\ndescription: How to write\n", "skill.md", text)
}

func TestRegistryPuller(t *testing.T) {
	dir := t.TempDir()
	lockPath := filepath.Join(dir, "murmur.lock")
	toolsDir := filepath.Join(dir, "workdir", "tools")
	pinned := lockfile.New()
	pinned.Upsert(lockfile.Entry{Name: "other", ResolvedVersion: "2.0.0", SHA256: lockfile.Hashes{Wasm: strings.Repeat("a", 64)}})
	if err := lockfile.Write(lockPath, pinned); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(lockPath)
	data := skillZip(t, "style", "# guidance")
	inv := tools.NewStagedInventory(nil, nil, nil)
	set := tools.NewToolSet()
	newPuller := func(reg registry.Resolver) *tools.RegistryPuller {
		return &tools.RegistryPuller{Sources: []install.Source{{Name: "registry", Resolver: reg}}, LockPath: lockPath, ToolsDir: toolsDir, Inventory: inv, Tools: set,
			NewTool: func(_ context.Context, a tools.PulledArtifact) (tools.Tool, error) {
				return &tools.SkillTool{Name: a.Name, Text: a.Skill}, nil
			}}
	}
	unchanged := func(t *testing.T) {
		t.Helper()
		if after, _ := os.ReadFile(lockPath); !bytes.Equal(after, before) {
			t.Fatalf("murmur.lock changed:\n%s", after)
		}
		if _, err := os.Stat(toolsDir); !os.IsNotExist(err) {
			t.Fatalf("files were written: %v", err)
		}
	}

	t.Run("tampered", func(t *testing.T) {
		reg := &fakeRegistry{data: data, sha: strings.Repeat("0", 64), rt: artifact.Static}
		_, err := newPuller(reg).Pull(context.Background(), "style", "1.0.0")
		const want = "artifact integrity check failed for style@1.0.0: registry-reported hash does not match downloaded bytes"
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v, want %q", err, want)
		}
		unchanged(t)
	})
	t.Run("lock conflict", func(t *testing.T) {
		reg := &fakeRegistry{data: data, sha: artifact.SHA256Hex(data), rt: artifact.Static}
		_, err := newPuller(reg).Pull(context.Background(), "other", "2.1.0")
		want := "murmur.lock conflict for 'other': pinned other@2.0.0 (sha256 " + strings.Repeat("a", 64) +
			"), but the registry now resolves other@2.1.0 (sha256 " + artifact.SHA256Hex(data) + ") — refusing to override a pinned artifact at runtime"
		if err == nil || err.Error() != want {
			t.Fatalf("err = %v\nwant %q", err, want)
		}
		unchanged(t)
	})
	t.Run("pulled skill is staged, locked, listed and callable", func(t *testing.T) {
		reg := &fakeRegistry{data: data, sha: artifact.SHA256Hex(data), rt: artifact.Static}
		c := &Capsule{Allowlist: []string{"style"}, Tools: set, Inventory: inv, Puller: newPuller(reg)}
		sum, err := c.Pull(context.Background(), "style", "1.0.0")
		if err != nil || sum != (ArtifactSummary{Name: "style", Version: "1.0.0", Runtime: RuntimeWasm}) {
			t.Fatalf("pull = %+v, %v", sum, err)
		}
		lock, err := lockfile.Read(lockPath)
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := lock.Find("style"); !ok || e.ResolvedVersion != "1.0.0" || e.SHA256.Wasm != artifact.SHA256Hex(data) {
			t.Fatalf("lock entry = %+v", e)
		}
		if _, ok := lock.Find("other"); !ok {
			t.Fatal("existing pin lost")
		}
		// What the pull verified is what describe and invoke serve, even
		// after the staged files are replaced by links to other files.
		for _, f := range []string{"skill.md", "murmur.yaml"} {
			path := filepath.Join(toolsDir, "style", f)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("/etc/passwd", path); err != nil {
				t.Fatal(err)
			}
		}
		info, err := c.Describe("style")
		if err != nil || info.Description != "How to write" {
			t.Fatalf("describe = %+v, %v", info, err)
		}
		r, err := c.Invoke(context.Background(), "style", tools.ToolInput{})
		if err != nil || *r.Data != "# guidance" {
			t.Fatalf("invoke = %+v, %v", r, err)
		}
	})
	t.Run("a pull does not write through a planted link", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "precious")
		if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(toolsDir, "style2"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(toolsDir, "style2", "skill.md")); err != nil {
			t.Fatal(err)
		}
		reg := &fakeRegistry{data: skillZip(t, "style2", "# other"), rt: artifact.Static}
		reg.sha = artifact.SHA256Hex(reg.data)
		if _, err := newPuller(reg).Pull(context.Background(), "style2", "1.0.0"); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("pull = %v, want the planted link refused", err)
		}
		if b, _ := os.ReadFile(outside); string(b) != "precious" {
			t.Fatalf("the pull wrote through the link: %q", b)
		}
	})
}
