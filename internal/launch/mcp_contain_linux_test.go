//go:build linux

package launch_test

// `mur mcp serve` runs each call under the capsule's grants and
// containment, exactly as `mur run` does: the escape tool
// (contain_test.go), called by the MCP SDK's client, must be refused
// every crossing, whether mur runs as root or as uid 65534 in a cgroup
// delegated to it. The capsule is a script capsule whose component is
// never looked for (serving its tools runs none) and whose local skill
// is offered as a prompt.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPServedToolIsContained(t *testing.T) {
	for _, u := range users(t) {
		t.Run(u.name, func(t *testing.T) { mcpServedToolIsContained(t, u) })
	}
}

// skillPkg is the skill guide packed with mur build: guideText, with a
// description.
func skillPkg(t *testing.T) string {
	t.Helper()
	src := t.TempDir()
	dir := filepath.Join(src, "guide")
	files := map[string]string{"murmur.yaml": "name: guide\nversion: \"0.1.0\"\nruntime: skill\ndescription: how to use the tools kindly\n", "skill.md": guideText}
	for name, text := range files {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := runMur(src, nil, "build", dir, "-o", src); code != 0 {
		t.Fatalf("mur build guide: exit %d\n%s", code, stderr)
	}
	return filepath.Join(src, "guide-0.1.0.mur.zip")
}

func mcpServedToolIsContained(t *testing.T, u asUser) {
	pkg, err := escapePkg()
	if err != nil {
		t.Fatal(err)
	}
	u.own(t)
	trial := newEscapeTrial(t)
	p := &project{t: t, dir: t.TempDir()}
	manifest := "name: served\nversion: \"0.1.0\"\nartifacts:\n" +
		"  - name: secret\n    version: \"0.1.0\"\n    runtime: tool\n" +
		"  - {name: guide, version: \"0.1.0\", runtime: skill}\n" +
		fmt.Sprintf("capabilities:\n  containment: scoped\n  network:\n    allow: [\"%s\"]\n", trial.allowed)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	p.mur(0, "install", pkg)
	p.mur(0, "install", skillPkg(t))
	workdir := t.TempDir()
	if err := os.WriteFile(filepath.Join(workdir, "targets.txt"), []byte(trial.targets), 0o644); err != nil {
		t.Fatal(err)
	}
	u.give(t, p.dir, workdir, trial.outside)

	cmd := u.command(p.dir, "mcp", "serve", "--workdir", workdir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mur-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("mur mcp serve as %s: %v\nstderr:\n%s", u.name, err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"guide", "secret"}) {
		t.Errorf("tools %v, want guide and secret", names)
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "guide" || prompts.Prompts[0].Description != "how to use the tools kindly" {
		t.Errorf("prompts %+v (%v), want the skill guide", prompts, err)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "guide"})
	if err != nil || len(got.Messages) != 1 || got.Messages[0].Content.(*mcp.TextContent).Text != guideText {
		t.Errorf("prompt guide: %+v, %v", got, err)
	}
	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "secret", Arguments: map[string]any{}})
	if err != nil || r.IsError {
		t.Fatalf("calling the tool: %+v, %v\nstderr:\n%s", r, err, stderr.String())
	}
	if err := cs.Close(); err != nil {
		t.Fatalf("closing: %v\nstderr:\n%s", err, stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("mur mcp serve as %s exited %d\nstderr:\n%s", u.name, code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(workdir, "escape.txt"))
	if err != nil {
		t.Fatalf("the tool left no report: %v\nstderr:\n%s", err, stderr.String())
	}
	trial.check(t, string(b))
	sessions, _ := filepath.Glob(filepath.Join(workdir, ".murmur", "ses_*"))
	if len(sessions) != 1 {
		t.Fatalf("session directories %v", sessions)
	}
	var types []string
	for _, l := range readTrace(t, sessions[0]) {
		types = append(types, l.Type)
	}
	if want := []string{"session_start", "skill_call", "tool_call", "session_end"}; !slices.Equal(types, want) {
		t.Errorf("trace %v, want %v", types, want)
	}
}
