package agentexample

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// After a run, mur trace transcript shows what the model was sent and
// said and what each of the example's three kinds of tool (WASM, native,
// shell) answered, and mur trace html writes the page of it.
func TestAgentExampleCanBeReadAfterwards(t *testing.T) {
	e := setUp(t)
	e.mustMur(t, e.project, "run", "--task", "task.md")
	stdout, stderr, code := e.mur(e.project, "trace", "transcript")
	if code != 0 || stderr != "" {
		t.Fatalf("mur trace transcript: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"· capsule agent ·", "· ok · 2 turns ·",
		"model scripted · ok · tool_call ·", "I'll measure task.md with both tools and wc.",
		"→ calls word-stats {\"path\":\"task.md\"}",
		"tool word-stats (wasm) · ok ·", `"words":35`,
		"tool fingerprint (native) · ok ·", `"sha256":"db7b3b12`,
		"tool wc (shell) · ok ·", "3 task.md",
		"answer:\n  Fact sheet: task.md\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, stdout)
		}
	}
	page := filepath.Join(t.TempDir(), "run.html")
	e.mustMur(t, e.project, "trace", "html", "-o", page)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"turn 1 · tool word-stats (wasm)", "turn 1 · tool fingerprint (native)", "turn 1 · shell wc", "Fact sheet: task.md"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
