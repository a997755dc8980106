package stage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const scriptCapsule = `name: demo
version: "1.0.0"
artifacts:
  - name: word-count
    version: "0.1.0"
`

const agentCapsule = `name: demo
version: "1.0.0"
inference:
  endpoint: https://api.anthropic.com
  model: claude-test
  driver:
    artifact: word-count
artifacts:
  - name: word-count
    version: "0.1.0"
`

func TestLayout(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		workdir  string // "" none, "abs" a temp dir, "rel" relative to cwd
		task     string // "" none; "@file" the name of a file in the project
		wantTask string
		agent    bool
	}{
		{name: "default script", yaml: scriptCapsule},
		{name: "default agent", yaml: agentCapsule, agent: true},
		{name: "workdir abs", yaml: scriptCapsule, workdir: "abs"},
		{name: "workdir relative", yaml: agentCapsule, workdir: "rel", agent: true},
		{name: "task literal", yaml: scriptCapsule, task: "count the words", wantTask: "count the words"},
		{name: "task with workdir", yaml: agentCapsule, workdir: "abs", task: "count them", wantTask: "count them", agent: true},
		// Staging never reads a file for the task: the CLI does.
		{name: "task names a file", yaml: scriptCapsule, task: "@file", wantTask: "the-task.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.wasmTool(f.local, "word-count", "0.1.0", "")
			opts := f.options(f.capsule(tc.yaml))
			var user string
			switch tc.workdir {
			case "abs":
				user = t.TempDir()
				opts.Workdir = user
			case "rel":
				user = filepath.Join(f.project, "run-here")
				if err := os.Mkdir(user, 0o755); err != nil {
					t.Fatal(err)
				}
				opts.Workdir = "run-here"
			}
			opts.Task = tc.task
			if tc.task == "@file" {
				if err := os.WriteFile(filepath.Join(f.project, "the-task.md"), []byte("# task from a file\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				opts.Task = "the-task.md"
			}
			s, err := Stage(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if !ValidSessionID(s.ID) {
				t.Fatalf("session id %q", s.ID)
			}
			wantSession := filepath.Join(f.project, "workdir", s.ID)
			wantAccessible := wantSession
			if user != "" {
				wantSession = filepath.Join(user, ".murmur", s.ID)
				wantAccessible = user
			}
			if s.SessionDir != wantSession || s.AccessibleDir != wantAccessible {
				t.Fatalf("dirs = %s, %s; want %s, %s", s.SessionDir, s.AccessibleDir, wantSession, wantAccessible)
			}
			if s.UserWorkdir != (user != "") {
				t.Fatalf("UserWorkdir = %v", s.UserWorkdir)
			}
			for _, d := range []string{"tools", "out", "logs", "tools/word-count"} {
				if fi, err := os.Stat(filepath.Join(s.SessionDir, d)); err != nil || !fi.IsDir() {
					t.Fatalf("%s not a dir: %v", d, err)
				}
			}
			if got := mustRead(t, filepath.Join(s.ToolsDir, "word-count", "murmur.yaml")); !strings.Contains(got, "name: word-count") {
				t.Fatalf("staged manifest = %q", got)
			}
			md := filepath.Join(s.SessionDir, "MURMUR.md")
			if exists(md) != tc.agent || (s.murmurMDPath != "") != tc.agent {
				t.Fatalf("MURMUR.md exists=%v path=%q, agent=%v", exists(md), s.murmurMDPath, tc.agent)
			}
			if exists(filepath.Join(s.AccessibleDir, "MURMUR.md")) && user != "" {
				t.Fatal("MURMUR.md belongs in the session dir, not the accessible one")
			}
			copied := filepath.Join(wantAccessible, "murmur.yaml")
			if user != "" && mustRead(t, copied) != tc.yaml {
				t.Fatal("manifest not copied into --workdir")
			}
			taskPath := filepath.Join(wantAccessible, "task.md")
			if tc.wantTask == "" {
				if exists(taskPath) || s.taskPath != "" {
					t.Fatal("task.md written without --task")
				}
			} else if got := mustRead(t, taskPath); got != tc.wantTask || s.taskPath != taskPath {
				t.Fatalf("task.md = %q at %q, want %q", got, s.taskPath, tc.wantTask)
			}
			if user == "" && exists(filepath.Join(f.project, ".murmur", s.ID)) {
				t.Fatal("session dir under .murmur without --workdir")
			}
		})
	}
}

func TestWorkdirKeepsExistingManifest(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.Workdir = t.TempDir()
	mine := filepath.Join(opts.Workdir, "murmur.yaml")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Stage(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if mustRead(t, mine) != "mine" {
		t.Fatal("an existing murmur.yaml in --workdir was overwritten")
	}
}

func TestWorkdirMustExist(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.Workdir = filepath.Join(f.project, "missing")
	before := tree(t, f.project)
	_, err := Stage(context.Background(), opts)
	if codeOf(err) != CodeNotFound || !strings.Contains(err.Error(), "does not exist or is not a directory") {
		t.Fatalf("err = %v", err)
	}
	if after := tree(t, f.project); strings.Join(before, ",") != strings.Join(after, ",") {
		t.Fatalf("files appeared: %v", after)
	}
	if f.comp.n.Load() != 0 {
		t.Fatal("compiled before checking --workdir")
	}
}

func TestSessionIDFromOptions(t *testing.T) {
	f := newFixture(t)
	f.wasmTool(f.local, "word-count", "0.1.0", "")
	opts := f.options(f.capsule(scriptCapsule))
	opts.SessionID = "ses_0195512b4e0070008000000000000001"
	s, err := Stage(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != opts.SessionID || filepath.Base(s.SessionDir) != opts.SessionID {
		t.Fatalf("id %s dir %s", s.ID, s.SessionDir)
	}
	opts.SessionID = "ses_../../etc"
	if _, err := Stage(context.Background(), opts); err == nil {
		t.Fatal("a malformed session id was accepted")
	}
}
