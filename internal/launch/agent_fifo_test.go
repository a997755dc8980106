package launch_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tool's shell command plants a FIFO where the loop writes the task's
// outcome (out/result.txt). Opening a FIFO for writing waits until
// someone opens it for reading, which nobody does: the run must fail
// saying why instead of waiting forever.
func TestPlantedFIFOResultDoesNotHangTheLoop(t *testing.T) {
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: fifo-planter
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [%s]}, {"text": "planted"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
capabilities:
  shell:
    allow: [sh, rm, mkdir, mkfifo]
`, shellCall("plant", "mkdir -p out && rm -f out/result.txt && mkfifo out/result.txt"))
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip"))
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, env.mur, "run", "--task", "plant a fifo")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("mur run was still waiting on the planted FIFO after 90 s\n%s", out)
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("mur run: %v, want a failed run\n%s", err, out)
	}
	if !strings.Contains(string(out), "result.txt") || !strings.Contains(string(out), "not a regular file") {
		t.Errorf("the failure does not say out/result.txt is not a regular file:\n%s", out)
	}
}
