package launch_test

// The sealed class through the mur binary (security.md §10): a capsule
// declaring capabilities.containment: sealed, or run with --containment
// sealed, has its shell commands run in a composed root (the trace names
// the class and the host's mechanism); a root that cannot be built ends
// the session with E-RUN-014 and a failed exit; every refusal of a
// sealed floor this host can give comes with its code and hint.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// sealedCommand writes what a sealed command sees into the workdir: the
// first passwd lines, whether /home exists, and a file in /tmp.
const sealedCommand = "head -n 2 /etc/passwd > passwd.txt; if [ -e /home ]; then echo visible; else echo absent; fi > home.txt; echo in-tmp > /tmp/t.txt"

func TestAgentShellRunsSealed(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		flags      []string
	}{
		{"declared in the manifest", "  containment: sealed\n", nil},
		{"from --containment", "", []string{"--containment", "sealed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			turns := `[{"tool_calls": [` + shellCall("look", sealedCommand) + `]},
				{"expect_results": [` + expect("look", false, "$ "+sealedCommand+"\nExit code: 0\nStdout:\n\nStderr:\n") + `], "text": "sealed ok"}]`
			p := shellProject(t, turns, tc.caps)
			stdout, stderr := p.mur(0, append([]string{"run", "--task", "look"}, tc.flags...)...)
			if !strings.HasSuffix(stdout, "status:  ok\nsealed ok\n") || !strings.Contains(stderr, "warning[W-SEC-005]: capabilities.shell.allow is non-empty; subprocesses run sealed") {
				t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			work := p.sessionDir()
			passwd, _ := os.ReadFile(filepath.Join(work, "passwd.txt"))
			home, _ := os.ReadFile(filepath.Join(work, "home.txt"))
			tmp, _ := os.ReadFile(filepath.Join(work, ".mur-tmp", "t.txt"))
			if !strings.HasPrefix(string(passwd), "root:x:0:0:root:") || !strings.Contains(string(passwd), filepath.Join(work, ".capsule-home")) ||
				string(home) != "absent\n" || string(tmp) != "in-tmp\n" {
				t.Errorf("the command saw passwd %q, /home %q, wrote /tmp to %q", passwd, home, tmp)
			}
			var start map[string]any
			for _, l := range p.sessionTrace() {
				if l.Type == trace.TypeSessionStart {
					start = l.Fields
				}
			}
			g, _ := start["effective_grants"].(map[string]any)
			if start["containment_achieved"] != "sealed" || start["containment_declared"] != "sealed" || g["enforcement_tier"] != "mountns+pivot_root+landlock+seccomp" {
				t.Errorf("session_start: %v", start)
			}
		})
	}
}

// A composed root that cannot be built (here: a staged_runtime tree that
// is not there) is session-fatal: E-RUN-014 with the child's detail, a
// failed exit, and the command never ran.
func TestSealedRootFailureEndsTheSession(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("never", "echo ran > ran.txt") + `]}, {"text": "never"}]`
	p := shellProject(t, turns, "    staged_runtime: [{binary: tr, source_path: /nonexistent/mur-runtime, pin: x}]\n  containment: sealed\n")
	stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "fail")
	want := "the sealed containment class was achievable at launch but its composed root could not be built for this subprocess: staged_runtime source /nonexistent/mur-runtime: a required bind is missing"
	if code == 0 || !strings.Contains(stderr, "error[E-RUN-014]: ") || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want a failure with %q\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(p.sessionDir(), "ran.txt")); err == nil {
		t.Error("the command ran")
	}
}

// The refusals a sealed floor meets on this host, each before anything
// is created, with its code and hint.
func TestSealedRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, caps string
		flags      []string
		want       []string
	}{
		{"workdir_exec caps every class to advisory", "  containment: sealed\n  filesystem:\n    workdir_exec: true\n", nil, []string{
			"error[E-CAP-003]: declared containment class 'sealed' is not achievable on this host (achieved: 'advisory'): capabilities.filesystem.workdir_exec is true",
			"hint: lower the declared floor to 'advisory' (capabilities.containment in murmur.yaml, containment in .murmur/config.yaml, or --containment), or run on a host that provides 'sealed'"}},
		{"the flag raises the floor", "  filesystem:\n    workdir_exec: true\n", []string{"--containment", "sealed"}, []string{
			"error[E-CAP-003]: declared containment class 'sealed' is not achievable on this host (achieved: 'advisory')"}},
		{"staged runtime below sealed", "  containment: scoped\n  shell:\n    allow: [sh]\n    staged_runtime: [{binary: sh, source_path: /opt/sh, pin: x}]\n", nil, []string{
			"error[E-CAP-004]: capabilities.shell.staged_runtime grants for sh are bound into the sealed root only, but the declared containment floor is 'scoped'",
			"hint: declare capabilities.containment: sealed (or pass --containment sealed), or use capabilities.shell.interpreter_runtime for these binaries"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := refusedProject(t, tc.caps)
			workdir := t.TempDir()
			stdout, stderr, code := runMur(p.dir, nil, append([]string{"run", "--workdir", workdir}, tc.flags...)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			assertNothingCreated(t, p, workdir)
		})
	}
	t.Run("a script the sealed root cannot reach", func(t *testing.T) {
		bin := t.TempDir()
		if err := os.WriteFile(filepath.Join(bin, "mytool"), []byte("#!/usr/bin/env sh\necho hi\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		p := refusedProject(t, "  containment: sealed\n  shell:\n    allow: [mytool]\n")
		workdir := t.TempDir()
		stdout, stderr, code := runMur(p.dir, []string{"PATH=" + bin + ":" + os.Getenv("PATH")}, "run", "--workdir", workdir)
		if code != 1 || !strings.Contains(stderr, "error[E-CAP-006]: capabilities.shell.allow entry 'mytool' resolves to the script "+filepath.Join(bin, "mytool")) ||
			!strings.Contains(stderr, "hint: grant its directory or its interpreter with capabilities.shell.interpreter_runtime or staged_runtime for 'mytool', or lower the declared floor to 'scoped'") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		assertNothingCreated(t, p, workdir)
	})
	t.Run("a workdir whose HOME breaks passwd", func(t *testing.T) {
		p := refusedProject(t, "  containment: sealed\n")
		workdir := filepath.Join(t.TempDir(), "a:b")
		if err := os.Mkdir(workdir, 0o755); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runMur(p.dir, nil, "run", "--workdir", workdir)
		if code != 1 || !strings.Contains(stderr, "error[E-RUN-014]: the sealed containment class cannot hold this session: the synthetic HOME cannot be written into /etc/passwd") ||
			!strings.Contains(stderr, "hint: run from (or pass a --workdir at) a path without ':' or newlines") {
			t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		if _, err := os.Stat(filepath.Join(workdir, ".murmur")); err == nil {
			t.Error("the refused run created a session")
		}
	})
}

// Under a sealed floor an allowlisted compiler driver whose helper no
// Execute-carrying grant covers is warned of at staging (W-SEC-012). The
// driver is a script answering -print-prog-name as gcc does, its own
// directory granted (so E-CAP-006 lets it through), its cc1 elsewhere.
func TestSealedCompilerHelperWarning(t *testing.T) {
	bin, libexec := t.TempDir(), t.TempDir()
	cc1 := filepath.Join(libexec, "cc1")
	for p, text := range map[string]string{
		filepath.Join(bin, "gcc"): "#!/bin/sh\ncase \"$1\" in -print-prog-name=cc1) echo " + cc1 + ";; *) echo \"${1#-print-prog-name=}\";; esac\n",
		cc1:                       "#!/bin/sh\n",
	} {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := refusedProject(t, "  containment: sealed\n  shell:\n    allow: [gcc]\n    interpreter_runtime: [{binary: gcc, dirs: [{path: "+bin+", list_dir: false}]}]\n")
	_, stderr, code := runMur(p.dir, []string{"PATH=" + bin + ":" + os.Getenv("PATH")}, "run", "--workdir", t.TempDir())
	if code != 0 || !strings.Contains(stderr, "warning[W-SEC-012]: capabilities.shell.allow allows the compiler driver 'gcc', but its helper 'cc1' at "+cc1+" cannot be executed inside the sealed root") {
		t.Errorf("exit %d\nstderr:\n%s", code, stderr)
	}
}
