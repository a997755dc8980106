package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agentYAML is an agent capsule whose built-in scripted driver answers
// its first task "the answer".
const agentYAML = `name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "the answer"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
`

// murIn runs "mur args…" in dir, in process, with a HOME of its own under
// dir and the shared compilation cache TestMain set.
func murIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), code
}

// agentProject writes murmur.yaml (yaml) and installs its artifacts
// (the built-in drivers) into the project store, which writes
// murmur.lock.
func agentProject(t *testing.T, yaml string) string {
	t.Helper()
	dir := capsuleDir(t, yaml, nil)
	if stdout, stderr, code := murIn(t, dir, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s%s", code, stdout, stderr)
	}
	return dir
}

// listing is every path under dir with its size, to compare a project
// before and after a refused run.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d", rel, fi.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// Every flag value and --task that mur run cannot take is a command-line
// error: exit 2, the value named, stdout empty, and nothing written, not
// even a session directory, wherever the check lives (the CLI's own, or
// the session's once the manifest is read).
func TestRunBadCommandLineCreatesNothing(t *testing.T) {
	agent := agentProject(t, agentYAML)
	script := capsuleDir(t, scriptYAML, map[string]string{"capsule.wasm": "capsule-steps"})
	big := filepath.Join(t.TempDir(), "big.md")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		project string
		args    []string
		want    string
	}{
		{"containment", agent, []string{"--containment", "ultra"}, "error[E-IO-003]: --containment must be one of: advisory, scoped, sealed; got 'ultra'"},
		{"task acceptance", agent, []string{"--lifecycle-task-acceptance", "forever"},
			"error[E-IO-003]: --lifecycle-task-acceptance must be one of: none, single, queue; got 'forever'"},
		{"after task", agent, []string{"--lifecycle-after-task", "never"}, "error[E-IO-003]: --lifecycle-after-task must be one of: exit, sleep; got 'never'"},
		{"empty lifecycle value", agent, []string{"--lifecycle-after-task", ""}, "--lifecycle-after-task needs a value"},
		{"missing task file", agent, []string{"--task", "./no-such-file.md"}, "--task ./no-such-file.md: no such file"},
		{"task names a directory", agent, []string{"--task", "/etc"}, "--task /etc: not a regular file (a directory)"},
		{"task word with an extension", agent, []string{"--task", "plan.md"}, "--task plan.md: no such file"},
		{"task too large", agent, []string{"--task", big}, "error[E-IO-003]: the task is 1048577 bytes, more than the 1048576 a run takes"},
		{"task over a lowered cap", agent, []string{"--task", "count the words", "--max-task-bytes", "4"}, "the task is 15 bytes, more than the 4"},
		{"task cap", agent, []string{"--max-task-bytes", "0"}, "--max-task-bytes must be a number of bytes above 0"},
		{"workdir", agent, []string{"--workdir", "nowhere"}, "workdir 'nowhere' does not exist or is not a directory"},
		{"bind with a port", agent, []string{"--bind", "127.0.0.1:8080"}, "--bind 127.0.0.1:8080: give the address alone"},
		{"bind beyond loopback without a token", agent, []string{"--bind", "0.0.0.0"}, "refusing to serve the agent on 0.0.0.0 without a token"},
		{"system prompt for a script", script, []string{"--system-prompt", "be brief"}, "error[E-IO-003]: --system-prompt is for agent capsules"},
		{"quiet with progress", agent, []string{"-q", "--progress", "--task", "hi"}, "--quiet turns the progress off and --progress turns it on; give one of them"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := listing(t, tc.project)
			stdout, stderr, code := murIn(t, tc.project, append([]string{"run"}, tc.args...)...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "Run 'mur run --help' for usage.") {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stderr containing %q", code, exitUsage, stdout, stderr, tc.want)
			}
			if after := listing(t, tc.project); !slices.Equal(after, before) {
				t.Errorf("a refused run changed the project:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// A taken network.internal_port is E-RUN-010 before anything is staged:
// no session directory, no MURMUR.md, nothing in the project changes.
func TestRunPortInUseCreatesNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	dir := agentProject(t, agentYAML+fmt.Sprintf("network:\n  internal_port: %d\n", port))
	before := listing(t, dir)
	stdout, stderr, code := murIn(t, dir, "run", "--task", "hi")
	expectFailure(t, stdout, stderr, code, "failed", fmt.Sprintf("error[E-RUN-010]: internal_port %d is already bound", port))
	if strings.Contains(stdout, "session:") {
		t.Errorf("a refused run announced a session:\n%s", stdout)
	}
	if after := listing(t, dir); !slices.Equal(after, before) {
		t.Errorf("a refused run changed the project:\nbefore %v\nafter  %v", before, after)
	}
}

// A driver that makes HTTP requests whose grant does not reach
// inference.endpoint is refused at staging, naming the rule to add,
// before a session directory exists; with the rule added it is staged.
// A driver's own network block narrows the capsule's, and the hint then
// names that block.
func TestRunDriverEndpointOutsideNetworkAllow(t *testing.T) {
	const openai = `name: agent
version: "0.1.0"
inference:
  endpoint: http://127.0.0.1:1/v1
  model: m
  driver:
    artifact: openai-compatible
artifacts:
  - name: openai-compatible
    version: "0.1.0"
    runtime: driver
`
	narrowed := strings.Replace(openai, "    runtime: driver\n", "    runtime: driver\n    capabilities:\n      network:\n        allow: [http://127.0.0.1:2]\n", 1)
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"no rule", openai, "error[E-CAP-001]: inference.endpoint http://127.0.0.1:1/v1 is not in capabilities.network.allow: driver 'openai-compatible' could not reach its model\n" +
			"  hint: add `- http://127.0.0.1:1` to capabilities.network.allow in murmur.yaml"},
		{"another port", openai + "capabilities:\n  network:\n    allow: [http://127.0.0.1:2]\n", "hint: add `- http://127.0.0.1:1` to capabilities.network.allow"},
		{"narrowed by the driver's block", narrowed + "capabilities:\n  network:\n    allow: [127.0.0.1]\n",
			"is not in artifacts[0].capabilities.network.allow (the driver's own block narrows the capsule's)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := agentProject(t, tc.yaml)
			before := listing(t, dir)
			stdout, stderr, code := murIn(t, dir, "run", "--task", "hi")
			expectFailure(t, stdout, stderr, code, "failed", tc.want)
			if after := listing(t, dir); !slices.Equal(after, before) {
				t.Errorf("a refused run changed the project:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
	// Allowed, the driver is staged and calls the endpoint, where nothing
	// listens: the run fails at the model call, not at staging.
	dir := agentProject(t, openai+"capabilities:\n  network:\n    allow: [http://127.0.0.1:1]\n")
	stdout, stderr, code := murIn(t, dir, "run", "--task", "hi")
	if code != exitFailure || strings.Contains(stderr, "E-CAP-001") || !strings.Contains(stdout, "session: ses_") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
