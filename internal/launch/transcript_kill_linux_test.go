//go:build linux

package launch_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A run killed with SIGKILL while a tool runs keeps its transcript up to
// that tool's start: each line is in the file as the step begins or ends.
func TestKilledRunKeepsItsTranscript(t *testing.T) {
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	work := t.TempDir()
	yaml := fmt.Sprintf(`name: killed
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"text": "waiting", "tool_calls": [%s]}, {"text": "never"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
capabilities:
  shell:
    allow: [sh, sleep]
`, shellCall("wait", "echo running > ready; exec sleep 600"))
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
	// The command says it runs through a FIFO the test reads: no sleeps.
	ready := filepath.Join(work, "ready")
	if err := syscall.Mkfifo(ready, 0o666); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.mur, "run", "--workdir", work, "--task", "wait for me")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if f, err := os.Open(ready); err == nil {
			bufio.NewReader(f).ReadString('\n')
			f.Close()
		}
	}()
	select {
	case <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		cmd.Wait()
		// Opening the write end lets the reader go.
		if f, err := os.OpenFile(ready, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatalf("the shell command never started\n%s", out.String())
	}
	cmd.Process.Kill()
	cmd.Wait()
	entries := sessionTranscript(t, work)
	if got, want := kinds(entries), "session task_start model_start model_end tool_start:sh"; got != want {
		t.Fatalf("the killed run's transcript\n got  %s\n want %s", got, want)
	}
	if e := entries[4]; !strings.Contains(e.Text, "exec sleep 600") || e.ToolKind != "shell" {
		t.Errorf("tool_start %+v", e)
	}
}
