package manifest

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

const maximal = `name: full-capsule
version: "2.3.0"
mur_version: "0.2.0"
registry:
  default: local
artifacts:
  - name: murmur-driver-anthropic
    version: "1.0.0"
    runtime: driver
    capabilities:
      network:
        allow: [https://api.anthropic.com]
  - name: murmur-tool-git
    version: "1.0.0"
    capabilities:
      network: {allow: []}
      filesystem: {scope: repo}
  - name: murmur-hook-debug
    version: "0.3.0"
    runtime: hook
    on_overflow: block
  - name: house-style
    runtime: skill
    source: ./skills/house-style/
  - name: review-rules
    version: "1.0.0"
    runtime: skill
capabilities:
  network:
    allow: [https://api.anthropic.com, "localhost:11434"]
    unix_sockets: false
  filesystem:
    scope: " . "
    workdir_exec: false
  shell:
    allow: [bash, python3, node]
    strip_env: ["AWS_*"]
    baseline_env: [PATH]
    interpreter_runtime:
      - binary: node
        dirs:
          - {path: /usr/lib/node_modules, list_dir: true}
    staged_runtime:
      - binary: python3
        source_path: /opt/envs/py311
        pin: " cpython-3.11.9 "
  spawn:
    allow: [worker-capsule]
  env:
    allow: [MY_APP_REGION]
  limits: {memory_bytes: 1024, table_elements: 10, instances: 5, deadline_seconds: 60}
  resources:
    max_processes: 1
    max_open_files: 2
    max_file_size_bytes: 3
    cpu_seconds: 4
    memory_bytes: 5
    cgroup_memory_bytes: 6
    cgroup_pids_max: 7
    cgroup_cpu_percent: 8
    cgroup_io_bytes_per_sec: 9
    workdir_max_bytes: 10
  containment: " sealed "
network:
  internal_port: 14159
context:
  max_tokens: 200000
observability:
  otel_endpoint: " http://localhost:4318 "
  eval:
    dataset_id: ds-1
    scorers:
      - {type: exit_ok, name: ok}
      - {type: max_turns, name: turns, max: 8}
      - {type: max_tokens, name: budget}
      - {type: tool_sequence, name: order, expected: [murmur-tool-git, bash]}
      - {type: llm_judge}
trace:
  include_tool_output: true
lifecycle:
  task_acceptance: queue
  after_task: sleep
  queue_depth: 2
  input_timeout_secs: 300
  conversation: threaded
inference:
  transport: http
  endpoint: https://api.anthropic.com
  model: claude-opus-4-5
  api_key: ${ANTHROPIC_API_KEY}
  driver:
    artifact: murmur-driver-anthropic
    config: {thinking: {budget_tokens: 2048}, b: [1, true, null, "x", 1.5]}
  max_tokens: 4096
  max_turns: 20
  max_task_reopens: 0
  system_prompt_artifact: review-rules
  compaction:
    threshold: 0.85
    model: claude-haiku-4-5
    system_prompt_file: " compaction.md "
    dump_summaries: true
`

func u64(v uint64) *uint64 { return &v }

