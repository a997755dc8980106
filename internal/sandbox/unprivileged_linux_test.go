package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// unprivilegedSuite are the containment tests that mean the same for an
// unprivileged runtime: the probe, each escape case at both kernel
// classes, egress, the sealed view. (The cgroup cases need a delegated
// scope and are the launch tests'; the setuid case needs root.)
var unprivilegedSuite = []string{
	"TestSealedProbe", "TestEscapeFilesystem", "TestEscapeExec", "TestEscapeNetwork", "TestEscapeSyscalls",
	"TestEscapeForkBomb", "TestEscapeLoaderTrick", "TestEgressAllowsOnlyTheAllowList", "TestPinnedScriptRunsContained",
	"TestSealedView", "TestSealedUser", "TestSealedPlantedLinks", "TestSealedUnderFewFiles",
}

// The suite again with the runtime itself unprivileged: this test binary,
// copied where uid 65534 can run it, re-run as that uid and non-dumpable
// as mur is (which is what kept a non-root runtime from writing its
// child's id maps). Every case must pass, none skip for a host that
// "cannot enforce" what it enforces for root. As root the suite's own
// asNobody cases start the trampoline as another uid from a root
// runtime, which is not this.
func TestContainmentAsUnprivilegedRuntime(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root: the suite already runs with this unprivileged uid as the runtime")
	}
	nobody := &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("the oracle needs util-linux's unshare: %v", err)
	}
	oracle := exec.Command(unshare, "-U", "-n", "true")
	oracle.SysProcAttr = nobody
	if out, err := oracle.CombinedOutput(); err != nil {
		t.Skipf("the kernel refuses uid 65534 user namespaces (unshare -U -n: %v %s): nothing to compare", err, out)
	}
	tree, err := os.MkdirTemp("", "mur-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin, tmp := filepath.Join(tree, "sandbox.test"), filepath.Join(tree, "tmp")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tree, bin, tmp} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-mur.nondumpable", "-test.v", "-test.count=1", "-test.run", "^("+strings.Join(unprivilegedSuite, "|")+")$")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp, "HOME=" + tmp}
	cmd.SysProcAttr = nobody
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("the suite as uid 65534: %v", err)
	}
	for _, name := range unprivilegedSuite {
		if !regexp.MustCompile(`(?m)^--- PASS: ` + name + ` `).Match(out) {
			t.Errorf("%s did not pass as uid 65534", name)
		}
	}
	// A case skips where the probe found the host cannot enforce it:
	// only the one that needs a root runtime may.
	for _, m := range regexp.MustCompile(`(?m)^\s*--- SKIP: (\S+)`).FindAllSubmatch(out, -1) {
		if string(m[1]) != "TestSealedUser/as_root" {
			t.Errorf("%s skipped as uid 65534", m[1])
		}
	}
	if t.Failed() {
		t.Logf("%s", out)
	}
}
