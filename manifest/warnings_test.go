package manifest

import (
	"strings"
	"testing"
)

func TestUnknownKeyWarnings(t *testing.T) {
	_, w := parseCapsule(t, `name: c
version: "1"
capabilites: {}
artifacts:
  - {name: a, version: "1", runtmie: hook}
capabilities:
  netwrok: {}
  limits: {deadline: 5}
  shell: {allow: [sh], interpreter_runtime: [{binary: sh, dirs: [{path: /x, list_dir: true, ro: true}]}]}
inference:
  transport: process
  command: c
  sytem_prompt: x
  compaction: {treshold: 0.5}
lifecycle: {task_accept: queue}
observability: {eval: {scorers: [{type: exit_ok, weight: 1}]}}
trace: {tool_output: true}
zzz: 1
`)
	want := map[string]string{
		"capabilites":                  "did you mean 'capabilities'?",
		"artifacts[0].runtmie":         "did you mean 'runtime'?",
		"capabilities.netwrok":         "did you mean 'network'?",
		"capabilities.limits.deadline": "did you mean 'deadline_seconds'?",
		"capabilities.shell.interpreter_runtime[0].dirs[0].ro": "",
		"inference.sytem_prompt":                               "did you mean 'system_prompt'?",
		"inference.compaction.treshold":                        "did you mean 'threshold'?",
		"lifecycle.task_accept":                                "did you mean 'task_acceptance'?",
		"observability.eval.scorers[0].weight":                 "",
		"trace.tool_output":                                    "",
		"zzz":                                                  "",
	}
	got := map[string]string{}
	for _, x := range w {
		if x.Code == WarnUnknownKey {
			got[x.Path] = x.Hint
			if x.Line == 0 {
				t.Errorf("no position: %+v", x)
			}
		}
	}
	for p, hint := range want {
		if h, ok := got[p]; !ok || h != hint {
			t.Errorf("%s: got %q (present %v), want %q", p, h, ok, hint)
		}
	}
	if len(got) != len(want) {
		t.Errorf("extra warnings: %v", got)
	}
}

func TestSuggest(t *testing.T) {
	for key, want := range map[string]string{"capabilites": "capabilities", "artifact": "artifacts", "env": "", "nmae": "name", "qqqqqq": "", "name": ""} {
		if got := suggest(key, capsuleKeys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestLiteralInterpolationWarning(t *testing.T) {
	_, w := parseCapsule(t, "name: c\nversion: '1'\ninference: {transport: process, command: '${CLI}', model: 'x ${Y}'}\n")
	if !hasWarn(w, WarnLiteralInterpolation, "inference.command") || len(w) != 1 {
		t.Errorf("got %v", warnCodes(w))
	}
}

func TestSecurityWarnings(t *testing.T) {
	c, _ := parseCapsule(t, `name: c
version: "1"
capabilities:
  network: {allow: [https://x.com]}
  filesystem: {workdir_exec: true}
  shell:
    allow: [bash, gcc]
    interpreter_runtime: [{binary: bash, dirs: [{path: /usr/share, list_dir: false}]}]
artifacts:
  - {name: h, version: "1", runtime: hook, capabilities: {shell: {allow: [sh]}, limits: {}}}
  - {name: t, version: "1", capabilities: {spawn: {allow: []}}}
  - {name: n, version: "1", capabilities: {network: {allow: []}}}
`)
	codes := func(h Host) string {
		var s []string
		for _, w := range c.SecurityWarnings(h) {
			s = append(s, w.Code)
		}
		return strings.Join(s, ",")
	}
	if got := codes(Host{Tier: TierEnvironmentOnly}); got != "W-SEC-001,W-SEC-003,W-SEC-006,W-SEC-008,W-SEC-009,W-SEC-010,W-SEC-011" {
		t.Errorf("env-only: %s", got)
	}
	if got := codes(Host{Tier: TierSeccompOnly, Linux: true}); got != "W-SEC-002,W-SEC-006,W-SEC-008,W-SEC-009,W-SEC-011" {
		t.Errorf("seccomp: %s", got)
	}
	if got := codes(Host{Tier: TierKernelFull, Linux: true, NativeTools: []string{"n"}}); got != "W-SEC-005,W-SEC-006,W-SEC-008,W-SEC-008,W-SEC-009,W-SEC-011" {
		t.Errorf("full: %s", got)
	}
	h := Host{Tier: TierKernelSealed, Linux: true, DeclaredFloor: "sealed", UncoveredHelpers: []CompilerHelper{{"gcc", "cc1", "/usr/libexec/gcc/cc1"}}}
	ws := c.SecurityWarnings(h)
	last := ws[len(ws)-1]
	if last.Code != WarnCompilerHelper || !strings.Contains(last.Msg, "'gcc'") || !strings.Contains(last.Msg, "'cc1' at /usr/libexec/gcc/cc1") {
		t.Errorf("W-SEC-012: %+v", last)
	}
	for _, w := range ws {
		if w.DocLink() == "" || w.Msg == "" {
			t.Errorf("incomplete %+v", w)
		}
	}
	// No shell, WASM only: nothing to say.
	plain, _ := parseCapsule(t, "name: c\nversion: '1'\n")
	if ws := plain.SecurityWarnings(Host{}); len(ws) != 0 {
		t.Errorf("plain capsule warned: %v", warnCodes(ws))
	}
}
