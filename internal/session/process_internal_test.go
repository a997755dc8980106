package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
)

// runAgent runs a transport: process capsule's CLI through the trampoline and maps its outcome:
// ok with the result written, a CLI failure as a failed run.
func TestRunAgentProcess(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if out, err := exec.Command("go", "build", "-o", cli, "../agent/process/testdata/fakecli").CombinedOutput(); err != nil {
		t.Fatalf("building the fake CLI: %v\n%s", err, out)
	}
	for _, c := range []struct {
		task, result string
		status       Status
	}{
		{"turns 1", "after turns", ""},
		{"exit", "", StatusFailed},
	} {
		t.Run(c.task, func(t *testing.T) {
			dir := t.TempDir()
			s := &stage.Staged{ID: "ses_test", Workdir: stage.NewWorkdir(filepath.Join(dir, "work"), filepath.Join(dir, "ses"), nil),
				Capsule: &manifest.Capsule{Inference: &manifest.Inference{Transport: "process", Command: cli, MaxTurns: 10},
					Lifecycle: manifest.Lifecycle{TaskAcceptance: "single", AfterTask: "exit", QueueDepth: 1}}}
			s.Ceiling.Resources = policy.SubprocessLimits(nil)
			for _, d := range []string{s.AccessibleDir, s.OutDir} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(s.AccessibleDir, "task.md"), []byte(c.task), 0o644); err != nil {
				t.Fatal(err)
			}
			l, err := listen(t.Context(), s.Capsule, ServeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = runAgent(context.Background(), s, l, launch.Options{Staged: s.Guests(), Trampoline: cli,
				GuestIO: launch.GuestIO{Getenv: func(k string) (string, bool) { return os.Getenv("PATH"), k == "PATH" }}}, Options{})
			switch {
			case c.status == "" && err != nil:
				t.Fatal(err)
			case c.status != "" && StatusOf(err) != c.status:
				t.Fatalf("err = %v, want status %s", err, c.status)
			}
			b, _ := os.ReadFile(filepath.Join(s.OutDir, stage.ResultFile))
			if c.status == "" && string(b) != c.result {
				t.Fatalf("result.txt %q", b)
			}
		})
	}
}
