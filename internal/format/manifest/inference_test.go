package manifest

import (
	"strings"
	"testing"
)

func TestInferenceErrors(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ninference:\n"
	const ok = "  endpoint: https://api.example.com\n  model: m\n  driver: {artifact: d}\n"
	for _, tc := range []struct{ name, src, path, msg string }{
		{"transport", "  transport: grpc\n" + ok, "inference.transport", "unknown value 'grpc'"},
		{"transport case", "  transport: HTTP\n" + ok, "inference.transport", "unknown value 'HTTP'"},
		{"max_turns", ok + "  max_turns: 0\n", "inference.max_turns", "must be greater than 0"},
		{"prompts", ok + "  system_prompt: a\n  system_prompt_file: b\n", "inference.system_prompt", "at most one of system_prompt, system_prompt_file, system_prompt_artifact may be set"},
		{"threshold zero", ok + "  compaction: {threshold: 0}\n", "inference.compaction.threshold", "must be in (0.0, 1.0] but got 0"},
		{"threshold big", ok + "  compaction: {threshold: 2}\n", "inference.compaction.threshold", "must be in (0.0, 1.0] but got 2"},
		{"threshold nan", ok + "  compaction: {threshold: .nan}\n", "inference.compaction.threshold", "but got NaN"},
		{"compaction prompts", ok + "  compaction: {system_prompt: '', system_prompt_file: ''}\n", "inference.compaction.system_prompt", "at most one of inference.compaction.system_prompt, inference.compaction.system_prompt_file may be set"},
		{"compaction max_tokens zero", ok + "  compaction: {max_tokens: 0}\n", "inference.compaction.max_tokens", "must be greater than 0"},
		{"compaction driver_config list", ok + "  compaction: {driver_config: [1]}\n", "inference.compaction.driver_config", "expected mapping/object"},
		{"compaction driver_config string", ok + "  compaction: {driver_config: '{\"a\": 1}'}\n", "inference.compaction.driver_config", "expected mapping/object"},
		{"endpoint missing", "  model: m\n  driver: {artifact: d}\n", "inference.endpoint", "missing required field"},
		{"endpoint relative", "  endpoint: api.example.com\n  model: m\n  driver: {artifact: d}\n", "inference.endpoint", "failed to parse 'api.example.com' as a URL: relative URL without a base"},
		{"endpoint http", "  endpoint: http://10.0.0.1:8080\n  model: m\n  driver: {artifact: d}\n", "inference.endpoint", "uses plain http:// with non-loopback host '10.0.0.1'"},
		{"endpoint scheme", "  endpoint: ftp://x\n  model: m\n  driver: {artifact: d}\n", "inference.endpoint", "unsupported scheme 'ftp' in 'ftp://x' — expected http or https"},
		{"model", "  endpoint: https://x\n  model: ' '\n  driver: {artifact: d}\n", "inference.model", "missing required field"},
		{"driver", "  endpoint: https://x\n  model: m\n", "inference.driver", "missing required field"},
		{"driver artifact", "  endpoint: https://x\n  model: m\n  driver: {artifact: ' '}\n", "inference.driver.artifact", "missing required field"},
		{"driver config", "  endpoint: https://x\n  model: m\n  driver: {artifact: d, config: [1]}\n", "inference.driver.config", "expected mapping/object"},
		{"max_tokens", ok + "  max_tokens: 0\n", "inference.max_tokens", "must be greater than 0"},
		{"process command", "  transport: process\n", "inference.command", "missing required field"},
		{"process driver", "  transport: process\n  command: claude\n  provider: {artifact: d}\n", "inference.driver.artifact", "is not valid with transport: process"},
		{"process endpoint", "  transport: process\n  command: claude\n  endpoint: https://x\n", "inference.endpoint", "is not valid with transport: process"},
		{"process api_key", "  transport: process\n  command: claude\n  api_key: k\n", "inference.api_key", "is not valid with transport: process"},
		{"process max_tokens", "  transport: process\n  command: claude\n  max_tokens: 5\n", "inference.max_tokens", "is not valid with transport: process"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := expectErr(t, RoleCapsule, hdr+tc.src, CodeInvalid, tc.path, tc.msg)
			if !strings.HasPrefix(e.Msg, "invalid inference config for '"+tc.path+"': ") {
				t.Errorf("message shape: %q", e.Msg)
			}
		})
	}
	e := expectErr(t, RoleCapsule, hdr+ok+"  api_key: ' ${NOPE} '\n", CodeInvalid, "inference.api_key", "inference.api_key references ${NOPE} but the environment variable is not set")
	if e.Msg != "inference.api_key references ${NOPE} but the environment variable is not set" {
		t.Errorf("message: %q", e.Msg)
	}
	expectErr(t, RoleCapsule, hdr+ok+"  max_turns: 1.5\n", CodeSyntax, "inference.max_turns", "got number")
	expectErr(t, RoleCapsule, hdr+"  endpoint: https://x\n  model: m\n  driver: x\n", CodeSyntax, "inference.driver", "expected a mapping, got string")
	expectErr(t, RoleCapsule, hdr+ok+"  compaction: {max_tokens: -1}\n", CodeSyntax, "inference.compaction.max_tokens", "negative")
	expectErr(t, RoleCapsule, hdr+ok+"  compaction: {max_tokens: 4294967296}\n", CodeSyntax, "inference.compaction.max_tokens", "an unsigned 32-bit integer")
}

