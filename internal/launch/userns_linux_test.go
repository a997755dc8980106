//go:build linux

package launch_test

// Kernel containment for a normal user (issue 25): mur run as uid 65534,
// from a world-readable copy of the binary and in a cgroup delegated to
// that uid (as an administrator delegates one), must get what the kernel
// gives an unprivileged user: where `unshare -U -n` works for the uid, the
// same probed tier as root, and its commands run in a network namespace
// of their own, under Landlock and seccomp, with the workdir noexec.
// Before, the runtime (non-dumpable) could not write its child's id maps,
// so the probe failed and every shell capsule was refused with E-CAP-005.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/sandbox"
)

// self is mur as this process's uid.
func self(t *testing.T) asUser {
	return asUser{name: "self", mur: env.mur, tree: t.TempDir(), start: func(*exec.Cmd) {}}
}

// unprivileged is mur as an unprivileged uid: nobody when the tests run
// as root, else this process's own.
func unprivileged(t *testing.T) asUser {
	t.Helper()
	if os.Geteuid() != 0 {
		return self(t)
	}
	u := nobody(t)
	u.own(t)
	return u
}

// give hands dirs (and what they hold) to the user, their parents made
// traversable: t.TempDir makes 0700 directories.
func (u asUser) give(t *testing.T, dirs ...string) {
	t.Helper()
	if u.name != "nobody" {
		return
	}
	for _, d := range dirs {
		if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := chownTree(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
}

// kernelAllowsUserns is the oracle: whether `unshare -U -n true` works for
// the user, i.e. the kernel lets that uid make a user and network
// namespace.
func (u asUser) kernelAllowsUserns(t *testing.T) bool {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("the oracle needs util-linux's unshare: %v", err)
	}
	c := exec.Command(unshare, "-U", "-n", "true")
	if u.name == "nobody" {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := c.CombinedOutput()
	t.Logf("unshare -U -n true as %s: %v %s", u.name, err, out)
	return err == nil
}

// doctorLines runs mur doctor as u and keeps the lines about the kernel
// tier: the tier, the class, the network and mount namespaces.
func doctorLines(t *testing.T, u asUser) map[string]string {
	t.Helper()
	dir := filepath.Join(u.tree, "doctor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	u.give(t, dir)
	c := u.command(dir, "doctor")
	out, _ := c.CombinedOutput() // the cgroup line may fail it; the lines are what counts
	lines := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		for _, k := range []string{"enforcement tier:", "strongest containment class:", "subprocess network namespace:", "sealed mount namespace:"} {
			if strings.Contains(l, k) {
				lines[k] = strings.TrimSpace(l)
			}
		}
	}
	if len(lines) != 4 {
		t.Fatalf("mur doctor as %s printed no tier, class or namespace lines:\n%s", u.name, out)
	}
	return lines
}

// Where the kernel lets the uid make user namespaces, mur doctor as that
// uid reports a network namespace for its subprocesses and, as root is
// there to compare, the same tier, class and sealed outcome as root;
// also from an exec-only binary (mode 0711, not the uid's), whose
// trampoline the kernel makes non-dumpable as well.
func TestUnprivilegedDoctorProbesWhatTheKernelAllows(t *testing.T) {
	u := unprivileged(t)
	allowed := u.kernelAllowsUserns(t)
	var root map[string]string
	if u.name == "nobody" {
		root = doctorLines(t, self(t))
	}
	execOnly := u
	execOnly.mur = filepath.Join(u.tree, "mur-exec-only")
	if err := copyFile(env.mur, execOnly.mur); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(execOnly.mur, 0o711); err != nil {
		t.Fatal(err)
	}
	for name, u := range map[string]asUser{"readable": u, "exec-only": execOnly} {
		t.Run(name, func(t *testing.T) {
			got := doctorLines(t, u)
			if !allowed {
				if want := "✗  subprocess network namespace: cannot create one"; !strings.HasPrefix(got["subprocess network namespace:"], want) {
					t.Errorf("the kernel refuses this uid user namespaces, but mur doctor says %q", got["subprocess network namespace:"])
				}
				return
			}
			if !strings.HasPrefix(got["subprocess network namespace:"], "✓") {
				t.Errorf("as %s, where `unshare -U -n` works: %q", u.name, got["subprocess network namespace:"])
			}
			for k, want := range root {
				if got[k] != want {
					t.Errorf("as nobody %q, as root %q", got[k], want)
				}
			}
		})
	}
}

// Where the host refuses user namespaces, mur doctor says which setting
// does and what an administrator changes, not only the probe's errno. The
// host here is a user namespace of the test's own (every uid mapped) whose
// user.max_user_namespaces is 0, with mur run in it as nobody.
func TestUnprivilegedDoctorSaysUserNamespacesAreDisabled(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: making a user namespace with every uid mapped needs root")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("util-linux's setpriv: %v", err)
	}
	u := unprivileged(t)
	dir := filepath.Join(u.tree, "doctor")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	u.give(t, dir)
	c := exec.Command("/bin/sh", "-c", `echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"`,
		"sh", setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", u.mur, "doctor")
	c.Dir = dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home")}
	all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 65536}}
	c.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER, UidMappings: all, GidMappings: all, GidMappingsEnableSetgroups: true}
	out, _ := c.CombinedOutput()
	const why = "user namespaces are disabled on this host (user.max_user_namespaces is 0); an administrator can enable them with `sysctl -w user.max_user_namespaces=10000`"
	for _, want := range []string{"✗  subprocess network namespace: cannot create one (KernelSupportMissing: " + why,
		"-  sealed mount namespace: not available: NamespaceCreationDenied: the sealed class needs a private mount namespace for its composed root, and a user + mount namespace could not be created (" + why} {
		if !strings.Contains(string(out), want) {
			t.Errorf("mur doctor does not say %q:\n%s", want, out)
		}
	}
}

