package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
)

// Every setup step that fails is reported on the diagnostic pipe (§9.4):
// Start returns the child's detail, the tool never runs, and only a
// composed root that could not be built is session-fatal (E-RUN-014).
// Before the pipe, each of these was an exit status 127 and a line mixed
// into the tool's own stderr.
func TestSetupFailureIsReported(t *testing.T) {
	j := newJail(t)
	abi, netns := escapeHost(t, true)
	scope := func(sealed bool, staged ...string) *Plan {
		return Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: sealed, MountNS: true, Workdir: j.workdir,
			PathEnv: os.Getenv("PATH"), Binaries: []string{"sh"}, StagedRuntime: staged}.Plan(HostNetNS())
	}
	marker := filepath.Join(j.workdir, "ran")
	// A scope whose cgroup.procs the child cannot write to.
	unwritable, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer unwritable.Close()
	for _, tc := range []struct {
		name   string
		plan   func() *Plan
		cgroup *Cgroup
		path   string
		detail string
		fatal  bool
	}{
		{"the cgroup join", func() *Plan { return scope(true) }, &Cgroup{procs: []*os.File{unwritable}}, "/bin/sh",
			"joining the session's cgroup scope: bad file descriptor", false},
		{"the egress hand-over", func() *Plan { p := scope(false); p.EgressFD, p.KeepFDs = 99, []int{99}; return p }, nil, "/bin/sh",
			"network namespace: handing the listeners to the runtime: bad file descriptor", false},
		{"a scoped workdir that cannot be remounted noexec", func() *Plan { p := scope(false); p.NoexecWorkdir = filepath.Join(j.workdir, "gone"); return p }, nil, "/bin/sh",
			"mounting the workdir noexec: open " + filepath.Join(j.workdir, "gone") + ": no such file or directory", false},
		{"a staged_runtime source that is missing", func() *Plan { return scope(true, "/nonexistent/runtime") }, nil, "/bin/sh",
			"sealed-root: staged_runtime source /nonexistent/runtime: a required bind is missing: open /nonexistent/runtime: no such file or directory", true},
		{"a workdir that cannot be bound", func() *Plan { p := scope(true); p.Sealed.Workdir = filepath.Join(j.workdir, "gone"); return p }, nil, "/bin/sh",
			"sealed-root: opening the workdir: open " + filepath.Join(j.workdir, "gone") + ": no such file or directory", true},
		{"a HOME that breaks passwd", func() *Plan { p := scope(true); p.Sealed.Home = "/a:b"; return p }, nil, "/bin/sh",
			"sealed-root: the synthetic HOME cannot be written into /etc/passwd", true},
		{"no base for the root", func() *Plan { p := scope(true); p.Sealed.Base = ""; return p }, nil, "/bin/sh",
			"sealed-root: none of [/tmp /run /var/tmp /mnt /media] exists outside the workdir", true},
		{"a long detail, cut", func() *Plan { return scope(true, strings.Repeat("/long-name", 150)) }, nil, "/bin/sh",
			"sealed-root: staged_runtime source /long-name/long-name", true},
		{"the exec itself", func() *Plan { return scope(false) }, nil, "/nonexistent/tool", "exec /nonexistent/tool: no such file or directory", false},
		{"the exec itself, rlimits only", func() *Plan { return nil }, nil, "/nonexistent/tool", "exec /nonexistent/tool: no such file or directory", false},
		{"the exec itself, sealed", func() *Plan { return scope(true) }, nil, filepath.Join(j.outside, "tool"), "exec " + filepath.Join(j.outside, "tool") + ": no such file or directory", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(tc.path, "-c", "echo ran > "+marker)
			cmd.Dir = j.workdir
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			err := Trampoline{Self: j.attacker, Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 256, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 4 << 30},
				Plan: tc.plan(), Cgroup: tc.cgroup}.Start(cmd)
			var se *SetupError
			if !errors.As(err, &se) || !strings.HasPrefix(se.Detail, tc.detail) {
				t.Fatalf("Start = %v, want a setup error starting %q", err, tc.detail)
			}
			if len(se.Detail) > maxDetail {
				t.Errorf("a %d-byte detail", len(se.Detail))
			}
			if out.Len() != 0 {
				t.Errorf("the child wrote to the tool's output: %q", out.String())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("the tool ran")
			}
			fatal := se.Fatal()
			var d *diag.Error
			if tc.fatal != (fatal != nil) || fatal != nil && (!errors.As(fatal, &d) || d.Code != CodeSealedRoot || !errors.Is(fatal, ErrSealedRoot) ||
				!strings.HasPrefix(d.Msg, "the sealed containment class was achievable at launch but its composed root could not be built for this subprocess: ")) {
				t.Errorf("Fatal() = %v, want fatal %v", fatal, tc.fatal)
			}
		})
	}
}

// A plan the child cannot read is reported on the pipe too.
func TestSetupFailureBadPlan(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tr := Trampoline{Self: os.Args[0], Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 64, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 4 << 30}, diagFD: 3}
	path, args := tr.Command("/bin/true", []string{"true"})
	args[9] = "!" // the plan argument
	cmd := exec.Command(path)
	cmd.Args, cmd.ExtraFiles = args, []*os.File{w}
	out, err := cmd.CombinedOutput()
	w.Close()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 127 || len(out) != 0 {
		t.Fatalf("%v %q", err, out)
	}
	b := make([]byte, 4*maxDetail)
	n, _ := r.Read(b)
	if got := string(b[:n]); got != ExecMode+": containment plan: illegal base64 data at input byte 0" {
		t.Errorf("%d bytes: %q", n, got)
	}
}

// The tool never holds the diagnostic pipe: it could forge a setup
// failure, and Start, which waits for the pipe's EOF, would wait for the
// tool to end. So Start returns while a tool that never ends still runs,
// at each plan: rlimits only, scoped, sealed.
func TestDiagnosticPipeDoesNotReachTheTool(t *testing.T) {
	j := newJail(t)
	abi, netns := escapeHost(t, true)
	for _, tc := range []struct {
		name string
		plan *Plan
	}{
		{"rlimits only", nil},
		{"scoped", Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, MountNS: true, Workdir: j.workdir, Binaries: []string{j.attacker}}.Plan(HostNetNS())},
		{"sealed", Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: true, Workdir: j.workdir, Binaries: []string{j.attacker}}.Plan(HostNetNS())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(j.attacker, attackMode, "sleep")
			cmd.Dir = j.workdir
			started := make(chan error, 1)
			go func() {
				started <- Trampoline{Self: j.attacker, Limits: Rlimits{ExtraProcesses: 64, OpenFiles: 256, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 4 << 30},
					Plan: tc.plan}.Start(cmd)
			}()
			select {
			case err := <-started:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("Start did not return while the tool ran: the tool holds the diagnostic pipe")
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Error(err)
			}
			cmd.Wait()
		})
	}
}
