package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Murmur's mur run looks for every artifact (E-RUN-008) and reads the
// local skill sources before it finds that the driver the inference
// block names is not declared (E-RUN-006, at launch): a capsule with both
// problems is told about the first. Each case's manifest names the
// undeclared driver "dummy-driver"; none leaves a workdir.
func TestRunRefusalOrderIsMurmurs(t *testing.T) {
	const agent = "name: cap\nversion: 0.1.0\ninference:\n  transport: http\n  endpoint: http://127.0.0.1:9\n  model: test-model\n  driver:\n    artifact: dummy-driver\n"
	for _, tc := range []struct {
		name, yaml string
		files      map[string]string // path → content ("" makes a directory)
		args       []string
		want       []string
	}{
		{"a missing artifact", agent + "  api_key: ${MUR_PARITY_DOTENV_KEY}\nartifacts:\n  - name: missing-tool\n    version: 0.0.1\n",
			map[string]string{".env": "MUR_PARITY_DOTENV_KEY=from-dotenv\n"}, nil,
			[]string{"error[E-RUN-008]: missing artifacts: missing-tool@0.0.1"}},
		// Without .env the api_key cannot be resolved: that comes first.
		{"--no-env-file", agent + "  api_key: ${MUR_PARITY_DOTENV_KEY}\nartifacts:\n  - name: missing-tool\n    version: 0.0.1\n",
			map[string]string{".env": "MUR_PARITY_DOTENV_KEY=from-dotenv\n"}, []string{"--no-env-file"},
			[]string{"E-MAN-003", "inference.api_key", "${MUR_PARITY_DOTENV_KEY}"}},
		{"a skill source that is not there", agent + "artifacts:\n  - name: ghost\n    source: ./skills/ghost/skill.md\n    runtime: skill\n",
			nil, nil, []string{"skill source path not found", "ghost"}},
		{"a skill directory without skill.md", agent + "artifacts:\n  - name: empty-skill\n    source: ./skills/empty/\n    runtime: skill\n",
			map[string]string{"skills/empty": ""}, nil, []string{"contains no skill.md", "empty"}},
		{"the undeclared driver alone", agent, nil, nil,
			[]string{"error[E-RUN-006]: inference driver 'dummy-driver' is not declared"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := capsuleDir(t, tc.yaml, nil)
			for p, content := range tc.files {
				p = filepath.Join(dir, p)
				var err error
				if content == "" {
					err = os.MkdirAll(p, 0o755)
				} else {
					err = os.WriteFile(p, []byte(content), 0o600)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := runIn(t, dir, tc.args...)
			expectFailure(t, stdout, stderr, code, "failed", tc.want...)
			if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
				t.Error("a refused run created a workdir")
			}
		})
	}
}

// A script capsule has no prompt for --system-prompt to replace: the flag
// is a command-line error (E-IO-003, exit 2) before the component is
// looked for (this capsule has none, E-RUN-004 otherwise), and nothing is
// created. --explain-scope
// reports grants, which a prompt does not change, so there it is no
// error.
func TestRunSystemPromptNeedsAnAgentCapsule(t *testing.T) {
	dir := capsuleDir(t, scriptYAML, nil)
	stdout, stderr, code := runIn(t, dir, "--system-prompt", "CLI prompt")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "error[E-IO-003]: --system-prompt") || !strings.Contains(stderr, "inference:") {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitUsage, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "workdir")); err == nil {
		t.Error("a refused run created a workdir")
	}
	plain, _, code := runIn(t, dir, "--explain-scope", "--json")
	withFlag, _, code2 := runIn(t, dir, "--explain-scope", "--json", "--system-prompt", "CLI prompt")
	if code != 0 || code2 != 0 || plain != withFlag {
		t.Errorf("--explain-scope with --system-prompt: exit %d/%d\n%s\nwithout:\n%s", code2, code, withFlag, plain)
	}
}
