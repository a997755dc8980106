package agentexample

// provider.sh's path to a real model, with the loopback mock provider
// standing in for a local Ollama: the manifest examples/agent/provider
// writes runs the example's tools through the bundled openai-compatible
// driver, streaming, and the model's answer is the result.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mur-go/mur/internal/testing/mockprovider"
)

func TestAgentExampleAgainstAProvider(t *testing.T) {
	e := setUp(t)
	srv := mockprovider.New(t,
		mockprovider.OpenAIStream([]string{"Measuring."},
			mockprovider.Call{ID: "stats", Name: "word-stats", Args: `{"path":"task.md"}`},
			mockprovider.Call{ID: "print", Name: "fingerprint", Args: `{"path":"task.md"}`}),
		mockprovider.OpenAIStream([]string{"Fact sheet: task.md, ", "35 words."}),
	)
	gen := filepath.Join(t.TempDir(), "provider")
	build := exec.Command("go", "build", "-o", gen, "./provider")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./provider: %v\n%s", err, b)
	}
	project := filepath.Join(t.TempDir(), "provider")
	cmd := exec.Command(gen, "-from", ".", "-o", project)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "OLLAMA_HOST=" + srv.URL, "AGENT_MODEL=mock-model"}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("provider: %v\n%s", err, b)
	}
	var m struct {
		Inference struct {
			Endpoint, Model string
			APIKey          *string `yaml:"api_key"`
			Driver          map[string]any
		}
		Capabilities struct {
			Network struct{ Allow []string }
		}
	}
	b, err := os.ReadFile(filepath.Join(project, "murmur.yaml"))
	if err == nil {
		err = yaml.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Inference.Endpoint != srv.URL+"/v1" || m.Inference.Model != "mock-model" || m.Inference.APIKey != nil ||
		m.Inference.Driver["artifact"] != "openai-compatible" || m.Inference.Driver["config"] != nil ||
		strings.Join(m.Capabilities.Network.Allow, ",") != srv.URL {
		t.Fatalf("the provider manifest is not the example against %s:\n%s", srv.URL, b)
	}
	// As provider.sh does: the tools from the local registry (the test's
	// HOME), the driver from mur itself.
	for _, zip := range e.pkgs {
		if !strings.Contains(filepath.Base(zip), "scripted") {
			e.mustMur(t, project, "publish", zip, "--registry", "local")
		}
	}
	if out, stderr, code := e.mur(project, "install", "--registry", "local"); code != 0 {
		t.Fatalf("mur install: exit %d\n%s%s", code, out, stderr)
	}
	stdout, stderr, code := e.mur(project, "run", "-v", "--task", "task.md")
	if code != 0 {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	result, err := os.ReadFile(lineValue(t, stdout, "result:  "))
	if err != nil || strings.TrimSpace(string(result)) != "Fact sheet: task.md, 35 words." {
		t.Errorf("out/result.txt = %q, %v; want the model's answer", result, err)
	}
	// As the README says: each turn's inference record (mur's counts) has
	// beside it the provider's usage (the mock reports 21 in, 9 out).
	trace, err := os.ReadFile(lineValue(t, stdout, "trace:   "))
	if err != nil {
		t.Fatal(err)
	}
	var inference, usage int
	for line := range strings.SplitSeq(strings.TrimSpace(string(trace)), "\n") {
		var raw map[string]any
		if err := json.Unmarshal([]byte(line), &raw); err != nil {
			t.Fatal(err)
		}
		switch raw["event_type"] {
		case "inference":
			inference++
		case "inference_usage":
			if raw["input_tokens"] == 21.0 && raw["output_tokens"] == 9.0 {
				usage++
			}
		}
	}
	if inference != 2 || usage != 2 {
		t.Errorf("trace.jsonl has %d inference records and %d inference_usage records with the provider's counts, want 2 of each:\n%s", inference, usage, trace)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `\"words\":35`) ||
		!strings.Contains(string(reqs[1].Body), "db7b3b124ddf0ab0888fecbfbe56785d827b703b87bc2319e159a1ed4e92a2ae") {
		t.Errorf("the second request does not carry both tools' results: %d requests\n%s", len(reqs), reqs[len(reqs)-1].Body)
	}
}
