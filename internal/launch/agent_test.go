package launch_test

// An agent capsule through the mur binary: the scripted driver
// (guests/go/scripted) replays the turns in the manifest's driver config
// and checks every request it gets, so a run ends ok only when the loop
// kept the protocol and fed back the tool results the script expects.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/testing/testguest"
)

// agentPkgs builds the driver "scripted" (scripted-go), the WASM tool
// "echo" (toolrun-go, which answers its input reversed), the WASM tool
// "ask" (tool-io, which asks its task for input and answers the reply),
// the hostile WASM tool "fsattack" (fsattack-go, printing what each of
// its filesystem commands got) and the native tool "plant"
// (testdata/plant).
var agentPkgs = sync.OnceValues(func() (string, error) {
	src, err := os.MkdirTemp("", "mur-agent-pkgs-")
	if err != nil {
		return "", err
	}
	for name, spec := range map[string]struct{ runtime, guest string }{
		"scripted": {"driver", testguest.ScriptedGo},
		"echo":     {"tool", testguest.ToolrunGo},
		"ask":      {"tool", "tool-io"},
		"fsattack": {"tool", testguest.FSAttackGo},
	} {
		dir := filepath.Join(src, name)
		if err := copyFile(testguest.Path(spec.guest), filepath.Join(dir, name+".wasm")); err != nil {
			return "", err
		}
		yaml := fmt.Sprintf("name: %s\nversion: \"0.1.0\"\nruntime: %s\ndescription: test %s %s\nrequires_files: [%s.wasm]\n",
			name, spec.runtime, spec.runtime, name, name)
		if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
			return "", err
		}
		if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
			return "", fmt.Errorf("mur build %s: exit %d\n%s", name, code, stderr)
		}
	}
	bin := filepath.Join(src, "plant-bin")
	if err := goBuild(bin, "./internal/launch/testdata/plant"); err != nil {
		return "", err
	}
	dir := filepath.Join(src, "plant")
	if err := artifactDir(dir, "plant", "implementation: native\n", map[string]string{"bin/plant": bin}); err != nil {
		return "", err
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		return "", fmt.Errorf("mur build plant: exit %d\n%s", code, stderr)
	}
	return src, nil
})

// agentRun writes an agent capsule whose driver replays turns (JSON),
// installs its driver and tool, runs it with a task and returns mur's
// output and the session's out/result.txt.
func agentRun(t *testing.T, maxTurns int, turns string, wantCode int) (stdout, stderr, result string) {
	t.Helper()
	p, stdout, stderr := agentProject(t, maxTurns, turns, wantCode)
	return stdout, stderr, sessionResult(t, p.dir)
}