func TestMaximalCapsule(t *testing.T) {
	c, w := parseCapsule(t, maximal, "ANTHROPIC_API_KEY", "sk-test")
	if len(w) != 0 {
		t.Errorf("unexpected warnings: %v", warnCodes(w))
	}
	check := func(name string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", name, got, want)
		}
	}
	check("name", c.Name, "full-capsule")
	check("version", c.Version, "2.3.0")
	check("mur_version", c.MurVersion, "0.2.0")
	check("artifacts", len(c.Artifacts), 5)
	a := c.Artifacts
	check("a0", [3]string{a[0].Name, a[0].Version, a[0].Runtime}, [3]string{"murmur-driver-anthropic", "1.0.0", "driver"})
	check("a0 allow", a[0].Capabilities.NetworkAllow(), []string{"https://api.anthropic.com"})
	check("a1 runtime default", a[1].Runtime, "tool")
	check("a1 allow empty", a[1].Capabilities.Network.Allow, []string{})
	check("a1 scope", a[1].Capabilities.Scope(), "repo")
	check("a2 overflow", a[2].OnOverflow, "block")
	check("a0 overflow default", a[0].OnOverflow, "drop")
	check("a3 local", [4]any{a[3].Version, a[3].Source, a[3].LocalSource, a[3].PromptPayload}, [4]any{"local", "./skills/house-style/", true, true})
	check("a4 payload", a[4].PromptPayload, true)
	check("a1 payload", a[1].PromptPayload, false)
	check("visible", []bool{a[0].ModelVisible(), a[1].ModelVisible(), a[2].ModelVisible(), a[3].ModelVisible()}, []bool{false, true, false, true})

	caps := c.Capabilities
	check("allow", caps.NetworkAllow(), []string{"https://api.anthropic.com", "localhost:11434"})
	check("scope trimmed", caps.Scope(), ".")
	check("shell", caps.ShellAllow(), []string{"bash", "python3", "node"})
	check("strip", caps.Shell.StripEnv, []string{"AWS_*"})
	check("baseline", caps.Shell.BaselineEnv, []string{"PATH"})
	check("interp", caps.Shell.InterpreterRuntime, []InterpreterRuntime{{Binary: "node", Dirs: []InterpreterDir{{"/usr/lib/node_modules", true}}}})
	check("staged", caps.Shell.StagedRuntime, []StagedRuntime{{"python3", "/opt/envs/py311", "cpython-3.11.9"}})
	check("spawn", caps.SpawnAllow(), []string{"worker-capsule"})
	check("env", caps.EnvAllow(), []string{"MY_APP_REGION"})
	check("limits", caps.Limits, &Limits{u64(1024), u64(10), u64(5), u64(60)})
	check("resources", caps.Resources, &Resources{u64(1), u64(2), u64(3), u64(4), u64(5), u64(6), u64(7), u64(8), u64(9), u64(10)})
	check("containment", caps.Containment, "sealed")

	check("port", *c.InternalPort, uint16(14159))
	check("context", *c.ContextMaxTokens, uint32(200000))
	check("otel", c.OtelEndpoint, "http://localhost:4318")
	check("dataset", *c.Eval.DatasetID, "ds-1")
	check("scorers", c.Eval.Scorers, []Scorer{
		{Type: "exit_ok", Name: "ok"},
		{Type: "max_turns", Name: "turns", Max: 8},
		{Type: "max_tokens", Name: "budget", Max: 100000},
		{Type: "tool_sequence", Name: "order", Expected: []string{"murmur-tool-git", "bash"}},
		{Type: "llm_judge", Name: "llm_judge"},
	})
	check("trace", c.IncludeToolOutput, true)
	check("lifecycle", c.Lifecycle, Lifecycle{"queue", "sleep", 2, u64(300), "threaded"})

	inf := c.Inference
	check("transport", inf.Transport, "http")
	check("endpoint", inf.Endpoint, "https://api.anthropic.com")
	check("model", inf.Model, "claude-opus-4-5")
	check("api key", [3]any{inf.APIKey, inf.HasAPIKey, inf.APIKeyVar}, [3]any{"sk-test", true, "ANTHROPIC_API_KEY"})
	check("driver", inf.Driver.Artifact, "murmur-driver-anthropic")
	check("driver config", inf.Driver.Config, `{"b":[1,true,null,"x",1.5],"thinking":{"budget_tokens":2048}}`)
	check("max_tokens", inf.EffectiveMaxTokens(), uint32(4096))
	check("max_turns", inf.MaxTurns, uint32(20))
	check("reopens", inf.MaxTaskReopens, uint32(0))
	check("prompt artifact", inf.SystemPromptArtifact, "review-rules")
	check("threshold", inf.Compaction.EffectiveThreshold(), float32(0.85))
	check("compaction model", *inf.Compaction.Model, "claude-haiku-4-5")
	check("compaction file", inf.Compaction.SystemPromptFile, "compaction.md")
	check("dump", inf.Compaction.DumpSummaries, true)
	url, err := c.Registry.Resolve()
	check("registry", [2]any{url, err}, [2]any{"", error(nil)})
}

