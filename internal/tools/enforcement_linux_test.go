package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/sandbox"
)

// setupFailures are trampoline plans whose setup fails in the child: an
// ordinary step (the egress hand-over, on a descriptor that is not open)
// and the sealed root (a workdir that is not there).
func setupFailures() []struct {
	name   string
	plan   *sandbox.Plan
	detail string
	fatal  bool
} {
	return []struct {
		name   string
		plan   *sandbox.Plan
		detail string
		fatal  bool
	}{
		{"an ordinary step", &sandbox.Plan{NetNS: true, HostNetNS: sandbox.HostNetNS(), EgressFD: 99},
			"network namespace: handing the listeners to the runtime: bad file descriptor", false},
		{"the sealed root", &sandbox.Plan{NetNS: true, HostNetNS: sandbox.HostNetNS(), Sealed: &sandbox.SealedRoot{Base: "/run", Workdir: "/nonexistent/workdir", Home: "/h"}},
			"the sealed containment class was achievable at launch but its composed root could not be built for this subprocess: opening the workdir: open /nonexistent/workdir", true},
	}
}

// A shell command whose containment cannot be set up is a failed call
// with the child's detail (security.md §5.3), never an exit status 127
// the model reads as the command's; a sealed root that cannot be built
// ends the session (E-RUN-014).
func TestShellSetupFailure(t *testing.T) {
	for _, tc := range setupFailures() {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			tr := trampoline(defaultRlimits())
			tr.Plan = tc.plan
			sh := NewShell(ShellConfig{Binaries: []ShellBinary{{Name: "sh", Interpreter: true}}, Workdir: work,
				Env: SubprocessEnv{Getenv: func(k string) (string, bool) { return os.Getenv(k), k == "PATH" }}, Sandbox: tr})
			out, err := sh.RunShell(context.Background(), "sh", `{"command": "echo ran > ran.txt"}`)
			if _, serr := os.Stat(filepath.Join(work, "ran.txt")); serr == nil {
				t.Error("the command ran")
			}
			if tc.fatal {
				var d *diag.Error
				if !errors.Is(err, sandbox.ErrSealedRoot) || !errors.As(err, &d) || d.Code != "E-RUN-014" || !strings.Contains(d.Msg, tc.detail) {
					t.Errorf("RunShell = %+v, %v; want E-RUN-014 with %q", out, err, tc.detail)
				}
				return
			}
			want := "sandbox: shell enforcement setup failed before exec: " + tc.detail
			if err != nil || !out.IsError || out.Ran || out.Text != want {
				t.Errorf("RunShell = %+v, %v; want a failed call %q", out, err, want)
			}
		})
	}
}

// The same for a native tool: a failed call, or E-RUN-014.
func TestNativeToolSetupFailure(t *testing.T) {
	for _, tc := range setupFailures() {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			bin := filepath.Join(t.TempDir(), "tool")
			if err := os.WriteFile(bin, []byte("#!/bin/sh\necho ran > ran.txt\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			tr := trampoline(defaultRlimits())
			tr.Plan = tc.plan
			tool := &NativeTool{Name: "nt", Path: bin, SHA256: fileSHA256(t, bin), Dir: work, Env: []string{"PATH=" + os.Getenv("PATH")}, Sandbox: tr}
			_, err := tool.Invoke(context.Background(), ToolInput{})
			if _, serr := os.Stat(filepath.Join(work, "ran.txt")); serr == nil {
				t.Error("the tool ran")
			}
			var te *ToolError
			if !errors.As(err, &te) || te.Kind != ToolFailed || errors.Is(err, sandbox.ErrSealedRoot) != tc.fatal || !strings.Contains(err.Error(), tc.detail) {
				t.Errorf("Invoke = %v; want a failed call with %q (fatal %v)", err, tc.detail, tc.fatal)
			}
			if !tc.fatal && err.Error() != "sandbox: native tool enforcement setup failed before exec: "+tc.detail {
				t.Errorf("Invoke = %v", err)
			}
		})
	}
}
