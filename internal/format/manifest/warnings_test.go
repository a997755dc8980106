package manifest

import (
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
