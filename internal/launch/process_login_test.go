package launch_test

// How a real claude or codex gets its login under transport: process
// (README): the login variables a capsule lists in
// capabilities.shell.baseline_env reach the CLI through mur run, API keys
// never do, whatever it lists, and HOME stays the synthetic one.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestProcessCLILoginVariables(t *testing.T) {
	clis, err := fakeCLIs()
	if err != nil {
		t.Fatal(err)
	}
	passed := []string{"CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-login", "CODEX_ACCESS_TOKEN=codex-login", "CODEX_HOME=/home/u/.codex"}
	stripped := []string{"ANTHROPIC_API_KEY=sk-ant-api", "OPENAI_API_KEY=sk-openai", "CODEX_API_KEY=sk-codex"}
	for _, cli := range []string{"claude", "codex"} {
		t.Run(cli, func(t *testing.T) {
			var names []string
			for _, kv := range append(slices.Clone(passed), stripped...) {
				names = append(names, strings.SplitN(kv, "=", 2)[0])
			}
			p := processProject(t, "  command: "+filepath.Join(clis, cli)+"\n")
			path := filepath.Join(p.dir, "murmur.yaml")
			yaml, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			yaml = append(yaml, "capabilities:\n  shell:\n    allow: [git]\n    baseline_env: ["+strings.Join(names, ", ")+"]\n"...)
			if err := os.WriteFile(path, yaml, 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := runMur(p.dir, append(slices.Clone(passed), stripped...), "run", "--task", "turns 1")
			if code != 0 {
				t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			var env []string
			if err := json.Unmarshal([]byte(p.sessionFile("fake-env.json")), &env); err != nil {
				t.Fatal(err)
			}
			for _, kv := range passed {
				if !slices.Contains(env, kv) {
					t.Errorf("the CLI did not get %s: %v", kv, env)
				}
			}
			for _, kv := range env {
				for _, s := range stripped {
					if strings.Contains(kv, strings.SplitN(s, "=", 2)[1]) {
						t.Errorf("the CLI got an API key: %s", kv)
					}
				}
				if v, ok := strings.CutPrefix(kv, "HOME="); ok && filepath.Base(v) != ".capsule-home" {
					t.Errorf("the CLI's HOME is %s, not the synthetic one", v)
				}
			}
		})
	}
}
