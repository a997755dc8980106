package launch_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mur trace reads the traces the mur binary writes, not only Murmur's
// fixtures: a real agent session (a shell command that exits 3, a native
// tool, an unknown tool, then the answer) run and then shown, stepped
// through and reported on.
func TestTraceReadsARealAgentSession(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("sh1", "echo hi; exit 3") + `, {"id": "n1", "name": "envdump", "input": {}}]},
		{"tool_calls": [{"id": "x1", "name": "nope", "input": {"path": "a.txt"}}]}, {"text": "done"}]`
	p := shellProject(t, turns, "")
	p.mur(0, "run", "--task", "look around")
	id := filepath.Base(p.sessionDir())

	show, _ := p.mur(0, "trace", "show")
	for _, want := range []string{
		"session:    " + id + "\ncapsule:    shell-agent v0.1.0\nmodel:      scripted-model\nstatus:     ok\n",
		"── Turns ────────────────────────────────────────\ncount:      3  (max: ",
		"count:      3  (2 ok, 1 error)  success 66.7%\n",
		"── Shell calls ──────────────────────────────────\ncount:      1\nexit codes: 1 failed (exit 3)\n",
		"fired:      no\n",
	} {
		if !strings.Contains(show, want) {
			t.Errorf("mur trace show lacks %q:\n%s", want, show)
		}
	}
	for _, re := range []string{
		`(?m)^  turn \d+  sh \d+ms ✓  \{"command":"echo hi; exit 3"\}  envdump \d+ms ✓  \{\}$`,
		`(?m)^  turn \d+  nope \d+ms ✗  \{"path":"a.txt"\}$`,
		`(?m)^  turn \d+  end_turn$`,
		`(?m)^input:      \d[\d,]*  \(avg \d+/turn\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(show) {
			t.Errorf("mur trace show does not match %s:\n%s", re, show)
		}
	}

	steps, _ := p.mur(0, "trace", "steps", "--verbose", id[len(id)-6:])
	for _, re := range []string{
		`^Session ` + id + `  \(3 turns\)\n\n`,
		`(?m)^  \d+ +tool_call    sh +\d+ms +"echo hi; exit 3"$`,
		`(?m)^  \d+ +tool_call    nope +\d+ms +"a.txt"$`,
		`(?m)^  \d+ +end_turn     — +—$`,
	} {
		if !regexp.MustCompile(re).MatchString(steps) {
			t.Errorf("mur trace steps does not match %s:\n%s", re, steps)
		}
	}

	report, stderr := p.mur(0, "trace", "report")
	if !strings.Contains(report, "Session "+id[:12]+"...  ") || !strings.Contains(report, "Sessions: 1  (") ||
		!strings.Contains(report, "  ok                       1  (100.0%)") || stderr != "" {
		t.Errorf("mur trace report:\n%s\nstderr:\n%s", report, stderr)
	}
}
