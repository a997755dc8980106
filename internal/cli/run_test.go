package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// runIn runs "mur run args…" in dir, in process, with a HOME of its own
// and the shared compilation cache TestMain set.
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"run"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// capsuleDir writes murmur.yaml and, beside it, each file name → the test
// guest (guests/out) to copy there.
func capsuleDir(t *testing.T, yaml string, wasm map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, guest := range wasm {
		if err := os.WriteFile(filepath.Join(dir, name), testguest.Bytes(t, guest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const scriptYAML = "name: probe\nversion: \"0.1.0\"\n"

// expectFailure checks a refused run: exit 1, "status:  <status>" last on
// stdout, and every want on stderr.
func expectFailure(t *testing.T, stdout, stderr string, code int, status string, want ...string) {
	t.Helper()
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	if !strings.HasSuffix(stdout, "status:  "+status+"\n") {
		t.Errorf("stdout does not end with the %s status:\n%s", status, stdout)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
}

func TestRunAgentCapsuleWithUndeclaredDriver(t *testing.T) {
	dir := capsuleDir(t, scriptYAML+"inference:\n  endpoint: https://x.example\n  model: m\n  driver:\n    artifact: d\n", nil)
	stdout, stderr, code := runIn(t, dir)
	expectFailure(t, stdout, stderr, code, "failed", "inference driver 'd' is not declared: inference.driver.artifact must name an artifacts entry with runtime: driver")
	if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
		t.Error("a refused agent capsule created a workdir")
	}
}

func TestRunWithoutComponent(t *testing.T) {
	dir := capsuleDir(t, scriptYAML, nil)
	stdout, stderr, code := runIn(t, dir)
	expectFailure(t, stdout, stderr, code, "failed", "error[E-RUN-004]: script capsule has no component")

	two := capsuleDir(t, scriptYAML, map[string]string{
		"a.wasm": "tool-spin",
		"b.wasm": "tool-grow",
	})
	stdout, stderr, code = runIn(t, two)
	expectFailure(t, stdout, stderr, code, "failed", "error[E-RUN-004]: script capsule has 2 candidate components", "(a.wasm, b.wasm)")
}

func TestRunMissingRunExport(t *testing.T) {
	// A tool component: it exports murmur:tool/run, not murmur:capsule/run.
	dir := capsuleDir(t, scriptYAML, map[string]string{"capsule.wasm": "tool-spin"})
	stdout, stderr, code := runIn(t, dir)
	expectFailure(t, stdout, stderr, code, "failed",
		"error[E-RUN-001]: capsule component missing export murmur:capsule/run@0.1.0#run; rebuild the artifact against the versioned WIT (run `mur install` for a default artifact, or rebuild from source otherwise)")
}

// TestRunGuestExitFailsTheRun: the hello capsule with no tools declared
// reports the failure and exits with status 1; mur must not say ok.
func TestRunGuestExitFailsTheRun(t *testing.T) {
	dir := capsuleDir(t, scriptYAML, nil)
	hello, err := os.ReadFile(filepath.Join("..", "..", "examples", "hello", "capsule.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "capsule.wasm"), hello, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runIn(t, dir, "-v")
	expectFailure(t, stdout, stderr, code, "failed", "error[E-RUN-001]: capsule run failed: the capsule exited with status 1")
	for _, want := range []string{"session: ses_", "workdir: " + filepath.Join(dir, "workdir", "ses_"), "manifest: probe v0.1.0",
		"refused: tool 'word-count' is not declared in manifest allowlist"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*", "out", "result.txt"))
	if len(matches) != 1 {
		t.Fatalf("want one out/result.txt, found %v", matches)
	}
	if b, _ := os.ReadFile(matches[0]); !strings.Contains(string(b), "result: failed:") {
		t.Errorf("result.txt does not report the failure:\n%s", b)
	}

	// --json: a failed run leaves stdout empty.
	stdout, stderr, code = runIn(t, dir, "--json")
	if code != exitFailure || stdout != "" || !strings.Contains(stderr, "exited with status 1") {
		t.Errorf("--json failure: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}

func TestRunJSONLaunchLine(t *testing.T) {
	// A capsule whose run does nothing but fail its first invoke is
	// still a successful run: capsule-steps swallows every refusal.
	dir := capsuleDir(t, scriptYAML, map[string]string{"capsule.wasm": "capsule-steps"})
	stdout, stderr, code := runIn(t, dir, "--json", "-v")
	if code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(stdout), &line); err != nil || strings.Count(stdout, "\n") != 1 {
		t.Fatalf("stdout is not one JSON line (%v):\n%s", err, stdout)
	}
	want := []string{`{"name":"probe","pid":`, `"session_id":"ses_`, `"url":"","version":"0.1.0","workdir":"` + filepath.Join(dir, "workdir", "ses_")}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("launch line lacks %s:\n%s", w, stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "murmur.lock")); err != nil {
		t.Errorf("the first run wrote no murmur.lock: %v", err)
	}
}
