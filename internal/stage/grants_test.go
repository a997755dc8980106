package stage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/testing/testguest"
)

func TestGrants(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "narrow", "1.0.0", "")
	f.wasmTool(f.local, "wide", "1.0.0", "")
	f.publish(f.local, "h", "1.0.0", artifact.Wasm, "hook",
		testguest.Zip(t, "murmur.yaml", "name: h\nversion: \"1.0.0\"\nruntime: hook\nbinding: on-stage\n", "h.wasm", "x"), nil)
	opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - name: narrow
    version: "1.0.0"
    capabilities:
      network: {allow: ["https://api.example.com", "evil.example.com"]}
      filesystem: {scope: data/in}
  - {name: wide, version: "1.0.0"}
  - name: h
    version: "1.0.0"
    runtime: hook
    capabilities:
      network: {allow: ["hooks.example.com"]}
      filesystem: {scope: hookdata}
capabilities:
  network: {allow: ["https://api.example.com", "other.example.com"]}
  env: {allow: [USER]}
  shell: {allow: [sh], strip_env: ["SECRET_*"]}
  limits: {deadline_seconds: 60, memory_bytes: 1048576}
`))
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	narrow, wide, hook := s.Artifacts[0].Grants, s.Artifacts[1].Grants, s.Artifacts[2].Grants
	if len(narrow.Network) != 1 || narrow.Network[0].Entry != "https://api.example.com" || narrow.InheritsNetwork {
		t.Fatalf("narrow network = %+v", narrow.Network)
	}
	if narrow.Preopen != filepath.Join(s.AccessibleDir, "data", "in") || !exists(narrow.Preopen) {
		t.Fatalf("narrow preopen = %q", narrow.Preopen)
	}
	if len(wide.Network) != 2 || !wide.InheritsNetwork || wide.Preopen != s.AccessibleDir {
		t.Fatalf("wide = %+v", wide)
	}
	if wide.Limits.Deadline != 60*time.Second || wide.Limits.MaxMemoryBytes != 1048576 ||
		strings.Join(wide.EnvAllow, ",") != "USER" || strings.Join(wide.ShellStripEnv, ",") != "SECRET_*" {
		t.Fatalf("wide ceiling fields = %+v", wide)
	}
	// Hooks are outside the ceiling: their own entries, unclamped; an
	// on-stage hook's scope is in the session workdir. An explicit
	// deadline applies to hooks too.
	if len(hook.Network) != 1 || hook.Network[0].Host != "hooks.example.com" {
		t.Fatalf("hook network = %+v", hook.Network)
	}
	if hook.Preopen != filepath.Join(s.SessionDir, "hookdata") || hook.Limits.Deadline != 60*time.Second {
		t.Fatalf("hook = %+v", hook)
	}
	if s.Ceiling.Preopen != s.AccessibleDir || len(s.Ceiling.Network) != 2 {
		t.Fatalf("ceiling = %+v", s.Ceiling)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Code != "W-SEC-007" || !strings.Contains(s.Warnings[0].Msg, "evil.example.com") {
		t.Fatalf("warnings = %+v", s.Warnings)
	}
}

func TestCapabilityErrorsBeforeAnything(t *testing.T) {
	tests := []struct {
		name, caps string
		code       diag.Code
	}{
		{name: "ceiling rule", caps: "capabilities:\n  network: {allow: [\"ftp://x\"]}\n", code: CodeNetRule},
		{name: "ceiling wildcard", caps: "capabilities:\n  network: {allow: [\"*.example.com\"]}\n", code: CodeNetRule},
		{name: "ceiling scope", caps: "capabilities:\n  filesystem: {scope: ../up}\n", code: CodeScope},
		{name: "artifact scope", caps: "", code: CodeScope},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.wasmTool(f.local, "word-count", "0.1.0", "")
			y := scriptCapsule + tc.caps
			if tc.caps == "" {
				y = strings.Replace(scriptCapsule, `version: "0.1.0"`, "version: \"0.1.0\"\n    capabilities: {filesystem: {scope: /abs}}", 1)
			}
			opts := f.options(f.capsule(y))
			_, err := Stage(context.Background(), opts)
			if codeOf(err) != tc.code {
				t.Fatalf("err = %v, want %s", err, tc.code)
			}
			if exists(filepath.Join(f.project, "workdir")) {
				t.Fatal("workdir created")
			}
		})
	}
}

func TestRollbackOnWriteFailure(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	user := t.TempDir()
	opts.Workdir = user
	opts.Task = "hello"
	// task.md is written last, into the accessible dir; make that fail by
	// putting a directory where the file goes.
	if err := os.Mkdir(filepath.Join(user, "task.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Stage(context.Background(), opts)
	if codeOf(err) != CodeIO {
		t.Fatalf("err = %v", err)
	}
	if exists(filepath.Join(user, ".murmur")) {
		t.Fatalf("session dir left behind: %v", tree(t, user))
	}
}