// The escape tool as a native tool of mur run by an unprivileged uid:
// each attempt is refused as it is under root, and egress still reaches
// the one allowed server (the namespace's listeners on the allowed port
// and on 53 need CAP_NET_BIND_SERVICE there, which a non-root trampoline
// has only when it asks for it).
func TestNativeToolIsContainedAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: TestNativeToolIsContained already runs mur as this unprivileged uid")
	}
	for _, class := range []string{"scoped", "sealed"} {
		t.Run(class, func(t *testing.T) { nativeToolIsContained(t, class, unprivileged(t)) })
	}
}

// containCommand is the hostile shell command: read and write outside the
// workdir (which only Landlock forbids: the secret is the user's own), make
// a user namespace (seccomp), and the ELF-loader trick (a copy of head
// written to the workdir, mapped by the allowlisted loader: only the
// noexec workdir stops it). Each line says refused or escaped.
func containCommand(secret, outside, loader, head string) string {
	return `exec > contain.txt 2>&1
head -c 64 ` + secret + ` && echo "read-outside escaped" || echo "read-outside refused"
echo pwned > ` + outside + `/planted && echo "write-outside escaped" || echo "write-outside refused"
unshare -U -n true && echo "unshare escaped" || echo "unshare refused"
head -c 100000000 ` + head + ` > copied && ` + loader + ` ./copied --version && echo "loader escaped" || echo "loader refused"
echo kept > notes && head -n 1 notes
`
}

// A capsule with capabilities.shell.allow, run by an unprivileged uid at
// scoped and at sealed: it is not refused (E-CAP-005 before), the trace
// names the class achieved, and the hostile command is contained.
func TestUnprivilegedShellIsContained(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.LookPath("head")
	if err != nil {
		t.Fatal(err)
	}
	loader := ""
	for _, f := range sandbox.ExecClosure(sh, os.Getenv("PATH")) {
		if strings.Contains(filepath.Base(f), "ld-linux") {
			loader = f
		}
	}
	if loader == "" {
		t.Fatalf("no ELF loader in sh's closure")
	}
	for _, class := range []string{"scoped", "sealed"} {
		t.Run(class, func(t *testing.T) {
			u := unprivileged(t)
			if !u.kernelAllowsUserns(t) {
				t.Skipf("the kernel refuses %s user namespaces: shell capsules are refused (TestUnprivilegedDoctorProbesWhatTheKernelAllows checks doctor says so)", u.name)
			}
			dir, work, outside := t.TempDir(), t.TempDir(), t.TempDir()
			secret := filepath.Join(outside, "id_ed25519")
			if err := os.WriteFile(secret, []byte("PRIVATE KEY"), 0o600); err != nil {
				t.Fatal(err)
			}
			turns := `[{"tool_calls": [` + shellCall("attack", containCommand(secret, outside, loader, head)) + `]}, {"text": "contained"}]`
			p := shellAgentIn(t, dir, turns, "capabilities:\n  containment: "+class+"\n  shell:\n    allow: [sh, head, unshare]\n")
			u.give(t, p.dir, work, outside)
			c := u.command(p.dir, "run", "--workdir", work, "--task", "attack")
			out, err := c.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "\nstatus:  ok\n") {
				t.Fatalf("mur run as %s: %v\n%s", u.name, err, out)
			}
			b, err := os.ReadFile(filepath.Join(work, "contain.txt"))
			if err != nil {
				t.Fatalf("the command left no report: %v\n%s", err, out)
			}
			report := string(b)
			for _, c := range []string{"read-outside", "write-outside", "unshare", "loader"} {
				if !strings.Contains(report, c+" refused\n") {
					t.Errorf("%s was not refused:\n%s", c, report)
				}
			}
			if strings.Contains(report, "PRIVATE KEY") || strings.Contains(report, "coreutils") || !strings.HasSuffix(report, "kept\n") {
				t.Errorf("the command read the secret, ran its copy of head, or could not write its workdir:\n%s", report)
			}
			if _, err := os.Stat(filepath.Join(outside, "planted")); err == nil {
				t.Error("the command wrote outside its workdir")
			}
			sess, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*"))
			if len(sess) != 1 {
				t.Fatalf("want one session dir in %s, found %v", work, sess)
			}
			var start map[string]any
			for _, l := range readTrace(t, sess[0]) {
				if l.Type == trace.TypeSessionStart {
					start = l.Fields
				}
			}
			if start["containment_achieved"] != class {
				t.Errorf("session_start: containment_achieved %v, want %s", start["containment_achieved"], class)
			}
		})
	}
}

// shellAgentIn is an agent capsule in dir whose scripted driver
// plays turns, with the capabilities block given.
func shellAgentIn(t *testing.T, dir, turns, capabilities string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	writeDaemonManifest(t, dir, vehicle{capabilities: capabilities}, turns)
	if _, stderr, code := runMur(dir, nil, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip")); code != 0 {
		t.Fatalf("mur install scripted: exit %d\n%s", code, stderr)
	}
	return &project{t: t, dir: dir}
}

// readTrace reads a session's trace.jsonl.
func readTrace(t *testing.T, sessionDir string) []trace.Line {
	t.Helper()
	f, err := os.Open(filepath.Join(sessionDir, trace.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, err := trace.Read(f)
	if err != nil {
		t.Fatalf("trace.jsonl: %v", err)
	}
	return lines
}
