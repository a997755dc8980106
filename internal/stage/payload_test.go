package stage

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

func TestNativeToolStaged(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes")
	}
	f := newFixture(t)
	bin := "#!/bin/sh\necho '{\"status\":\"passed\"}'\n"
	plat, err := artifact.ParsePlatform(artifact.CurrentPlatform())
	if err != nil {
		plat = artifact.Platform{OS: "linux", Arch: "x86_64"}
	}
	sha := f.publish(f.local, "greet", "0.1.0", artifact.Native, "tool",
		testguest.Zip(t, "murmur.yaml", "name: greet\nversion: \"0.1.0\"\nruntime: tool\nimplementation: native\n", "bin/greet", bin), &plat)
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: greet, version: \"0.1.0\"}\n"))
	opts.Platform = &plat
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Artifacts[0]
	want := filepath.Join(s.ToolsDir, "greet", "greet")
	if a.Kind != KindNative || a.Role != RoleTool || a.BinaryPath != want || a.SHA256 != sha || a.Platform == nil {
		t.Fatalf("artifact = %+v", a)
	}
	fi, err := os.Stat(want)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Fatalf("mode %v, want 0755", fi.Mode().Perm())
	}
	if mustRead(t, want) != bin {
		t.Fatal("binary content differs")
	}
	if a.Component != nil || f.comp.n.Load() != 0 {
		t.Fatal("a native tool was compiled")
	}
	if a.Grants.Preopen != s.AccessibleDir || !a.Grants.InheritsNetwork {
		t.Fatalf("native grants = %+v", a.Grants)
	}
}

func TestNativeToolWithoutBinary(t *testing.T) {
	f := newFixture(t)
	f.publish(f.local, "greet", "0.1.0", artifact.Native, "tool",
		testguest.Zip(t, "murmur.yaml", "name: greet\nversion: \"0.1.0\"\nruntime: tool\nimplementation: native\n", "greet", "x"), nil)
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: greet, version: \"0.1.0\"}\n"))
	_, err := Stage(context.Background(), opts)
	if codeOf(err) != CodeIO || !strings.Contains(err.Error(), "failed to read artifact archive for greet@0.1.0: failed to read native binary at 'bin/greet'") {
		t.Fatalf("err = %v", err)
	}
	if exists(filepath.Join(f.project, "workdir")) {
		t.Fatal("workdir created")
	}
}