func TestMinimalCapsuleDefaults(t *testing.T) {
	c, w := parseCapsule(t, "name: hello\nversion: \"0.1.0\"\n")
	if len(w) != 0 || c.IsAgent() || len(c.Artifacts) != 0 || c.Capabilities != nil {
		t.Fatalf("unexpected: %+v %v", c, w)
	}
	if c.Lifecycle != DefaultLifecycle() {
		t.Errorf("lifecycle = %+v", c.Lifecycle)
	}
	if c.InternalPort != nil || c.ContextMaxTokens != nil || c.IncludeToolOutput || c.Eval != nil {
		t.Errorf("defaults wrong: %+v", c)
	}
}

func TestCapsuleScalars(t *testing.T) {
	for _, tc := range []struct{ src, name, version, mur string }{
		{"name: a\nversion: 1.0\n", "a", "1.0", ""}, // number keeps its text
		{"name: true\nversion: 0.1.0\n", "true", "0.1.0", ""},
		{"name: a\nversion: '2'\nmur_version: '  '\n", "a", "2", ""},
		{"name: a\nversion: '2'\nmur_version: 0.2.0\n", "a", "2", "0.2.0"},
		{"name: a\nversion: !!str 3\n", "a", "3", ""},
	} {
		c, _ := parseCapsule(t, tc.src)
		if c.Name != tc.name || c.Version != tc.version || c.MurVersion != tc.mur {
			t.Errorf("%q: got %q %q %q", tc.src, c.Name, c.Version, c.MurVersion)
		}
	}
}

