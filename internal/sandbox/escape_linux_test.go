package sandbox

// The escape suite (security.md §9, §10, §12.1): each case is the hostile
// program of attack_linux_test.go, or a shell, started through the real
// trampoline with the plan a session on this host gets, trying to cross
// one boundary, at each kernel class (scoped, sealed). Every case must
// be refused (or, where the class gives a view of its own, contained);
// on the rlimit-only trampoline before kernel containment each one got
// through.

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/policy"
)

// escapeHost is this host's probed support; a case whose mechanism the
// host lacks is skipped with the reason (none is, where CI runs).
func escapeHost(t *testing.T, sealed bool) (ll int, netns bool) {
	t.Helper()
	s := escapeSupport(t, sealed)
	return s.LandlockABI, s.NetNS
}

// escapeSupport is escapeHost's probe result, whole.
func escapeSupport(t *testing.T, sealed bool) policy.HostSupport {
	t.Helper()
	s := NewProber(os.Args[0]).Probe(context.Background())
	if s.LandlockABI == 0 || !s.Seccomp || !s.NetNS {
		t.Skipf("this host cannot enforce the scoped tier: %+v", s)
	}
	if sealed && s.Tier() < policy.TierKernelSealed {
		t.Skipf("this host cannot enforce the sealed tier: %s", s.Gaps()[policy.Sealed])
	}
	return s
}

// jail is a workdir, a secret outside it, and the attacker binary copied
// to a directory of its own (so its grant is not the test's temp tree);
// sealed runs its cases at the sealed tier, else at scoped.
type jail struct {
	workdir, outside, secret, attacker string
	sealed                             bool
}

// eachClass runs f at scoped and at sealed, each with a fresh jail: the
// escape cases hold at both kernel classes.
func eachClass(t *testing.T, f func(t *testing.T, j jail)) {
	for _, c := range []policy.Class{policy.Scoped, policy.Sealed} {
		t.Run(c.String(), func(t *testing.T) {
			j := newJail(t)
			j.sealed = c == policy.Sealed
			f(t, j)
		})
	}
}

