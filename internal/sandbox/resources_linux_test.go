package sandbox

// The resource cases of the escape suite (security.md §12): a hostile
// program, contained at scoped and at sealed as a session starts a shell
// command, tries to spend more than capabilities.resources allows, alone
// or as a tree.
// The bombs are bounded (400 processes, 1 GiB, 64 MiB, 30 s of CPU), so a
// runtime that fails to stop one fails the test without harming the host.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sessionCgroup is a scope with l for one test, as launch builds one per
// session, removed (and checked gone) at the end.
func sessionCgroup(t *testing.T, l CgroupLimits) *Cgroup {
	t.Helper()
	if s := ProbeCgroup(t.Context()); s.Mechanism == "" {
		t.Skipf("no cgroup scope can be built on this host: %s", s.Reason)
	}
	cg, err := NewCgroup(CgroupRequest{SessionID: "ses_" + strings.ReplaceAll(t.Name(), "/", "_"), Limits: l, Workdir: t.TempDir(),
		Reaper: self(t)})
	if err != nil {
		t.Fatal(err)
	}
	dirs := cg.Dirs()
	t.Cleanup(func() {
		if err := cg.Close(); err != nil {
			t.Error(err)
		}
		for _, d := range dirs {
			if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the scope %s is still there after Close", d)
			}
		}
	})
	return cg
}

// self is the test binary, whose init is the trampoline and the reaper
// as the mur binary's is.
func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// bigLimits are rlimits that leave the cgroup ceilings to act.
func bigLimits() Rlimits {
	return Rlimits{ExtraProcesses: 4096, OpenFiles: 4096, FileSizeBytes: 1 << 30, CPUSeconds: 60, MemoryBytes: 8 << 30}
}

// contained runs the attack case args under tr with the plan a session
// gets at j's class; a non-zero exit is the result, not a failure.
func (j jail) contained(t *testing.T, tr Trampoline, args ...string) (*os.ProcessState, string) {
	t.Helper()
	return j.containedCmd(t, tr, append([]string{j.attacker, attackMode}, args...)...)
}

// containedCmd is contained for any argv (argv[0] a path), sh and head
// allowlisted beside the attacker.
func (j jail) containedCmd(t *testing.T, tr Trampoline, argv ...string) (*os.ProcessState, string) {
	t.Helper()
	abi, netns := escapeHost(t, j.sealed)
	sc := Scope{LandlockABI: abi, NetNS: netns, Seccomp: true, Sealed: j.sealed, Workdir: j.workdir, PathEnv: os.Getenv("PATH"),
		Binaries: []string{j.attacker, "sh", "head"}}
	tr.Self, tr.Plan = j.attacker, sc.Plan(HostNetNS())
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = j.workdir, []string{"PATH=" + os.Getenv("PATH")}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := tr.Start(cmd); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	var ee *exec.ExitError
	if err := cmd.Wait(); err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	return cmd.ProcessState, strings.TrimSpace(out.String())
}

