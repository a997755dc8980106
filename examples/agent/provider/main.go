// Command provider writes the agent example's capsule for a real model:
// the example's murmur.yaml with its scripted model swapped for a bundled
// provider driver picked from the environment, and its task, in a
// directory of their own (the example's own manifest stays the offline,
// scripted one that CI runs).
//
//	go run ./examples/agent/provider [-o DIR]   # default examples/agent/.provider
//
// The first of these that is set picks the provider:
//
//	OPENAI_API_KEY     openai-compatible, https://api.openai.com/v1 (or OPENAI_BASE_URL), gpt-4o-mini
//	ANTHROPIC_API_KEY  anthropic, https://api.anthropic.com, claude-haiku-4-5
//	OLLAMA_HOST        openai-compatible, <OLLAMA_HOST>/v1, no key, llama3.2
//
// AGENT_MODEL replaces the model. The key is never written: the manifest
// says api_key: ${OPENAI_API_KEY} (or ANTHROPIC_API_KEY), read by mur run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// choice is the model a manifest is written for.
type choice struct {
	driver, endpoint, model, keyVar string
}

// pick chooses the provider from the environment.
func pick(getenv func(string) string) (choice, error) {
	var c choice
	switch {
	case getenv("OPENAI_API_KEY") != "":
		c = choice{"openai-compatible", "https://api.openai.com/v1", "gpt-4o-mini", "OPENAI_API_KEY"}
		if base := getenv("OPENAI_BASE_URL"); base != "" {
			c.endpoint = base
		}
	case getenv("ANTHROPIC_API_KEY") != "":
		c = choice{"anthropic", "https://api.anthropic.com", "claude-haiku-4-5", "ANTHROPIC_API_KEY"}
	case getenv("OLLAMA_HOST") != "":
		host := getenv("OLLAMA_HOST")
		if !strings.Contains(host, "://") {
			host = "http://" + host
		}
		// Ollama listens on every address when OLLAMA_HOST is 0.0.0.0;
		// mur allows plain http only to loopback.
		host = strings.Replace(host, "://0.0.0.0", "://127.0.0.1", 1)
		c = choice{"openai-compatible", strings.TrimSuffix(host, "/") + "/v1", "llama3.2", ""}
	default:
		return c, errors.New("none of OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST is set: export one (or run the scripted example: examples/agent/publish.sh --install)")
	}
	if m := getenv("AGENT_MODEL"); m != "" {
		c.model = m
	}
	return c, nil
}

// origin is the endpoint's scheme://host[:port], the network.allow rule
// the driver needs.
func origin(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", fmt.Errorf("endpoint %q is not an absolute URL", endpoint)
	}
	return u.Scheme + "://" + u.Host, nil
}

// rewrite is the example manifest for c: inference's endpoint, model, key
// and driver (its script dropped), the scripted artifact entry replaced by
// the driver's, and network.allow opened to the endpoint alone.
func rewrite(base []byte, c choice) ([]byte, error) {
	allow, err := origin(c.endpoint)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(base, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 {
		return nil, errors.New("murmur.yaml is not one document")
	}
	root := doc.Content[0]
	inf := get(root, "inference")
	if inf == nil {
		return nil, errors.New("murmur.yaml has no inference block")
	}
	set(inf, "endpoint", str(c.endpoint))
	set(inf, "model", str(c.model))
	if c.keyVar != "" {
		set(inf, "api_key", str("${"+c.keyVar+"}"))
	} else {
		del(inf, "api_key")
	}
	set(inf, "driver", mapping("artifact", str(c.driver)))
	arts := get(root, "artifacts")
	if arts == nil || arts.Kind != yaml.SequenceNode {
		return nil, errors.New("murmur.yaml has no artifacts list")
	}
	replaced := false
	for _, a := range arts.Content {
		if n := get(a, "name"); n != nil && n.Value == "scripted" {
			version := str("0.1.0")
			version.Style = yaml.DoubleQuotedStyle
			*a = *mapping("name", str(c.driver), "version", version, "runtime", str("driver"))
			a.HeadComment = "The model: a provider driver bundled with mur (mur list -g)."
			replaced = true
		}
	}
	if !replaced {
		return nil, errors.New("murmur.yaml declares no scripted driver to replace")
	}
	caps := get(root, "capabilities")
	if caps == nil {
		caps = mapping()
		set(root, "capabilities", caps)
	}
	set(caps, "network", mapping("allow", &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{str(allow)}}))
	doc.HeadComment = fmt.Sprintf("Written by examples/agent/provider from examples/agent/murmur.yaml: the\nsame capsule, its model %s at %s through the bundled\n%s driver. Regenerate rather than edit.", c.model, c.endpoint, c.driver)
	// The example's own header describes the scripted model.
	root.Content[0].HeadComment = ""
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return []byte(b.String()), enc.Close()
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v.HeadComment, v.LineComment = "", ""
			m.Content[i+1] = v
			m.Content[i].HeadComment, m.Content[i].LineComment, m.Content[i].FootComment = "", "", ""
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}

func del(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func run() error {
	here := filepath.Join("examples", "agent")
	out := flag.String("o", filepath.Join(here, ".provider"), "directory to write murmur.yaml and task.md into")
	src := flag.String("from", here, "the agent example's directory")
	flag.Parse()
	c, err := pick(os.Getenv)
	if err != nil {
		return err
	}
	base, err := os.ReadFile(filepath.Join(*src, "murmur.yaml"))
	if err != nil {
		return fmt.Errorf("%w (run from the repository root, or pass -from)", err)
	}
	manifest, err := rewrite(base, c)
	if err != nil {
		return fmt.Errorf("rewriting %s: %w", filepath.Join(*src, "murmur.yaml"), err)
	}
	task, err := os.ReadFile(filepath.Join(*src, "task.md"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "murmur.yaml"), manifest, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "task.md"), task, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %s at %s, model %s\n", *out, c.driver, c.endpoint, c.model)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "provider:", err)
		os.Exit(1)
	}
}