// TestCapsuleErrors covers every capsule error code and message shape.
func TestCapsuleErrors(t *testing.T) {
	const hdr = "name: c\nversion: \"1\"\n"
	for _, tc := range []struct {
		name, src string
		code      diag.Code
		path, msg string
	}{
		{"missing name", "version: '1'\n", CodeMissingField, "name", "missing required field 'name'"},
		{"null name", "name: ~\nversion: '1'\n", CodeMissingField, "name", "missing required field 'name'"},
		{"blank name", "name: '  '\nversion: '1'\n", CodeMissingField, "name", "missing required field 'name'"},
		{"missing version", "name: a\n", CodeMissingField, "version", "missing required field 'version'"},
		{"root list", "- a\n", CodeSyntax, "<root>", "expected a mapping, got sequence"},
		{"name seq", "name: [a]\nversion: '1'\n", CodeSyntax, "name", "expected a string, got sequence"},
		{"syntax", "name: [a\n", CodeSyntax, "", "YAML syntax error"},
		{"flow braces", "name: {{ x }}\nversion: '1'\n", CodeSyntax, "name", "expected a string, got mapping"},
		{"artifacts null", hdr + "artifacts: ~\n", CodeSyntax, "artifacts", "got null"},
		{"artifacts map", hdr + "artifacts: {a: 1}\n", CodeSyntax, "artifacts", "got mapping"},
		{"artifact scalar", hdr + "artifacts: [x]\n", CodeSyntax, "artifacts[0]", "expected a mapping, got string"},
		{"artifact no name", hdr + "artifacts: [{version: '1'}]\n", CodeInvalid, "artifacts[0].name", "invalid artifact declaration at index 0: missing required field 'name'"},
		{"artifact wasm", hdr + "artifacts: [{name: a, version: '1', runtime: native}]\n", CodeInvalid, "artifacts[0].runtime", "use 'runtime: tool'; implementation is declared in the artifact's own manifest (got 'native')"},
		{"artifact runtime", hdr + "artifacts: [{name: a, version: '1', runtime: Tool}]\n", CodeInvalid, "artifacts[0].runtime", "unknown runtime 'Tool'; expected one of: tool, driver, hook, skill"},
		{"artifact source", hdr + "artifacts: [{name: a, runtime: hook, source: x}]\n", CodeInvalid, "artifacts[0].source", "artifact 'a' declares 'source:' but does not declare 'local_source: true' (runtime: hook)"},
		{"skill local false", hdr + "artifacts: [{name: a, runtime: skill, local_source: false, source: x}]\n", CodeInvalid, "artifacts[0].source", "does not declare 'local_source: true' (runtime: skill)"},
		{"artifact version", hdr + "artifacts: [{name: a}]\n", CodeInvalid, "artifacts[0].version", "at index 0: missing required field 'version'"},
		{"skill caps", hdr + "artifacts: [{name: a, version: '1', runtime: skill, capabilities: {}}]\n", CodeInvalid, "artifacts[0].capabilities", "has 'runtime: skill'; per-artifact capabilities are only recognized"},
		{"overflow tool", hdr + "artifacts: [{name: a, version: '1', runtime: driver, on_overflow: drop}]\n", CodeInvalid, "artifacts[0].on_overflow", "declares 'on_overflow:' but has 'runtime: driver'"},
		{"overflow value", hdr + "artifacts: [{name: a, version: '1', runtime: hook, on_overflow: Drop}]\n", CodeInvalid, "artifacts[0].on_overflow", "declares unknown on_overflow 'Drop'; expected: drop, block"},
		{"artifact bool", hdr + "artifacts: [{name: a, version: '1', local_source: yes}]\n", CodeSyntax, "artifacts[0].local_source", "expected boolean, got string"},
		{"artifact cap inner", hdr + "artifacts: [{name: a, version: '1', capabilities: {limits: {instances: 0}}}]\n", CodeInvalid, "artifacts[0].capabilities.limits.instances", "must be greater than zero"},
		{"port", hdr + "network: {internal_port: 65536}\n", CodeSyntax, "network.internal_port", "too large"},
		{"port neg", hdr + "network: {internal_port: -1}\n", CodeSyntax, "network.internal_port", "negative"},
		{"port string", hdr + "network: {internal_port: '80'}\n", CodeSyntax, "network.internal_port", "got string"},
		{"context zero", hdr + "context: {max_tokens: 0}\n", CodeInvalid, "context.max_tokens", "invalid inference config for 'context.max_tokens': must be greater than 0"},
		{"context big", hdr + "context: {max_tokens: 4294967296}\n", CodeSyntax, "context.max_tokens", "too large"},
		{"trace bool", hdr + "trace: {include_tool_output: 'true'}\n", CodeSyntax, "trace.include_tool_output", "expected boolean, got string"},
		{"trace on", hdr + "trace: {include_tool_output: on}\n", CodeSyntax, "trace.include_tool_output", "expected boolean"},
		{"acceptance", hdr + "lifecycle: {task_acceptance: multi}\n", CodeSyntax, "lifecycle.task_acceptance", "expected one of: none, single, queue"},
		{"after_task", hdr + "lifecycle: {after_task: stay}\n", CodeSyntax, "lifecycle.after_task", "expected one of: exit, sleep"},
		{"conversation", hdr + "lifecycle: {conversation: chat}\n", CodeSyntax, "lifecycle.conversation", "expected one of: stateless, threaded"},
		{"queue zero", hdr + "lifecycle: {queue_depth: 0}\n", CodeInvalid, "lifecycle.queue_depth", "must be greater than 0"},
		{"timeout float", hdr + "lifecycle: {input_timeout_secs: 1.5}\n", CodeSyntax, "lifecycle.input_timeout_secs", "got number"},
		{"scorer type", hdr + "observability: {eval: {scorers: [{name: x}]}}\n", CodeSyntax, "observability.eval.scorers[0].type", "missing field 'type'"},
		{"scorer max", hdr + "observability: {eval: {scorers: [{type: max_turns, max: -3}]}}\n", CodeSyntax, "observability.eval.scorers[0].max", "negative"},
		{"lifecycle scalar", hdr + "lifecycle: queue\n", CodeSyntax, "lifecycle", "expected a mapping, got string"},
		{"prompt artifact missing", hdr + "artifacts: [{name: s, version: '1', runtime: skill}]\ninference: {endpoint: 'https://x', model: m, driver: {artifact: d}, system_prompt_artifact: nope}\n", CodeInvalid, "inference.system_prompt_artifact", "artifact 'nope' is not declared in artifacts:"},
		{"prompt artifact payload", hdr + "artifacts: [{name: t, version: '1'}]\ninference: {endpoint: 'https://x', model: m, driver: {artifact: d}, system_prompt_artifact: t}\n", CodeInvalid, "inference.system_prompt_artifact", "artifact 't' (runtime: tool) does not declare 'prompt_payload: true', which system_prompt_artifact requires"},
		{"duplicate", hdr + "name: again\n", CodeSyntax, "name", "duplicate key 'name'"},
		{"two docs", hdr + "---\nname: x\n", CodeSyntax, "", "more than one YAML document"},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErr(t, RoleCapsule, tc.src, tc.code, tc.path, tc.msg) })
	}
}