// sessionResult is the out/result.txt of the one session under the
// project dir's default workdir.
func sessionResult(t *testing.T, dir string) string {
	t.Helper()
	results, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*", "out", "result.txt"))
	if len(results) != 1 {
		t.Fatalf("want one out/result.txt, found %v", results)
	}
	b, err := os.ReadFile(results[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// agentProject writes, installs and runs the capsule agentRun describes.
func agentProject(t *testing.T, maxTurns int, turns string, wantCode int) (p *project, stdout, stderr string) {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p = &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  system_prompt: Answer briefly.
  max_turns: %d
  driver:
    artifact: scripted
    config: {"turns": %s}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: echo
    version: "0.1.0"
    runtime: tool
  - name: plant
    version: "0.1.0"
    runtime: tool
capabilities:
  shell:
    allow: [sh]
`, maxTurns, turns)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"scripted", "echo", "plant"} {
		p.mur(0, "install", filepath.Join(pkgs, name+"-0.1.0.mur.zip"))
	}
	stdout, stderr = p.mur(wantCode, "run", "--task", "reverse hello")
	return p, stdout, stderr
}

func TestAgentCapsuleRunsItsLoop(t *testing.T) {
	// toolrun-go answers its input reversed: {"text":"hello"} comes back as
	// }"olleh":"txet"{.
	const callEcho = `{"tool_calls": [{"id": "c1", "name": "echo", "input": {"text": "hello"}}], "expect_system": "Answer briefly."}`
	cases := []struct {
		name     string
		maxTurns int
		turns    string
		code     int
		status   string
		result   string
		stderr   string
	}{
		{"wasm tool then end", 10, `[` + callEcho + `,
			{"expect_results": [{"tool_call_id": "c1", "is_error": false, "text": "}\"olleh\":\"txet\"{"}], "text": "reversed: olleh"}]`,
			0, "ok", "reversed: olleh", ""},
		// A model cannot reach past the allowlist: not an undeclared name,
		// not the driver itself, not a path, not a shell binary outside
		// shell.allow.
		{"undeclared, driver, path and shell calls answered as errors", 10, `[{"tool_calls": [{"id": "a", "name": "nope"}, {"id": "b", "name": "bash", "input": {"command": "id"}}, {"id": "c", "name": "echo"},
				{"id": "d", "name": "scripted"}, {"id": "e", "name": "../echo"}]},
			{"expect_results": [{"tool_call_id": "a", "is_error": true, "text": "tool 'nope' is not declared in manifest allowlist"},
				{"tool_call_id": "b", "is_error": true, "text": "tool 'bash' is not declared in manifest allowlist"},
				{"tool_call_id": "c", "is_error": false, "text": "}{"},
				{"tool_call_id": "d", "is_error": true, "text": "tool 'scripted' is not declared in manifest allowlist"},
				{"tool_call_id": "e", "is_error": true, "text": "tool '../echo' is not declared in manifest allowlist"}], "text": "done"}]`,
			0, "ok", "done", ""},
		{"max turns exceeded", 2, `[` + callEcho + `, ` + callEcho + `, ` + callEcho + `]`,
			1, "failed", "error: inference loop exceeded 2 turns", "agent task failed: inference loop exceeded 2 turns"},
		// A driver answering status error fails the run with its data
		// verbatim (session.md §3.2 step 7).
		{"driver error", 10, `[{"error": "unknown model: scripted-model"}]`,
			1, "failed", `error: {"error":"unknown model: scripted-model","stop_reason":"error"}`, "agent task failed:"},
		{"stop_reason error", 10, `[{"stop_reason": "error", "error": "rate limited"}]`,
			1, "failed", "error: rate limited", "agent task failed: rate limited"},
		{"unsupported stop reason", 10, `[{"stop_reason": "pause_turn", "text": "hm"}]`,
			1, "failed", "error: unsupported stop_reason 'pause_turn'", "unsupported stop_reason 'pause_turn'"},
		{"script mismatch fails the run", 10, `[{"expect_system": "not in the prompt", "text": "x"}]`,
			1, "failed", `error: {"error":"turn 1: system does not contain`, "system does not contain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, result := agentRun(t, c.maxTurns, c.turns, c.code)
			if !endsWithStatus(stdout, c.status) {
				t.Errorf("stdout does not end with status %s:\n%s\nstderr:\n%s", c.status, stdout, stderr)
			}
			if !strings.HasPrefix(result, c.result) {
				t.Errorf("out/result.txt = %q, want it to start with %q\nstderr:\n%s", result, c.result, stderr)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr lacks %q:\n%s", c.stderr, stderr)
			}
		})
	}
}

// A tool that swaps out/result.txt for a link to a file outside the
// session cannot make the runtime write the outcome through it: the write
// is refused, the file outside keeps its contents and the run fails.
func TestAgentResultIsNotWrittenThroughAPlantedLink(t *testing.T) {
	victim := filepath.Join(t.TempDir(), "victim.txt")
	if err := os.WriteFile(victim, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	input, err := json.Marshal(map[string]string{"link": "out/result.txt", "target": victim})
	if err != nil {
		t.Fatal(err)
	}
	turns := `[{"tool_calls": [{"id": "p", "name": "plant", "input": ` + string(input) + `}]},
		{"expect_results": [{"tool_call_id": "p", "is_error": false, "text": "planted"}], "text": "pwned"}]`
	_, stdout, stderr := agentProject(t, 10, turns, 1)
	if b, err := os.ReadFile(victim); err != nil || string(b) != "original" {
		t.Errorf("the file outside the session now holds %q (%v)", b, err)
	}
	if !strings.HasSuffix(stdout, "status:  failed\n") || !strings.Contains(stderr, "is a symbolic link") {
		t.Errorf("want a failed run naming the link\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}
