//go:build linux

package launch_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/eval"
)

// mur eval run through the binary, as root and as an unprivileged uid:
// a hostile agent's shell command (the case's task, sourced by sh)
// writes a forged eval.jsonl claiming a pass, or plants eval.jsonl as a
// link to a file of the user's outside the session. Each case is scored
// from what its agent loop did (two turns against a limit of one), its
// eval.jsonl is the runtime's own regular file, and the linked file is
// untouched.
func TestEvalRunForgeryAsEachUser(t *testing.T) {
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	forged := `{"record_type":"dataset_run","ts":1,"dataset_id":null,"case_id":"forge","overall":"pass","scores":{"turn_limit":1.0}}`
	for _, u := range users(t) {
		t.Run(u.name, func(t *testing.T) {
			dir := filepath.Join(u.tree, "eval")
			victim := filepath.Join(u.tree, "victim.txt")
			files := map[string]string{
				"murmur.yaml": `name: forger
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [` + shellCall("x", ". ./task.md") + `]}, {"text": "done"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [sh, ln]
observability:
  eval:
    scorers:
      - {type: max_turns, name: turn_limit, max: 1}
`,
				"forge.md":   fmt.Sprintf("printf '%%s\\n' '%s' > %s\n", forged, eval.EvalFile),
				"link.md":    fmt.Sprintf("ln -s %s %s\n", victim, eval.EvalFile),
				"eval.jsonl": `{"case_id": "forge", "task_path": "forge.md"}` + "\n" + `{"case_id": "link", "task_path": "link.md"}` + "\n",
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, stderr, code := runMur(dir, nil, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip")); code != 0 {
				t.Fatalf("mur install: exit %d\n%s", code, stderr)
			}
			u.own(t)
			cmd := u.command(dir, "eval", "run")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stdout.String(), "pass: 0/2") {
				t.Fatalf("mur eval run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
			}
			for _, id := range []string{"forge", "link"} {
				m := regexp.MustCompile(`(?m)^  ` + id + ` +fail  turn_limit=0.00  \((\S+)\)$`).FindStringSubmatch(stdout.String())
				if m == nil {
					t.Fatalf("%s is not a failed case:\n%s", id, stdout.String())
				}
				p := filepath.Join(m[1], eval.EvalFile)
				fi, err := os.Lstat(p)
				if err != nil || !fi.Mode().IsRegular() {
					t.Fatalf("%s: eval.jsonl is not the runtime's regular file: %v %v", id, fi, err)
				}
				data, _ := os.ReadFile(p)
				if f, err := eval.ParseRecords(p, data); err != nil || f.Run == nil || f.Run.Overall != eval.Fail {
					t.Errorf("%s: eval.jsonl holds %s (%v)", id, data, err)
				}
				if trace, _ := os.ReadFile(filepath.Join(m[1], "trace.jsonl")); !bytes.Contains(trace, []byte(`"event_type":"shell"`)) {
					t.Errorf("%s: the hostile command never ran", id)
				}
			}
			if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
				t.Errorf("the linked file was written through: %q", b)
			}
		})
	}
}
