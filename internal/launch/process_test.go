package launch_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/process"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
)

// A transport: process capsule's CLI starts as a native tool does: through
// mur's rlimit trampoline with capabilities.resources, in an environment
// with no host credential, nothing shell.strip_env names, and
// shell.baseline_env's other names copied.
func TestProcessToolsStartTheCLILikeANativeTool(t *testing.T) {
	cli := filepath.Join(t.TempDir(), "claude")
	if err := goBuild(cli, "./internal/agent/process/testdata/fakecli"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := stage.GuestView{Capsule: &manifest.Capsule{Name: "p", Version: "0.1.0",
		Inference: &manifest.Inference{Transport: "process", Command: cli}},
		Workdir: stage.NewWorkdir(filepath.Join(dir, "work"), filepath.Join(dir, "ses"), nil)}
	if err := errors.Join(os.MkdirAll(s.AccessibleDir, 0o755), os.MkdirAll(s.OutDir, 0o755)); err != nil {
		t.Fatal(err)
	}
	openFiles := uint64(300)
	s.Ceiling.Resources = policy.SubprocessLimits(&manifest.Capabilities{Resources: &manifest.Resources{MaxOpenFiles: &openFiles}})
	s.Ceiling.ShellBaselineEnv = []string{"KEEP_ME", "MY_TOKEN"}
	s.Ceiling.ShellStripEnv = []string{"MY_TOKEN"}
	host := map[string]string{"PATH": os.Getenv("PATH"), "ANTHROPIC_API_KEY": "sk-ant-secret", "MY_TOKEN": "tok-secret", "KEEP_ME": "kept"}
	getenv := func(k string) (string, bool) { v, ok := host[k]; return v, ok }

	if _, err := launch.NewProcessTools(launch.Options{Staged: s, GuestIO: launch.GuestIO{Getenv: getenv}}); err == nil {
		t.Fatal("NewProcessTools without a trampoline succeeded; the CLI would run without capabilities.resources")
	}
	pt, err := launch.NewProcessTools(launch.Options{Staged: s, GuestIO: launch.GuestIO{Getenv: getenv}, Trampoline: env.mur})
	if err != nil {
		t.Fatal(err)
	}
	if pt.Sandbox.Self != env.mur || pt.Driver != nil {
		t.Fatalf("sandbox %+v, driver %v", pt.Sandbox, pt.Driver)
	}
	_, err = process.Run(context.Background(), process.Options{Workdir: s.Workdir, Command: cli, Task: "turns 1",
		Notices: "n", Trace: discardTrace{}, Env: pt.Env, Sandbox: pt.Sandbox})
	if err != nil {
		t.Fatal(err)
	}
	var envv []string
	readJSON(t, filepath.Join(s.AccessibleDir, "fake-env.json"), &envv)
	joined := strings.Join(envv, "\n")
	if strings.Contains(joined, "secret") || !slices.Contains(envv, "KEEP_ME=kept") {
		t.Fatalf("the CLI's environment:\n%s", joined)
	}
	var limits []uint64
	readJSON(t, filepath.Join(s.AccessibleDir, "fake-rlimits.json"), &limits)
	if limits[0] != 300 || limits[1] != uint64(policy.DefaultMaxFileSizeBytes) {
		t.Fatalf("hard RLIMIT_NOFILE, RLIMIT_FSIZE = %v, want [300 %d]", limits, policy.DefaultMaxFileSizeBytes)
	}
	var le *diag.Error
	s.Capsule.Inference.Transport = "http"
	if _, err := launch.NewProcessTools(launch.Options{Staged: s, Trampoline: env.mur}); !errors.As(err, &le) {
		t.Fatalf("NewProcessTools for transport: http: err = %v", err)
	}
}

type discardTrace struct{}

func (discardTrace) Inference(process.InferenceRecord) error   { return nil }
func (discardTrace) ToolCall(process.ToolCallRecord) error     { return nil }
func (discardTrace) SessionEnd(process.SessionEndRecord) error { return nil }

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
