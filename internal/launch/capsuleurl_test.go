package launch_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A served agent capsule's shell commands are told its URL
// (MURMUR_CAPSULE_URL, session.md §1.5), the very one mur announces: the
// port is bound before the guests are built, as in Murmur.
func TestShellCommandsSeeTheCapsuleURL(t *testing.T) {
	const cmd = `printf %s "$MURMUR_CAPSULE_URL" > capsule-url.txt`
	turns := `[{"tool_calls": [` + shellCall("url", cmd) + `]},
		{"expect_results": [` + expect("url", false, "$ "+cmd+"\nExit code: 0\nStdout:\n\nStderr:\n") + `], "text": "done"}]`
	p := shellProject(t, turns, "")
	stdout, stderr := p.mur(0, "run", "--task", "tell me where you are")
	announced := ""
	for line := range strings.SplitSeq(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "murmur: url "); ok {
			announced = v
		}
	}
	if !strings.HasPrefix(announced, "localhost:") {
		t.Fatalf("no capsule URL announced:\n%s\nstderr:\n%s", stdout, stderr)
	}
	got, err := os.ReadFile(filepath.Join(p.sessionDir(), "capsule-url.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != announced {
		t.Errorf("the shell command saw MURMUR_CAPSULE_URL=%q, mur announced %q", got, announced)
	}
}
