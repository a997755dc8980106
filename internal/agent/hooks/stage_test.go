package hooks

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// Staging with Options.OnStage runs on-stage after the generated
// shell-tool manifests exist: a packaged on-stage hook's write-manifests
// replaces tools/git/murmur.yaml and the session's copy of it.
func TestStageRunsOnStageHooks(t *testing.T) {
	root := t.TempDir()
	project, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, d := range []string{project, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	store := registry.NewLocal(registry.ProjectRoot(project), nil)
	y := "name: gate\nversion: \"0.1.0\"\nruntime: hook\nbinding: on-stage\ncommit_policy: write-manifests\n"
	pkg := testguest.Zip(t, "murmur.yaml", y, "gate.wasm", string(testguest.Bytes(t, hookAnswer050)))
	meta := artifact.Meta{Name: "gate", Version: "0.1.0", Runtime: artifact.Wasm, ArtifactRuntime: "hook"}
	if _, err := store.Publish(context.Background(), meta, pkg); err != nil {
		t.Fatal(err)
	}
	capsule := "name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: gate, version: \"0.1.0\", runtime: hook}\ncapabilities:\n  shell:\n    allow: [git]\n"
	path := filepath.Join(project, "murmur.yaml")
	if err := os.WriteFile(path, []byte(capsule), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := manifest.Parse([]byte(capsule), path, manifest.ParseOptions{Role: manifest.RoleCapsule, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	s, err := stage.Stage(context.Background(), stage.Options{Manifest: m, Compiler: guests.Engine(t), Cwd: project,
		Getenv: func(k string) string {
			if k == "HOME" {
				return home
			}
			return ""
		},
		Clock:   func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) },
		OnStage: OnStage(Options{GuestIO: launch.GuestIO{Getenv: func(string) (string, bool) { return "", false }}})})
	if err != nil {
		t.Fatal(err)
	}
	want := "description: from on-stage\n"
	if b, err := os.ReadFile(filepath.Join(s.ToolsDir, "git", "murmur.yaml")); err != nil || string(b) != want {
		t.Errorf("tools/git/murmur.yaml = %q, %v", b, err)
	}
	shells := s.Loop().ShellTools
	if len(shells) != 1 || string(shells[0].ManifestYAML) != want ||
		shells[0].Manifest == nil || shells[0].Manifest.Description != "from on-stage" {
		t.Errorf("shell tools = %+v", shells)
	}
}
