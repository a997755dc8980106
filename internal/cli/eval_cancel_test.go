package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// Interrupting mur eval run stops the case it is in and runs no other:
// exit 130, no summary, no session for the next case.
func TestEvalRunInterrupted(t *testing.T) {
	yaml := `name: slow
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "s", "name": "sleep", "input": {"command": "600"}}]}, {"text": "done"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [sleep]
observability:
  eval:
    scorers:
      - {type: exit_ok}
`
	dir := evalProject(t, yaml, [2]string{"first", "wait\n"}, [2]string{"second", "wait\n"})
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &waitFor{text: "  case: first\n", seen: make(chan struct{})}
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- Run(ctx, []string{"eval", "run"}, stdout, &stderr) }()
	<-stdout.seen
	cancel()
	code := <-done
	out := stdout.String()
	if code != exitInterrupted || strings.Contains(out, "case: second") || strings.Contains(out, "Summary") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr.String())
	}
	if s, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*")); len(s) > 1 {
		t.Errorf("the second case ran after the interrupt: %v", s)
	}
}
