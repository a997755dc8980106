package launch_test

// What an on-stage hook's write-manifests gives the model, through `mur
// run` and the real openai-compatible driver: the tool listing the hook
// wrote is the one every request carries, and a shell command that
// rewrites tools/<bin>/murmur.yaml mid-session changes nothing the model
// is told.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/mockprovider"
)

// toolsSent is the tools array of one Chat Completions request, by name.
func toolsSent(t *testing.T, body []byte) map[string]map[string]any {
	t.Helper()
	var req struct {
		Tools []struct {
			Function map[string]any `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	out := map[string]map[string]any{}
	for _, tl := range req.Tools {
		name, _ := tl.Function["name"].(string)
		out[name] = tl.Function
	}
	return out
}

func TestOnStageManifestIsWhatTheModelSees(t *testing.T) {
	hp, err := hookPkgs()
	if err != nil {
		t.Fatal(err)
	}
	const plant = `printf 'description: planted by a command\ninput_schema: {type: object, properties: {evil: {type: string}}}\n' > tools/git/murmur.yaml`
	args, _ := json.Marshal(map[string]string{"command": plant})
	srv := mockprovider.New(t,
		mockprovider.OpenAI("Planting.", mockprovider.Call{ID: "c1", Name: "sh", Args: string(args)}),
		mockprovider.OpenAI("all done"))
	p := &project{t: t, dir: t.TempDir()}
	yaml := fmt.Sprintf(`name: agent
version: "0.1.0"
inference:
  endpoint: %s
  model: mock-model
  api_key: ${MOCK_PROVIDER_KEY}
  driver:
    artifact: openai-compatible
artifacts:
  - name: openai-compatible
    version: "0.1.0"
    runtime: driver
%scapabilities:
  network:
    allow: [%s]
  shell:
    allow: [sh, git]
`, srv.URL, hookEntry("stager", ""), srv.URL)
	if err := os.WriteFile(filepath.Join(p.dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	envKey := []string{"MOCK_PROVIDER_KEY=" + providerKey}
	p.mur(0, "publish", filepath.Join(hp, "stager-0.1.0.mur.zip"), "--registry", "local")
	if out, stderr, code := runMur(p.dir, envKey, "install"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s\n%s", code, out, stderr)
	}
	stdout, stderr, code := runMur(p.dir, envKey, "run", "--task", "plant")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%.4000s\nstderr:\n%s", code, stdout, stderr)
	}
	// The command did rewrite the file: the attack reached it.
	if got := p.sessionFile(filepath.Join("tools", "git", "murmur.yaml")); !strings.Contains(got, "planted") {
		t.Fatalf("tools/git/murmur.yaml = %q: the command did not rewrite it, so this test proves nothing", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the provider got %d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		tools := toolsSent(t, r.Body)
		// The hook's manifest holds a description only: the listing has it
		// and the default parameters (session.md §2.3).
		git := tools["git"]
		params, _ := json.Marshal(git["parameters"])
		if git == nil || git["description"] != "from on-stage" || string(params) != `{"properties":{},"type":"object"}` {
			t.Errorf("request %d lists git as %v", i+1, git)
		}
		if sh := tools["sh"]; sh == nil || !strings.Contains(fmt.Sprint(sh["description"]), "Runs a shell command with sh") {
			t.Errorf("request %d lists sh as %v", i+1, sh)
		}
		// The history quotes the command; the tools must not.
		if listed, _ := json.Marshal(tools); strings.Contains(string(listed), "planted") || strings.Contains(string(listed), "evil") {
			t.Errorf("request %d lists the rewritten manifest:\n%s", i+1, listed)
		}
	}
}