func signalOf(ps *os.ProcessState) syscall.Signal {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

// A fork bomb as root, whom RLIMIT_NPROC does not stop: only the scope's
// pids.max does, and the refused forks are the scope's to report.
func TestEscapeForkBombScope(t *testing.T) { eachClass(t, escapeForkBombScope) }

func escapeForkBombScope(t *testing.T, j jail) {
	cg := sessionCgroup(t, CgroupLimits{MemoryBytes: 1 << 30, PidsMax: 32, CPUPercent: 100, IOBytesPerSec: 1 << 20})
	before := cg.Counters()
	_, got := j.contained(t, Trampoline{Limits: bigLimits(), Cgroup: cg}, "forkbomb")
	if !strings.HasPrefix(got, "refused: stopped after ") {
		t.Fatalf("the tree was not bounded: %s", got)
	}
	if a := cg.Counters().Attribution(before); a != "cgroup_pids_max" {
		t.Errorf("attribution = %q, want cgroup_pids_max (counters %+v → %+v)", a, before, cg.Counters())
	}
}

func TestEscapeMemoryBomb(t *testing.T) { eachClass(t, escapeMemoryBomb) }

func escapeMemoryBomb(t *testing.T, j jail) {
	t.Run("the scope's memory ceiling kills the tree", func(t *testing.T) {
		cg := sessionCgroup(t, CgroupLimits{MemoryBytes: 64 << 20, PidsMax: 64, CPUPercent: 100, IOBytesPerSec: 1 << 20})
		before := cg.Counters()
		ps, got := j.contained(t, Trampoline{Limits: bigLimits(), Cgroup: cg}, "membomb", "1024")
		if signalOf(ps) != syscall.SIGKILL {
			t.Fatalf("not OOM-killed (%v): %s", ps, got)
		}
		if a := cg.Counters().Attribution(before); a != "cgroup_memory_bytes" {
			t.Errorf("attribution = %q, want cgroup_memory_bytes", a)
		}
	})
	t.Run("RLIMIT_AS refuses the allocation", func(t *testing.T) {
		l := bigLimits()
		l.MemoryBytes = 2 << 30 // the Go runtime itself reserves some 700 MiB of address space
		_, got := j.contained(t, Trampoline{Limits: l}, "membomb", "4096")
		if !strings.HasPrefix(got, "refused: mmap after ") || !strings.Contains(got, "cannot allocate memory") {
			t.Errorf("%s", got)
		}
	})
}

func TestEscapeFileSizeBomb(t *testing.T) { eachClass(t, escapeFileSizeBomb) }

func escapeFileSizeBomb(t *testing.T, j jail) {
	l := bigLimits()
	l.FileSizeBytes = 8 << 20
	// head, not the Go attacker: the Go runtime turns SIGXFSZ into EFBIG.
	ps, got := j.containedCmd(t, Trampoline{Limits: l}, "/bin/sh", "-c", "exec head -c 67108864 /dev/zero > big")
	if signalOf(ps) != syscall.SIGXFSZ {
		t.Fatalf("not killed by SIGXFSZ (%v): %s", ps, got)
	}
	if fi, err := os.Stat(filepath.Join(j.workdir, "big")); err != nil || fi.Size() > 8<<20 {
		t.Errorf("the file grew past the limit: %v %v", fi.Size(), err)
	}
}

// RLIMIT_CPU's soft limit equals its hard one, so the kernel's SIGKILL
// comes at the limit (tools attribute it to cpu_seconds by the CPU used).
func TestEscapeCPUSpin(t *testing.T) { eachClass(t, escapeCPUSpin) }

func escapeCPUSpin(t *testing.T, j jail) {
	l := bigLimits()
	l.CPUSeconds = 1
	ps, got := j.contained(t, Trampoline{Limits: l}, "cpuspin", "30")
	if s := signalOf(ps); s != syscall.SIGKILL && s != syscall.SIGXCPU {
		t.Fatalf("not stopped by RLIMIT_CPU (%v): %s", ps, got)
	}
	if used := ps.UserTime() + ps.SystemTime(); used > 5*time.Second {
		t.Errorf("spun %v of CPU past a 1 s limit", used)
	}
}

// Close removes the scope even when the session left a process running
// in it.
func TestCgroupCloseKillsLeftovers(t *testing.T) {
	if s := ProbeCgroup(t.Context()); s.Mechanism == "" {
		t.Skipf("no cgroup scope can be built on this host: %s", s.Reason)
	}
	cg, err := NewCgroup(CgroupRequest{SessionID: "ses_leftover", Limits: CgroupLimits{MemoryBytes: 1 << 30, PidsMax: 16, CPUPercent: 100},
		Reaper: self(t)})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", "sleep 600 & echo started; wait")
	(Trampoline{Self: os.Args[0], Limits: bigLimits(), Cgroup: cg}).Wrap(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The tree is in the scope once sh runs: the trampoline joined first.
	if _, err := stdout.Read(make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	dirs := cg.Dirs()
	if err := cg.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	for _, d := range dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there", d)
		}
	}
}
