package launch_test

// Attacks on what the runtime writes to the workdir, through the mur
// binary: the script capsule capsule-launchsec (guests/wat) calls, in
// order, attack (wasitest-go as a WASM tool, told to copy task.md over a
// native tool's staged binary), victim (testdata/record), swap (a native
// tool replacing victim's binary and guide's skill.md on the host), victim
// again, guide (a local skill) and spy (a native tool reading mur's /proc
// entries), recording every outcome with record. Each test declares the
// tools its attack needs; the others are refused as undeclared.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/testing/cgrouptest"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// evilScript is the --task text the attack tool copies over victim's
// binary: if the runtime ever executes it, pwned appears in the workdir.
const evilScript = "#!/bin/sh\necho pwned > pwned\n"

// guideText is the local skill's staged guidance.
const guideText = "staged guidance: use the victim tool kindly"

// packHostileArtifacts builds the packages of these tests into env.pkgs:
// attack (WASM), victim (the record binary), swap, spy and daemon
// (testdata/hostile).
func packHostileArtifacts(src string) error {
	record, hostile := filepath.Join(src, "record-bin"), filepath.Join(src, "hostile-bin")
	if err := goBuild(hostile, "./internal/launch/testdata/hostile"); err != nil {
		return err
	}
	if err := artifactDir(filepath.Join(src, "attack"), "attack", "", map[string]string{"attack.wasm": testguest.Path("wasitest-go")}); err != nil {
		return err
	}
	for name, bin := range map[string]string{"victim": record, "swap": hostile, "spy": hostile, "daemon": hostile} {
		if err := artifactDir(filepath.Join(src, name), name, "implementation: native\n", map[string]string{"bin/" + name: bin}); err != nil {
			return err
		}
	}
	for _, name := range []string{"attack", "victim", "swap", "spy", "daemon"} {
		if _, stderr, code := runMur(src, nil, "build", filepath.Join(src, name), "-o", env.pkgs); code != 0 {
			return fmt.Errorf("mur build %s: exit %d\n%s", name, code, stderr)
		}
	}
	return nil
}

// secProject writes a project in dir running capsule-launchsec with the
// registry tools (each installed into the project store), record, and
// the local skill guide.
func secProject(t *testing.T, dir string, tools ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("name: launchsec\nversion: \"0.1.0\"\nartifacts:\n")
	for _, name := range append(tools, "record") {
		fmt.Fprintf(&b, "  - name: %s\n    version: \"0.1.0\"\n    runtime: tool\n", name)
	}
	b.WriteString("  - {name: guide, runtime: tool, local_source: true, source: guide.md}\n")
	b.WriteString("capabilities:\n  limits:\n    deadline_seconds: 60\n")
	files := map[string]string{"murmur.yaml": b.String(), "guide.md": guideText}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyFile(testguest.Path("capsule-launchsec"), filepath.Join(dir, "capsule.wasm")); err != nil {
		t.Fatal(err)
	}
	for _, name := range append(tools, "record") {
		if _, stderr, code := runMur(dir, nil, "install", filepath.Join(env.pkgs, name+"-0.1.0.mur.zip")); code != 0 {
			t.Fatalf("mur install %s: exit %d\n%s", name, code, stderr)
		}
	}
}

// secRun runs the project once without --workdir, so the session dir
// (tools/ included) is the accessible workdir, and returns that dir and
// record.txt.
func secRun(t *testing.T, dir string, cmd func(*exec.Cmd), extra []string, args ...string) (sessionDir, record string) {
	t.Helper()
	c := exec.Command(env.mur, append([]string{"run", "-v"}, args...)...)
	c.Dir = dir
	c.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + env.cache}, extra...)
	if cmd != nil {
		cmd(c)
	}
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("mur run: %v\n%s", err, out)
	}
	t.Logf("mur run:\n%s", out)
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "workdir: "); ok {
			sessionDir = v
		}
	}
	if sessionDir == "" {
		t.Fatalf("no workdir line in the output:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(sessionDir, "record.txt"))
	if err != nil {
		t.Fatalf("no record.txt: %v\n%s", err, out)
	}
	return sessionDir, string(b)
}

// A native tool runs as mur's user; it must not read mur's environment
// (the user's provider keys) or memory through /proc. Root could anyway
// (CAP_SYS_PTRACE), so as root mur runs as nobody.
func TestNativeToolCannotReadMurProcess(t *testing.T) {
	tree, err := os.MkdirTemp("", "mur-nondumpable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	dir := filepath.Join(tree, "proj")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secProject(t, dir, "spy")
	mur := filepath.Join(tree, "mur")
	if err := copyFile(env.mur, mur); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(tree, "cache")
	var asNobody func(*exec.Cmd)
	if os.Geteuid() == 0 {
		if err := chownTree(tree, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		// A capsule with a native tool needs a cgroup scope, which nobody
		// may build only in a cgroup delegated to it.
		inScope := cgrouptest.Delegate(t, 65534)
		asNobody = func(c *exec.Cmd) {
			c.Path, c.Args[0] = mur, mur
			c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			inScope(c)
		}
	}
	const secret = "sk-ant-must-not-leak-4711"
	sess, record := secRun(t, dir, asNobody, []string{"ANTHROPIC_API_KEY=" + secret, "MUR_CACHE_DIR=" + cache})
	spy, err := os.ReadFile(filepath.Join(sess, "spy.txt"))
	if err != nil {
		t.Fatalf("spy did not run: %v\nrecord.txt:\n%s", err, record)
	}
	if strings.Contains(string(spy), secret) {
		t.Errorf("a native tool read mur's environment:\n%s", spy)
	}
	if strings.Contains(string(spy), "mem: opened") {
		t.Errorf("a native tool opened mur's memory:\n%s", spy)
	}
}

func chownTree(root string, uid, gid int) error {
	if err := os.Chmod(root, 0o755); err != nil {
		return err
	}
	return filepath.Walk(root, func(path string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
}