func TestCapsuleCollectsAllErrors(t *testing.T) {
	src := "artifacts:\n  - {version: '1'}\n  - {name: b}\ncapabilities: {limits: {instances: 0}}\n"
	_, _, err := Parse([]byte(src), "", ParseOptions{Env: envOf()})
	var got []string
	for _, e := range errs(err) {
		got = append(got, string(e.Code)+" "+e.Pos.Path)
	}
	want := []string{"E-MAN-001 name", "E-MAN-001 version", "E-MAN-003 artifacts[0].name", "E-MAN-003 artifacts[1].version", "E-MAN-003 capabilities.limits.instances"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestArtifactRefDefaults(t *testing.T) {
	c, w := parseCapsule(t, `name: c
version: "1"
artifacts:
  - {name: s, version: "9", runtime: skill, source: ./s.md}
  - {name: t, version: "1", local_source: true, prompt_payload: true, source: ./t.md}
  - {name: k, version: "1", runtime: skill, prompt_payload: false}
  - {name: dup, version: "1"}
  - {name: dup, version: "2"}
`)
	if !hasWarn(w, WarnSourceVersion, "artifacts[0].version") {
		t.Errorf("want W-MAN-002, got %v", warnCodes(w))
	}
	a := c.Artifacts
	if a[0].Version != "local" || !a[0].IsLocal() || a[1].Version != "local" || !a[1].PromptPayload || a[2].PromptPayload || !a[2].LocalSource {
		t.Errorf("defaults wrong: %+v", a)
	}
	if got, _ := c.Artifact("dup"); got.Version != "1" {
		t.Errorf("Artifact(dup) = %+v, want the first", got)
	}
}

func TestEmptyListsAndNulls(t *testing.T) {
	c, _ := parseCapsule(t, "name: c\nversion: '1'\nartifacts:\ncapabilities:\n  network:\n    allow:\n  shell:\n    allow: [sh]\n    strip_env: ~\ninference: ~\ntrace:\nlifecycle: null\n")
	if len(c.Artifacts) != 0 || c.Capabilities.Network.Allow == nil || len(c.Capabilities.Network.Allow) != 0 {
		t.Errorf("empty list handling: %+v", c.Capabilities.Network)
	}
	if c.Capabilities.Shell.StripEnv != nil || c.Inference != nil {
		t.Errorf("null handling wrong")
	}
	expectErr(t, RoleCapsule, "name: c\nversion: '1'\ncapabilities: {network: {allow: ~}}\n", CodeSyntax, "capabilities.network.allow", "got null")
	expectErr(t, RoleCapsule, "name: c\nversion: '1'\ncapabilities: {network: {unix_sockets: }}\n", CodeSyntax, "capabilities.network.unix_sockets", "expected boolean, got null")
	expectErr(t, RoleCapsule, "name: c\nversion: '1'\ncapabilities: {filesystem: {workdir_exec: ~}}\n", CodeSyntax, "capabilities.filesystem.workdir_exec", "got null")
}

func TestRegistryResolve(t *testing.T) {
	for _, tc := range []struct{ src, url, err string }{
		{"", "", ""},
		{"registry: {default: remote}\n", DefaultRemoteRegistry, ""},
		{"registry: {default: remote, remote_url: ' https://n.example.com/ '}\n", "https://n.example.com", ""},
		{"registry: {default: cloud}\n", "", "invalid registry.default 'cloud' (expected local|remote)"},
		{"registry: 7\n", "", ""}, // ignored by the capsule parser, as in Murmur
	} {
		c, _ := parseCapsule(t, "name: c\nversion: '1'\n"+tc.src)
		url, err := c.Registry.Resolve()
		if url != tc.url || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: got %q %v", tc.src, url, err)
		}
		if err != nil && err.(*diag.Error).Code != CodeIO {
			t.Errorf("code = %s", err.(*diag.Error).Code)
		}
	}
}

func TestRoleDetection(t *testing.T) {
	for src, want := range map[string]Role{
		"name: a\nversion: '1'\n":                                                      RoleCapsule,
		"name: a\nversion: '1'\nruntime: tool\n":                                       RoleArtifact,
		"name: a\nversion: '1'\nrequires_files: [x]\nexecution: wasm\nruntime: tool\n": RoleArtifact,
		"": RoleCapsule,
		"name: a\nversion: '1'\nartifacts: [{runtime: hook}]": RoleCapsule,
	} {
		f, _, _ := Parse([]byte(src), "", ParseOptions{Env: envOf()})
		if f != nil && f.Role != want {
			t.Errorf("%q: role %v, want %v", src, f.Role, want)
		}
		if f == nil && want != RoleCapsule {
			t.Errorf("%q: failed", src)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	sub := dir + "/sub"
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(sub, 0o755))
	// .env beside the outer murmur.yaml is found from a nested manifest
	// only when no murmur.yaml is closer; here sub has its own.
	must(os.WriteFile(dir+"/murmur.yaml", []byte("name: outer\nversion: '1'\n"), 0o644))
	must(os.WriteFile(dir+"/.env", []byte("KEY=from-outer\n"), 0o644))
	must(os.WriteFile(sub+"/custom.yaml", []byte("name: x\nversion: '1'\ninference: {endpoint: 'https://x', model: m, driver: {artifact: d}, api_key: '${KEY}'}\n"), 0o644))
	f, _, err := Load(sub+"/custom.yaml", envOf())
	must(err)
	if f.Capsule.Inference.APIKey != "from-outer" || f.DotEnvPath != dir+"/.env" {
		t.Errorf("got key %q from %q", f.Capsule.Inference.APIKey, f.DotEnvPath)
	}
	if v, ok := f.LookupEnv("KEY"); !ok || v != "from-outer" {
		t.Errorf("LookupEnv = %q %v", v, ok)
	}
	// The process environment wins, even when set to empty.
	f, _, err = Load(sub+"/custom.yaml", envOf("KEY", ""))
	must(err)
	if f.Capsule.Inference.APIKey != "" || !f.Capsule.Inference.HasAPIKey {
		t.Errorf("process env must win: %q", f.Capsule.Inference.APIKey)
	}
	// --no-env-file
	_, _, err = LoadWith(sub+"/custom.yaml", LoadOptions{Env: envOf(), NoEnvFile: true})
	if e := errs(err); len(e) != 1 || e[0].Pos.Path != "inference.api_key" {
		t.Errorf("want api_key error, got %v", err)
	}
	// A bad .env is E-IO-003.
	must(os.WriteFile(dir+"/.env", []byte("# c\nNOEQUALS\n"), 0o644))
	_, _, err = Load(sub+"/custom.yaml", envOf())
	if e := errs(err); len(e) != 1 || e[0].Code != CodeIO || e[0].Pos.Line != 2 {
		t.Errorf("want E-IO-003 at line 2, got %v", err)
	}
	_, _, err = Load(dir+"/missing.yaml", nil)
	if e := errs(err); len(e) != 1 || e[0].Code != CodeNotFound {
		t.Errorf("want E-IO-001, got %v", err)
	}
}
