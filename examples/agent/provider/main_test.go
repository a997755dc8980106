package main

import (
	"strings"
	"testing"
)

func TestPick(t *testing.T) {
	for _, tt := range []struct {
		name string
		env  map[string]string
		want choice
		err  string
	}{
		{"openai", map[string]string{"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"},
			choice{"openai-compatible", "https://api.openai.com/v1", "gpt-4o-mini", "OPENAI_API_KEY"}, ""},
		{"openai base url", map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "https://openrouter.ai/api/v1", "AGENT_MODEL": "m"},
			choice{"openai-compatible", "https://openrouter.ai/api/v1", "m", "OPENAI_API_KEY"}, ""},
		{"anthropic", map[string]string{"ANTHROPIC_API_KEY": "k", "OLLAMA_HOST": "x"},
			choice{"anthropic", "https://api.anthropic.com", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}, ""},
		{"ollama bare host", map[string]string{"OLLAMA_HOST": "0.0.0.0:11434"},
			choice{"openai-compatible", "http://127.0.0.1:11434/v1", "llama3.2", ""}, ""},
		{"ollama url", map[string]string{"OLLAMA_HOST": "http://localhost:11434/"},
			choice{"openai-compatible", "http://localhost:11434/v1", "llama3.2", ""}, ""},
		{"nothing set", nil, choice{}, "none of OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST is set"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := pick(func(k string) string { return tt.env[k] })
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("pick = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// The rewrite keeps everything but the model: the tools, the shell grant,
// the limits; the script is gone and the network opens to the endpoint.
func TestRewrite(t *testing.T) {
	base := "name: agent\nversion: \"0.1.0\"\ninference:\n  endpoint: http://localhost:9\n  model: scripted\n  max_turns: 4\n  driver:\n    artifact: scripted\n    config: {turns: []}\nartifacts:\n  - name: scripted\n    version: \"0.1.0\"\n    runtime: driver\n  - name: word-stats\n    version: \"0.1.0\"\n    runtime: tool\ncapabilities:\n  shell:\n    allow: [wc]\n  network:\n    allow: []\n"
	out, err := rewrite([]byte(base), choice{"anthropic", "https://api.anthropic.com", "claude-haiku-4-5", "ANTHROPIC_API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"endpoint: https://api.anthropic.com\n", "model: claude-haiku-4-5\n", "max_turns: 4\n", "api_key: ${ANTHROPIC_API_KEY}\n",
		"  driver:\n    artifact: anthropic\n", "  - name: anthropic\n    version: \"0.1.0\"\n    runtime: driver\n", "  - name: word-stats\n",
		"allow: [wc]\n", "allow: ['https://api.anthropic.com']\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rewritten manifest lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "scripted") || strings.Contains(string(out), "config") {
		t.Errorf("the scripted model survived:\n%s", out)
	}
	if _, err := rewrite([]byte("name: x\n"), choice{endpoint: "https://x"}); err == nil {
		t.Error("a manifest without inference was rewritten")
	}
}
