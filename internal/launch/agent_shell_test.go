package launch_test

// Shell tools through the mur binary: the scripted driver calls the
// capsule's shell.allow binaries and checks the results the loop feeds
// back; what a command can see or leave behind is checked on disk.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// envdumpPkg builds the native tool "envdump": a script that writes its
// environment to native-env.txt in its working directory.
var envdumpPkg = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-envdump-")
	if err != nil {
		return "", err
	}
	script := filepath.Join(src, "envdump.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nenv > native-env.txt\necho '{\"status\":\"passed\",\"summary\":\"dumped\"}'\n"), 0o755); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "envdump")
	if err := artifactDir(dir, "envdump", "implementation: native\n", map[string]string{"bin/envdump": script}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build envdump: exit %d\n%s", code, stderr)
	}
	return src, nil
})

// shellProject writes an agent capsule allowing sh (and the binaries its
// commands run: under kernel containment only allowlisted binaries can be
// executed) whose scripted driver replays turns, with the native tool envdump and extra capabilities
// lines, and installs its artifacts.
func shellProject(t *testing.T, turns, capabilities string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	envdump, err := envdumpPkg()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: shell-agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  api_key: sk-inference-key
  driver:
    artifact: scripted
    config: {"turns": %s}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: envdump
    version: "0.1.0"
    runtime: tool
capabilities:
  shell:
    allow: [sh, env, head, tr, sleep]
%s`, turns, capabilities)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
	p.mur(0, "install", filepath.Join(envdump, "envdump-0.1.0.mur.zip"))
	return p
}

// sessionDir is the one session directory of a run without --workdir.
func (p *project) sessionDir() string {
	p.t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(p.dir, "workdir", "ses_*"))
	if len(dirs) != 1 {
		p.t.Fatalf("want one session dir, found %v", dirs)
	}
	return dirs[0]
}

// shellCall is a turn calling sh with command as call id.
func shellCall(id, command string) string {
	in, _ := json.Marshal(map[string]string{"command": command})
	return fmt.Sprintf(`{"id": %q, "name": "sh", "input": %s}`, id, in)
}

// expect is one expected tool result, as the scripted driver checks it.
func expect(id string, isError bool, text string) string {
	b, _ := json.Marshal(map[string]any{"tool_call_id": id, "is_error": isError, "text": text})
	return string(b)
}

func TestAgentShellTool(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("out", "echo hi; echo oops >&2; exit 3") + `, ` + shellCall("sig", "kill -9 $$") + `,
		{"id": "bad", "name": "sh", "input": {"cmd": "echo hi"}}]},
		{"expect_results": [` + expect("out", false, "$ echo hi; echo oops >&2; exit 3\nExit code: 3\nStdout:\nhi\n\nStderr:\noops\n") + `, ` +
		expect("sig", false, "$ kill -9 $$\nExit code: 137\nStdout:\n\nStderr:\n") + `, ` +
		expect("bad", true, "shell tool input must include a non-empty 'command' string") + `], "text": "shell ok"}]`
	p := shellProject(t, turns, "")
	stdout, stderr := p.mur(0, "run", "--task", "run things")
	if !strings.HasSuffix(stdout, "status:  ok\nshell ok\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	// A capsule with shell tools is told how its commands are contained on
	// this host: W-SEC-005 where the kernel tiers apply, W-SEC-001 where only
	// the environment is controlled.
	if !strings.Contains(stderr, "warning[W-SEC-005]") && !strings.Contains(stderr, "warning[W-SEC-001]") {
		t.Errorf("no containment warning for shell tools:\n%s", stderr)
	}
}

// A host secret in mur's environment reaches neither a shell command nor
// a native tool, not even one the capsule names in baseline_env (the
// OpenTelemetry exporter headers, the collector's credentials); both get
// the synthetic HOME, and a write through ~ lands in it rather than in
// the home mur runs with.
func TestAgentShellAndNativeToolsSeeNoHostSecret(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("env", "env > shell-env.txt; echo planted > ~/.profile") + `, {"id": "native", "name": "envdump"}]},
		{"expect_results": [` + expect("env", false, "$ env > shell-env.txt; echo planted > ~/.profile\nExit code: 0\nStdout:\n\nStderr:\n") + `, ` +
		expect("native", false, "dumped") + `], "text": "dumped"}]`
	p := shellProject(t, turns, "    baseline_env: [KEEP_ME, OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS, MURMUR_A2A_TOKEN, MURMUR_MCP_TOKEN]\n")
	stdout, stderr, code := runMur(p.dir, []string{"FOO_API_KEY=sk-host-secret", "AWS_SECRET_ACCESS_KEY=aws-host-secret", "KEEP_ME=kept",
		"OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20otel-host-secret", "OTEL_EXPORTER_OTLP_TRACES_HEADERS=x-key=otel-traces-secret",
		"MURMUR_A2A_TOKEN=a2a-token-host-secret", "MURMUR_MCP_TOKEN=mcp-token-host-secret"},
		"run", "--task", "dump")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	work := p.sessionDir()
	home := filepath.Join(work, ".capsule-home")
	for _, f := range []string{"shell-env.txt", "native-env.txt"} {
		b, err := os.ReadFile(filepath.Join(work, f))
		if err != nil {
			t.Fatal(err)
		}
		env := string(b)
		for _, leak := range []string{"sk-host-secret", "aws-host-secret", "sk-inference-key", "FOO_API_KEY", "AWS_", "MUR_CACHE_DIR",
			"otel-host-secret", "otel-traces-secret", "OTEL_EXPORTER_OTLP", "a2a-token-host-secret", "mcp-token-host-secret"} {
			if strings.Contains(env, leak) {
				t.Errorf("%s holds %q:\n%s", f, leak, env)
			}
		}
		for _, want := range []string{"HOME=" + home + "\n", "USERPROFILE=" + home + "\n", "KEEP_ME=kept\n", "PATH=" + os.Getenv("PATH") + "\n"} {
			if !strings.Contains(env, want) {
				t.Errorf("%s lacks %q:\n%s", f, want, env)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(work, "shell-env.txt")); err == nil && !strings.Contains(string(b), "MURMUR_SESSION_ID="+filepath.Base(work)+"\n") {
		t.Errorf("the shell command lacks MURMUR_SESSION_ID:\n%s", b)
	}
	if b, err := os.ReadFile(filepath.Join(home, ".profile")); err != nil || string(b) != "planted\n" {
		t.Errorf("~/.profile in the synthetic home: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(p.dir, ".home", ".profile")); err == nil {
		t.Error("the command wrote into the home mur runs with")
	}
}

// A command printing 100 KiB: its full output is in the accessible
// workdir's logs/shell-<ms>.log.
func TestAgentShellFullOutputLog(t *testing.T) {
	const cmd = "head -c 102400 /dev/zero | tr '\\0' a; echo done >&2"
	turns := `[{"tool_calls": [` + shellCall("big", cmd) + `]}, {"text": "logged"}]`
	p := shellProject(t, turns, "")
	p.mur(0, "run", "--task", "print")
	logs, _ := filepath.Glob(filepath.Join(p.sessionDir(), "logs", "shell-*.log"))
	if len(logs) != 1 {
		t.Fatalf("want one shell log, found %v", logs)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "Command: sh -c " + cmd + "\nExit code: 0\n\nStdout:\n" + strings.Repeat("a", 102400) + "\n\nStderr:\ndone\n\n"; string(b) != want {
		t.Errorf("the log is %d bytes, want %d; it starts %q", len(b), len(want), b[:min(len(b), 80)])
	}
}

// A command printing 1 GiB does not make mur hold 1 GiB: past 16 KiB a
// stream goes to disk. mur's peak RSS is measured by the kernel.
func TestAgentShellOutputStaysBounded(t *testing.T) {
	const size = 1 << 30
	turns := `[{"tool_calls": [` + shellCall("huge", fmt.Sprintf("head -c %d /dev/zero", size)) + `]}, {"text": "survived"}]`
	p := shellProject(t, turns, "")
	cmd := exec.Command(env.mur, "run", "--task", "flood")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("mur run: %v\n%s", err, out.String())
	}
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("mur's peak RSS with a %d-byte command output: %d MiB", size, maxRSS>>20)
	if maxRSS > 256<<20 {
		t.Errorf("mur's peak RSS was %d MiB for a 1 GiB output", maxRSS>>20)
	}
	logs, _ := filepath.Glob(filepath.Join(p.sessionDir(), "logs", "shell-*.log"))
	if len(logs) != 1 {
		t.Fatalf("want one shell log, found %v", logs)
	}
	if fi, err := os.Stat(logs[0]); err != nil || fi.Size() < size {
		t.Errorf("the full log is %v bytes (%v), want all %d", fi.Size(), err, size)
	}
	os.Remove(logs[0])
}

// Shell commands start through the same rlimit trampoline as native
// tools: capabilities.resources stops a spinning command and an
// oversized write.
func TestAgentShellRunsUnderTheRlimits(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("cpu", "while :; do :; done") + `, ` + shellCall("fsize", "exec head -c 100000 /dev/zero > big") + `]},
		{"expect_results": [` + expect("cpu", false, "$ while :; do :; done\nExit code: 137\nStdout:\n\nStderr:\n") + `, ` +
		expect("fsize", false, "$ exec head -c 100000 /dev/zero > big\nExit code: 153\nStdout:\n\nStderr:\n") + `], "text": "limited"}]`
	p := shellProject(t, turns, "  resources:\n    cpu_seconds: 1\n    max_file_size_bytes: 4096\n")
	stdout, stderr := p.mur(0, "run", "--task", "spin")
	if !strings.HasSuffix(stdout, "status:  ok\nlimited\n") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if fi, err := os.Stat(filepath.Join(p.sessionDir(), "big")); err != nil || fi.Size() != 4096 {
		t.Errorf("big: %v, %v; RLIMIT_FSIZE must stop it at 4096 bytes", fi, err)
	}
}