func TestSkillsStaged(t *testing.T) {
	f := newFixture(t)
	f.publish(f.global, "review-rules", "1.0.0", artifact.Static, "skill",
		testguest.Zip(t, "murmur.yaml", "name: review-rules\nversion: \"1.0.0\"\nruntime: skill\ndescription: Review rules.\n", "skill.md", "# Review\nBe kind.\n"), nil)
	if err := os.MkdirAll(filepath.Join(f.project, "skills", "style"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.project, "skills", "style", "SKILL.md"), []byte("style guide"), 0o644); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "whatever.txt")
	if err := os.WriteFile(abs, []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - {name: review-rules, version: "1.0.0", runtime: skill}
  - {name: style, runtime: skill, source: skills/style}
  - {name: tip, runtime: tool, local_source: true, source: ` + abs + `}
`))
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"review-rules": "# Review\nBe kind.\n", "style": "style guide", "tip": "from a file"}
	for _, a := range s.Artifacts {
		if a.Kind != KindSkill || a.SkillPath != filepath.Join(s.ToolsDir, a.Name, "skill.md") {
			t.Fatalf("%s: %+v", a.Name, a)
		}
		if got := mustRead(t, a.SkillPath); got != want[a.Name] {
			t.Fatalf("%s skill.md = %q", a.Name, got)
		}
		hasManifest := exists(filepath.Join(a.Dir, "murmur.yaml"))
		if hasManifest == a.Local || (a.ManifestPath != "") == a.Local {
			t.Fatalf("%s: local=%v but murmur.yaml staged=%v", a.Name, a.Local, hasManifest)
		}
		if a.Grants.Preopen != "" || len(a.Grants.Network) != 0 {
			t.Fatalf("%s: a skill got grants %+v", a.Name, a.Grants)
		}
	}
	if s.Artifacts[1].Version != "local" || s.Artifacts[1].SHA256 != "" {
		t.Fatalf("local skill = %+v", s.Artifacts[1])
	}
	if len(s.Pins) != 1 || s.Pins[0].Name != "review-rules" {
		t.Fatalf("local-source artifacts must not be pinned: %+v", s.Pins)
	}
}

func TestLocalSkillErrors(t *testing.T) {
	tests := []struct {
		name, source, msg string
		code              diag.Code
		setup             func(dir string)
	}{
		{name: "missing", source: "nope", code: CodeNotFound, msg: "skill source path not found: "},
		{name: "empty dir", source: "empty", code: CodeNotFound, msg: "contains no skill.md",
			setup: func(dir string) { _ = os.Mkdir(filepath.Join(dir, "empty"), 0o755) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(f.project)
			}
			opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: s, runtime: skill, source: " + tc.source + "}\n"))
			_, err := Stage(context.Background(), opts)
			if codeOf(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v", err)
			}
			if exists(filepath.Join(f.project, "workdir")) {
				t.Fatal("workdir created")
			}
		})
	}
}

func TestWasmPayloadCompiled(t *testing.T) {
	ctx := context.Background()
	eng, err := component.NewEngine(ctx, component.Config{DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	f := newFixture(t)
	wasm := string(testguest.Bytes(t, testguest.DriverCanned))
	f.publish(f.local, "canned", "0.1.0", artifact.Wasm, "tool",
		testguest.Zip(t, "murmur.yaml", "name: canned\nversion: \"0.1.0\"\nruntime: tool\n", "canned.wasm", wasm, "docs/other.wasm", "not a candidate"), nil)
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: canned, version: \"0.1.0\"}\n"))
	opts.Compiler = eng
	var told []string
	opts.OnCompile = func(what string) func() {
		told = append(told, "start "+what)
		return func() { told = append(told, "done "+what) }
	}
	s, err := Stage(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"start canned@0.1.0", "done canned@0.1.0"}; !slices.Equal(told, want) {
		t.Errorf("OnCompile was told %q, want %q", told, want)
	}
	a := s.Artifacts[0]
	if a.Kind != KindWasm || a.Component == nil || a.WasmEntry != "canned.wasm" {
		t.Fatalf("artifact = %+v", a)
	}
	if exists(filepath.Join(a.Dir, "canned.wasm")) {
		t.Fatal("the wasm payload was extracted to disk")
	}

	// The staged values are enough to call the tool.
	linker, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: a.Name, Component: a.Component, Linker: linker, Limits: a.Grants.Limits})
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Invoke(ctx, tools.ToolInput{Data: tools.Str("{}")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Data == nil || *res.Data != testguest.DriverCannedData {
		t.Fatalf("result = %+v", res)
	}
}

func TestCompileFailureIsERun001(t *testing.T) {
	ctx := context.Background()
	eng, err := component.NewEngine(ctx, component.Config{DisableCache: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.Compiler = eng
	_, err = Stage(ctx, opts)
	if codeOf(err) != CodeCompile || !strings.Contains(err.Error(), "word-count@0.1.0") {
		t.Fatalf("err = %v", err)
	}
	if exists(filepath.Join(f.project, "workdir")) {
		t.Fatal("workdir created")
	}
}

func TestHookContract(t *testing.T) {
	tests := []struct {
		name, extra, msg string
	}{
		{name: "valid", extra: "binding: on-compaction\ncommit_policy: replace-context\n"},
		{name: "bad binding", extra: "binding: on-lunch\n", msg: "hook h@1.0.0 invalid config: unknown binding 'on-lunch'"},
		{name: "async commit", extra: "execution_mode: async\ncommit_policy: reopen-task\n", msg: "async-with-commit not supported"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.publish(f.local, "h", "1.0.0", artifact.Wasm, "hook",
				testguest.Zip(t, "murmur.yaml", "name: h\nversion: \"1.0.0\"\nruntime: hook\n"+tc.extra, "h.wasm", "x"), nil)
			opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: h, version: \"1.0.0\", runtime: hook}\n"))
			s, err := Stage(context.Background(), opts)
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				h := s.Artifacts[0]
				if h.Hook == nil || h.Hook.Binding != "on-compaction" || h.Role != RoleHook || h.Component == nil {
					t.Fatalf("hook = %+v", h)
				}
				if h.Grants.Preopen != "" || len(h.Grants.Network) != 0 || h.Grants.Limits.Deadline.Seconds() != 30 {
					t.Fatalf("hook grants = %+v", h.Grants)
				}
				return
			}
			if codeOf(err) != CodeIO || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v", err)
			}
			if f.comp.n.Load() != 0 {
				t.Fatal("compiled a hook with a bad contract")
			}
		})
	}
}

func TestGeneratedShellManifests(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "jq", "1.0.0", "description: jq as a wasm tool\n")
	opts := f.options(f.capsule(`name: demo
version: "1.0.0"
artifacts:
  - {name: jq, version: "1.0.0"}
capabilities:
  shell:
    allow: [bash, git, jq]
`))
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []ShellTool{{Name: "bash", Interpreter: true, Generated: true}, {Name: "git", Generated: true}, {Name: "jq"}}
	if len(s.shellTools) != 3 {
		t.Fatalf("shell tools = %+v", s.shellTools)
	}
	for i, w := range want {
		got := s.shellTools[i]
		if got.Name != w.Name || got.Interpreter != w.Interpreter || got.Generated != w.Generated || (got.ManifestYAML != nil) != w.Generated {
			t.Fatalf("shell tool %d = %+v, want %+v", i, got, w)
		}
		if !w.Generated {
			if got.Manifest != nil {
				t.Fatalf("shell tool %d has a manifest of its own: %+v", i, got.Manifest)
			}
			continue
		}
		written := mustRead(t, filepath.Join(s.ToolsDir, w.Name, "murmur.yaml"))
		if written != string(got.ManifestYAML) {
			t.Fatalf("shell tool %d: ManifestYAML is not what was written", i)
		}
		// The value kept is the written text as the inventory reads it.
		read, err := manifest.ParseToolRecord([]byte(written), "murmur.yaml")
		if err != nil || got.Manifest == nil || got.Manifest.Runtime != read.Runtime || got.Manifest.Description != read.Description ||
			!sameJSON(t, got.Manifest.InputSchema, read.InputSchema) {
			t.Fatalf("shell tool %d: kept %+v, the file reads %+v, %v", i, got.Manifest, read, err)
		}
	}
	if !strings.Contains(mustRead(t, filepath.Join(s.ToolsDir, "jq", "murmur.yaml")), "jq as a wasm tool") {
		t.Fatal("the artifact's own manifest was replaced by a generated one")
	}
	for _, bin := range []string{"bash", "git"} {
		raw := mustRead(t, filepath.Join(s.ToolsDir, bin, "murmur.yaml"))
		m, _, err := manifest.Parse([]byte(raw), "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleArtifact})
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, raw)
		}
		a := m.Artifact
		if a.Name != bin || a.Version != "0.0.0" || a.Runtime != "tool" || !a.IsNative() || a.InputSchema != `{"properties":{"command":{"type":"string"}},"required":["command"],"type":"object"}` || a.Description == "" {
			t.Fatalf("%s manifest = %+v", bin, a)
		}
	}
	// The two descriptions of session.md §2.2.
	for bin, want := range map[string]string{"bash": "command passed via -c", "git": "command is the argument list, omit the binary name"} {
		if got := mustRead(t, filepath.Join(s.ToolsDir, bin, "murmur.yaml")); !strings.Contains(got, want) {
			t.Errorf("%s's description lacks %q:\n%s", bin, want, got)
		}
	}
}

func TestUnsafeArtifactName(t *testing.T) {
	f := newFixture(t)
	opts := f.options(f.capsule("name: demo\nversion: \"1.0.0\"\nartifacts:\n  - {name: ../escape, version: \"1.0.0\"}\n"))
	_, err := Stage(context.Background(), opts)
	if codeOf(err) != CodeIO || !strings.Contains(err.Error(), "single directory name") {
		t.Fatalf("err = %v", err)
	}
}

func TestScriptCapsuleComponent(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.CapsuleWasm = []byte("capsule")
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.component == nil || f.comp.n.Load() != 2 {
		t.Fatalf("capsule component %v, compiles %d", s.component, f.comp.n.Load())
	}
}

func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%q: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return reflect.DeepEqual(x, y)
}
