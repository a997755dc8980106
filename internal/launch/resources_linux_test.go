//go:build linux

package launch_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
)

// A shell command that fills the workdir past workdir_max_bytes: the
// guard latches when it ends, the next command of the same turn is
// refused with the guard's text as a failed tool call, and the loop ends
// the session at the next turn with E-RUN-013; mur run exits non-zero.
func TestWorkdirFilledEndsTheSession(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("fill", "head -c 3000000 /dev/zero > fill") + `, ` + shellCall("next", "echo again") + `]},
		{"text": "never reached"}]`
	p := shellProject(t, turns, "  resources:\n    workdir_max_bytes: 2000000\n")
	stdout, stderr := p.mur(1, "run", "--task", "fill the workdir")
	const ceiling = "bytes, past the 2000000 byte ceiling (capabilities.resources.workdir_max_bytes)"
	if !strings.Contains(stderr, "error[E-RUN-013]: agent task failed: session workdir grew to ") || !strings.Contains(stderr, ceiling) {
		t.Errorf("no E-RUN-013:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if !hasLine(stderr, "[capsule-runtime] workdir grew to ", ceiling) {
		t.Errorf("the latch is not on stderr:\n%s", stderr)
	}
	log, err := os.ReadFile(filepath.Join(p.sessionDir(), "logs", "bootstrap.log"))
	if err != nil || !hasLine(string(log), "[capability-policy] workdir grew to ", ceiling) {
		t.Errorf("the latch is not in bootstrap.log (%v):\n%s", err, log)
	}
	var calls []trace.Line
	var shells int
	for _, l := range p.sessionTrace() {
		switch l.Type {
		case trace.TypeToolCall:
			calls = append(calls, l)
		case trace.TypeShell:
			shells++
		case trace.TypeInference:
			if l.Fields["turn"] != float64(0) {
				t.Errorf("the driver was called again after the breach: %v", l.Fields)
			}
		}
	}
	if len(calls) != 2 || shells != 1 {
		t.Fatalf("want the filling command run and the next one refused, got %d tool calls, %d shell records", len(calls), shells)
	}
	// The trace keeps the result's size, not its text: the refusal is the
	// latched breach's text, the one stderr shows.
	_, rest, _ := strings.Cut(stderr, "[capsule-runtime] workdir grew to ")
	latched := "workdir grew to " + strings.SplitN(rest, "\n", 2)[0]
	if calls[1].Fields["status"] != "error" || calls[1].Fields["output_bytes"] != float64(len(latched)) {
		t.Errorf("the next spawn was not refused with %q: %v", latched, calls[1].Fields)
	}
}

// A shell command whose tree outgrows the scope's memory ceiling is
// OOM-killed by it, and the shell record names cgroup_memory_bytes.
func TestShellMemoryCeilingIsAttributed(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("bomb", "head -c 400000000 /dev/zero | tail -c 300000000 | head -c 1") + `]}, {"text": "done"}]`
	p := shellProject(t, turns, "  resources:\n    cgroup_memory_bytes: 67108864\n")
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(strings.Replace(mustRead(t, filepath.Join(p.dir, "murmur.yaml")),
		"allow: [sh, env, head, tr, sleep]", "allow: [sh, env, head, tr, sleep, tail]", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "run", "--task", "allocate")
	for _, l := range p.sessionTrace() {
		if l.Type == trace.TypeShell {
			if l.Fields["resource_limit"] != "cgroup_memory_bytes" {
				t.Errorf("shell record: %v", l.Fields)
			}
			return
		}
	}
	t.Fatal("no shell record")
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Where no cgroup scope can be built (here: mur started in a mount
// namespace whose /sys/fs/cgroup is an empty tmpfs), a capsule that can
// spawn subprocesses is refused with E-RUN-012 and its hint before
// anything is created.
func TestNoCgroupScopeIsRefusedBeforeAnythingIsCreated(t *testing.T) {
	p := refusedProject(t, "  shell:\n    allow: [sh]\n")
	workdir := t.TempDir()
	cmd := exec.Command("unshare", "-Urm", "sh", "-c", `mount -t tmpfs none /sys/fs/cgroup && exec "$0" "$@"`,
		env.mur, "run", "--workdir", workdir)
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1:\n%s", code, err, out)
	}
	for _, want := range []string{
		"error[E-RUN-012]: this capsule can spawn native subprocesses but no cgroup v2 scope could be created to bound them (",
		"on Linux the runtime refuses to launch rather than run a subprocess tree with no aggregate memory/pids/cpu ceiling",
		"hint: run mur in a systemd user session",
		"the operator may run without the aggregate ceiling with mur run --no-cgroup (MUR_NO_CGROUP=1)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	assertNothingCreated(t, p, workdir)
}