func TestInferenceValues(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ninference:\n"
	for _, tc := range []struct {
		name, src string
		env       []string
		check     func(*Inference) bool
	}{
		{"defaults", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool {
			return i.Transport == "http" && i.MaxTurns == 10 && i.MaxTaskReopens == 1 && i.EffectiveMaxTokens() == 8192 && !i.HasAPIKey && i.Compaction.EffectiveThreshold() == 0.98 && i.Driver.Config == ""
		}},
		{"blank transport", "  transport: ' '\n  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return i.Transport == "http" }},
		{"localhost", "  endpoint: http://localhost:11434\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return i.Endpoint == "http://localhost:11434" }},
		{"loopback v4", "  endpoint: ' http://127.0.0.2/v1 '\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return i.Endpoint == "http://127.0.0.2/v1" }},
		{"loopback v6", "  endpoint: 'http://[::1]:8080'\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return true }},
		{"provider legacy", "  endpoint: https://x\n  model: m\n  provider: {artifact: p}\n", nil, func(i *Inference) bool { return i.Driver.Artifact == "p" }},
		{"driver wins", "  endpoint: https://x\n  model: m\n  provider: {artifact: p}\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return i.Driver.Artifact == "d" }},
		{"raw api key", "  endpoint: https://x\n  model: m\n  driver: {artifact: d, raw_api_key: true}\n", nil, func(i *Inference) bool { return i.Driver.RawAPIKey }},
		{"gateway by default", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n", nil, func(i *Inference) bool { return !i.Driver.RawAPIKey }},
		{"config null", "  endpoint: https://x\n  model: m\n  driver: {artifact: d, config: ~}\n", nil, func(i *Inference) bool { return i.Driver.Config == "" }},
		{"api key literal", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  api_key: ' lit '\n", nil, func(i *Inference) bool { return i.APIKey == "lit" && i.APIKeyVar == "" }},
		{"api key blank", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  api_key: ''\n", nil, func(i *Inference) bool { return !i.HasAPIKey }},
		{"api key env", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  api_key: ${K_1}\n", []string{"K_1", "v"}, func(i *Inference) bool { return i.APIKey == "v" && i.APIKeyVar == "K_1" }},
		{"api key lower literal", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  api_key: ${lower}\n", nil, func(i *Inference) bool { return i.APIKey == "${lower}" }},
		{"api key prefix literal", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  api_key: x${K}\n", []string{"K", "v"}, func(i *Inference) bool { return i.APIKey == "x${K}" }},
		{"process", "  transport: process\n  command: ' claude '\n  endpoint: ' '\n  driver: ~\n", nil, func(i *Inference) bool {
			return i.Command == "claude" && i.Model == "" && i.Driver == nil
		}},
		{"prompt trimmed", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  system_prompt: '  hi  '\n  system_prompt_file: ' '\n", nil, func(i *Inference) bool { return i.SystemPrompt == "hi" }},
		{"compaction verbatim", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  compaction: {model: ' x ', system_prompt: ' p ', threshold: 1}\n", nil, func(i *Inference) bool {
			return *i.Compaction.Model == " x " && *i.Compaction.SystemPrompt == " p " && *i.Compaction.Threshold == 1
		}},
		{"compaction caps", "  endpoint: https://x\n  model: m\n  driver: {artifact: d, config: {b: 1}}\n  compaction: {max_tokens: 2000, driver_config: {z: [1, x], a: {n: ~}}}\n", nil, func(i *Inference) bool {
			return *i.Compaction.MaxTokens == 2000 && i.Compaction.DriverConfig == `{"a":{"n":null},"z":[1,"x"]}` && i.Driver.Config == `{"b":1}`
		}},
		{"compaction caps absent", "  endpoint: https://x\n  model: m\n  driver: {artifact: d}\n  compaction: {max_tokens: ~, driver_config: ~}\n", nil, func(i *Inference) bool {
			return i.Compaction.MaxTokens == nil && i.Compaction.DriverConfig == ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := parseCapsule(t, hdr+tc.src, tc.env...)
			if !tc.check(c.Inference) {
				t.Errorf("unexpected inference: %+v", c.Inference)
			}
		})
	}
}

func TestCompactionDriverConfig(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ninference:\n  endpoint: https://x\n  model: m\n"
	for _, tc := range []struct {
		name, src, want string
		ok              bool
	}{
		{"no compaction", "  driver: {artifact: d, config: {a: 1}}\n", "", false},
		{"no overlay", "  driver: {artifact: d, config: {a: 1}}\n  compaction: {max_tokens: 5}\n", "", false},
		{"overlay alone", "  driver: {artifact: d}\n  compaction: {driver_config: {a: 2}}\n", `{"a":2}`, true},
		{"top-level keys replace", "  driver: {artifact: d, config: {a: 1, h: {x: 1, y: 2}, s: false}}\n  compaction: {driver_config: {a: 2, h: {x: 3}}}\n",
			`{"a":2,"h":{"x":3},"s":false}`, true},
		{"null kept", "  driver: {artifact: d, config: {a: 1}}\n  compaction: {driver_config: {a: ~}}\n", `{"a":null}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := parseCapsule(t, hdr+tc.src)
			got, ok, err := c.Inference.CompactionDriverConfig()
			if err != nil || ok != tc.ok || got != tc.want {
				t.Errorf("CompactionDriverConfig() = %q, %v, %v; want %q, %v", got, ok, err, tc.want, tc.ok)
			}
		})
	}
}