func newJail(t *testing.T) jail {
	t.Helper()
	root := t.TempDir()
	// Traversable by another uid (asNobody); t.TempDir makes 0700 dirs.
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	j := jail{workdir: filepath.Join(root, "work"), outside: filepath.Join(root, "home", ".ssh"),
		attacker: filepath.Join(root, "bin", "attacker")}
	j.secret = filepath.Join(j.outside, "id_ed25519")
	for _, d := range []string{j.workdir, j.outside, filepath.Dir(j.attacker)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(j.secret, []byte("PRIVATE KEY"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j.attacker, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return j
}

// run starts argv (argv[0] a path) contained as a session would start a
// shell command: the workdir as cwd, the attacker and sh allowlisted.
func (j jail) run(t *testing.T, sc Scope, attrs *syscall.SysProcAttr, argv ...string) string {
	t.Helper()
	return j.runLimited(t, sc, attrs, 256, argv...)
}

// runLimited is run with max_processes procs.
func (j jail) runLimited(t *testing.T, sc Scope, attrs *syscall.SysProcAttr, procs uint64, argv ...string) string {
	t.Helper()
	s := escapeSupport(t, j.sealed)
	sc.LandlockABI, sc.NetNS, sc.Seccomp, sc.Workdir, sc.PathEnv, sc.Sealed = s.LandlockABI, s.NetNS, true, j.workdir, os.Getenv("PATH"), j.sealed
	sc.MountNS = s.Sealed
	sc.Binaries = append(sc.Binaries, j.attacker, "sh")
	l := Rlimits{ExtraProcesses: procs, OpenFiles: 256, FileSizeBytes: 1 << 30, CPUSeconds: 60, MemoryBytes: 4 << 30}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.SysProcAttr = j.workdir, []string{"PATH=" + os.Getenv("PATH")}, attrs
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := (Trampoline{Self: j.attacker, Limits: l, Plan: sc.Plan(HostNetNS())}).Start(cmd); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	return strings.TrimSpace(out.String())
}

func (j jail) attack(t *testing.T, args ...string) string {
	t.Helper()
	return j.run(t, Scope{}, nil, append([]string{j.attacker, attackMode}, args...)...)
}

func TestEscapeFilesystem(t *testing.T) { eachClass(t, escapeFilesystem) }

func escapeFilesystem(t *testing.T, j jail) {
	if err := os.Symlink(j.secret, filepath.Join(j.workdir, "planted")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(j.workdir, j.secret)
	if err != nil {
		t.Fatal(err)
	}
	// The host's passwd is refused at scoped; at sealed /etc/passwd is
	// the synthetic one (CONTAINED: readable, but not the host's).
	synthetic := func(got string) bool {
		return strings.HasPrefix(got, "refused: ") || strings.Contains(got, `root:x:0:0:root:`) && !strings.Contains(got, "daemon:")
	}
	for _, tc := range []struct {
		name      string
		args      []string
		contained func(string) bool // at sealed, if not refused
	}{
		{"read a key outside the workdir", []string{"read", j.secret}, nil},
		{"read it by ..", []string{"read", rel}, nil},
		{"read it through /proc/self/root", []string{"read", "/proc/self/root" + j.secret}, nil},
		{"read it through a planted symlink", []string{"read", "planted"}, nil},
		{"read it through a new symlink", []string{"symlink", j.secret, "mine"}, nil},
		{"hard-link it into the workdir", []string{"hardlink", j.secret, "linked"}, nil},
		{"read /etc/passwd", []string{"read", "/etc/passwd"}, synthetic},
		{"write outside the workdir", []string{"write", filepath.Join(j.outside, "authorized_keys")}, nil},
		{"truncate a file outside", []string{"truncate", j.secret}, nil},
		{"read the runtime's environment", []string{"read", "/proc/" + strconv.Itoa(os.Getpid()) + "/environ"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := j.attack(t, tc.args...)
			if j.sealed && tc.contained != nil {
				if !tc.contained(got) {
					t.Errorf("not contained: %s", got)
				}
				return
			}
			if !strings.HasPrefix(got, "refused: ") {
				t.Errorf("%s", got)
			}
		})
	}
	if b, err := os.ReadFile(j.secret); err != nil || string(b) != "PRIVATE KEY" {
		t.Errorf("the secret outside was changed: %q, %v", b, err)
	}
	t.Run("the workdir itself is usable", func(t *testing.T) {
		if got := j.attack(t, "write", "notes.txt"); !strings.HasPrefix(got, "escaped: ") {
			t.Errorf("writing in the workdir: %s", got)
		}
	})
}

func TestEscapeExec(t *testing.T) { eachClass(t, escapeExec) }

func escapeExec(t *testing.T, j jail) {
	script := filepath.Join(j.workdir, "dropped.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := exec.LookPath("id")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"exec a binary not allowlisted", []string{"exec", id}},
		{"exec a script dropped in the workdir", []string{"exec", script}},
		{"exec a copy under an allowlisted name", []string{"copyexec", id, filepath.Join(j.workdir, "sh")}},
		{"exec a copy of the allowlisted attacker", []string{"copyexec", j.attacker, filepath.Join(j.workdir, "attacker"), attackMode, "privs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := j.attack(t, tc.args...); !strings.HasPrefix(got, "refused: ") {
				t.Errorf("%s", got)
			}
		})
	}
	t.Run("an allowlisted binary runs", func(t *testing.T) {
		if got := j.run(t, Scope{}, nil, "/bin/sh", "-c", "echo fine"); got != "fine" {
			t.Errorf("sh -c: %q", got)
		}
	})
}

func TestEscapeNetwork(t *testing.T) { eachClass(t, escapeNetwork) }

func escapeNetwork(t *testing.T, j jail) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Write([]byte("hello from the host"))
			c.Close()
		}
	}()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"connect to a loopback server of the host", []string{"connect", ln.Addr().String()}},
		{"connect to a remote address", []string{"connect", "192.0.2.1:443"}},
		{"open an AF_UNIX socket", []string{"socket", "unix"}},
		{"open a netlink socket", []string{"socket", "netlink"}},
		{"open a raw packet socket", []string{"socket", "packet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := j.attack(t, tc.args...); !strings.HasPrefix(got, "refused: ") {
				t.Errorf("%s", got)
			}
		})
	}
	select {
	case <-accepted:
		t.Error("the host's loopback server accepted a connection from the contained process")
	default:
	}
	t.Run("unix_sockets grants AF_UNIX", func(t *testing.T) {
		if got := j.run(t, Scope{UnixSockets: true}, nil, j.attacker, attackMode, "socket", "unix"); !strings.HasPrefix(got, "escaped: ") {
			t.Errorf("%s", got)
		}
	})
}

func TestEscapeSyscalls(t *testing.T) { eachClass(t, escapeSyscalls) }

func escapeSyscalls(t *testing.T, j jail) {
	for _, name := range []string{"ptrace", "mount", "unshare", "keyctl", "bpf", "io_uring"} {
		t.Run(name, func(t *testing.T) {
			if got := j.attack(t, "syscall", name); !strings.HasPrefix(got, "refused: ") {
				t.Errorf("%s", got)
			}
		})
	}
}

// asNobody runs the case as uid 65534 when the tests run as root: root is
// exempt from RLIMIT_NPROC and already has what a setuid binary would
// give, so only another uid makes these cases mean anything.
func asNobody(t *testing.T, j jail) *syscall.SysProcAttr {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	if err := os.Chown(j.workdir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534, NoSetGroups: true}}
}

func TestEscapeForkBomb(t *testing.T) {
	eachClass(t, func(t *testing.T, j jail) {
		got := j.runLimited(t, Scope{}, asNobody(t, j), 16, j.attacker, attackMode, "forkbomb")
		if !strings.HasPrefix(got, "refused: stopped after ") {
			t.Errorf("%s", got)
		}
	})
}

func TestEscapeSetuid(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a setuid-root binary needs root")
	}
	eachClass(t, func(t *testing.T, j jail) {
		if err := os.Chmod(j.attacker, 0o755|os.ModeSetuid); err != nil {
			t.Fatal(err)
		}
		if got := j.run(t, Scope{}, asNobody(t, j), j.attacker, attackMode, "privs"); !strings.HasPrefix(got, "refused: euid 65534, no capabilities") {
			t.Errorf("%s", got)
		}
	})
}
