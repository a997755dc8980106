package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestArtifactManifest(t *testing.T) {
	a, w := parseArtifact(t, `name: my-native-tool
version: "0.2.0"
runtime: tool
implementation: native
execution: NATIVE
description: "  Lists files.  "
tags: [fs, list, 3]
input_schema: '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}'
output_schema: {type: object}
requires_files: [bin/my-native-tool, README.md]
`)
	if len(w) != 0 {
		t.Errorf("warnings: %v", warnCodes(w))
	}
	want := &Artifact{Name: "my-native-tool", Version: "0.2.0", Runtime: "tool", Implementation: "native", Execution: "native",
		RequiresFiles: []string{"bin/my-native-tool", "README.md"}, Description: "Lists files.",
		InputSchema:  `{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"}`,
		OutputSchema: `{"type":"object"}`, Tags: []string{"fs", "list"}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("got  %+v\nwant %+v", a, want)
	}
	if !a.IsNative() || a.PackagingType() != "native" {
		t.Errorf("native/packaging wrong")
	}
}

func TestArtifactDefaults(t *testing.T) {
	for _, tc := range []struct {
		src       string
		packaging string
		files     []string
		schema    string
	}{
		{"name: s\nversion: '1'\nruntime: skill\n", "static", []string{"skill.md"}, DefaultInputSchema},
		{"name: s\nversion: '1'\nruntime: skill\nrequires_files: []\n", "static", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: tool\n", "wasm", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: tool\nimplementation: Native\n", "wasm", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: driver\nimplementation: native\n", "wasm", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: skill\nexecution: wasm\n", "wasm", []string{"skill.md"}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: wasm\nimplementation: [x]\n", "wasm", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: tool\ninput: {type: object}\n", "wasm", []string{}, `{"type":"object"}`},
		{"name: t\nversion: '1'\nruntime: tool\ninput_schema: 'not json'\ninput: {type: object}\n", "wasm", []string{}, DefaultInputSchema},
		{"name: t\nversion: '1'\nruntime: tool\ninput_schema: 5\n", "wasm", []string{}, DefaultInputSchema},
	} {
		a, _ := parseArtifact(t, tc.src)
		if a.PackagingType() != tc.packaging || !reflect.DeepEqual(a.RequiresFiles, tc.files) || a.InputSchema != tc.schema {
			t.Errorf("%q: packaging %s files %v schema %s", tc.src, a.PackagingType(), a.RequiresFiles, a.InputSchema)
		}
	}
}

func TestArtifactErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		code      diag.Code
		path, msg string
	}{
		{"name", "version: '1'\nruntime: tool\n", CodeMissingField, "name", "missing required field 'name'"},
		{"version", "name: a\nruntime: tool\n", CodeMissingField, "version", "missing required field 'version'"},
		{"runtime", "name: a\nversion: '1'\nexecution: wasm\n", CodeMissingField, "runtime", "missing required field 'runtime'"},
		{"version number", "name: a\nversion: 1.0\nruntime: tool\n", CodeInvalid, "version", "field 'version' has invalid type (expected string, got number)"},
		{"name bool", "name: true\nversion: '1'\nruntime: tool\n", CodeInvalid, "name", "(expected string, got boolean)"},
		{"runtime null", "name: a\nversion: '1'\nruntime: ~\n", CodeInvalid, "runtime", "(expected string, got null)"},
		{"runtime tagged", "name: a\nversion: '1'\nruntime: !custom x\n", CodeInvalid, "runtime", "(expected string, got tagged)"},
		{"execution type", "name: a\nversion: '1'\nruntime: tool\nexecution: [x]\n", CodeInvalid, "execution", "(expected string, got sequence)"},
		{"execution value", "name: a\nversion: '1'\nruntime: tool\nexecution: ' wasm'\n", CodeInvalid, "execution", "field 'execution' has invalid type (expected one of: wasm, native, static, got  wasm)"},
		{"requires map", "name: a\nversion: '1'\nruntime: tool\nrequires_files: {a: b}\n", CodeInvalid, "requires_files", "(expected sequence of strings, got mapping)"},
		{"requires null", "name: a\nversion: '1'\nruntime: tool\nrequires_files:\n", CodeInvalid, "requires_files", "(expected sequence of strings, got null)"},
		{"requires item", "name: a\nversion: '1'\nruntime: tool\nrequires_files: [a, {b: c}]\n", CodeInvalid, "requires_files", "(expected sequence of strings, got mapping)"},
	} {
		t.Run(tc.name, func(t *testing.T) { expectErr(t, RoleArtifact, tc.src, tc.code, tc.path, tc.msg) })
	}
	_, _, err := Parse([]byte("- a\n"), "", ParseOptions{Role: RoleArtifact})
	if e := errs(err); len(e) != 1 || e[0].Msg != "field '<root>' has invalid type (expected mapping, got sequence)" {
		t.Errorf("root: %v", err)
	}
	_, _, err = Parse(nil, "", ParseOptions{Role: RoleArtifact})
	if e := errs(err); len(e) != 1 || !strings.Contains(e[0].Msg, "got null") {
		t.Errorf("empty: %v", err)
	}
}

func TestArtifactCredential(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want *Credential
	}{
		{"credential: {header: x-api-key}\n", &Credential{Header: "x-api-key"}},
		{"credential: {header: Authorization, prefix: 'Bearer '}\n", &Credential{Header: "Authorization", Prefix: "Bearer "}},
		{"credential: {prefix: 'Bearer '}\n", nil},
		{"credential: x-api-key\n", nil},
		{"", nil},
	} {
		a, _ := parseArtifact(t, "name: d\nversion: '1'\nruntime: driver\n"+tc.src)
		if !reflect.DeepEqual(a.Credential, tc.want) {
			t.Errorf("%q: credential %+v, want %+v", tc.src, a.Credential, tc.want)
		}
	}
}

func TestArtifactCapabilitiesWarn(t *testing.T) {
	_, w := parseArtifact(t, "name: a\nversion: '1'\nruntime: tool\ncapabilities: {network: {allow: [x]}}\n")
	if !hasWarn(w, WarnArtifactCapabilities, "capabilities") {
		t.Errorf("warnings %v", warnCodes(w))
	}
}

func TestHookContract(t *testing.T) {
	for _, tc := range []struct{ keys, want string }{
		{"", ""},
		{"binding: on-task-end\ncommit_policy: reopen-task\n", ""},
		{"binding: on-stage\ncommit_policy: write-manifests\n", ""},
		{"binding: on-compaction\ncommit_policy: replace-context\n", ""},
		{"binding: on-compaction\ncommit_policy: none\n", ""},
		{"commit_policy: reopen-task\n", ""},
		{"execution_mode: async\n", ""},
		{"binding: on-tool-calls\n", "unknown binding 'on-tool-calls'; expected: on-stage, on-session-start, on-task-start, on-inference, on-tool-call, on-shell, on-compaction, on-task-end, on-session-end"},
		{"execution_mode: Async\n", "unknown execution_mode 'Async'; expected: blocking, async"},
		{"commit_policy: all\n", "unknown commit_policy 'all'; expected: none, replace-context, write-manifests, reopen-task"},
		{"execution_mode: async\ncommit_policy: reopen-task\n", "async-with-commit not supported: execution_mode 'async' requires commit_policy 'none' (got 'reopen-task')"},
		{"binding: on-stage\nexecution_mode: async\n", "on-stage hooks must be blocking; execution_mode 'async' is not valid for binding 'on-stage'"},
		{"binding: on-task-end\ncommit_policy: replace-context\n", "commit_policy 'replace-context' is not valid for binding 'on-task-end'; binding 'on-task-end' honors commit_policy 'reopen-task'"},
		{"binding: on-tool-call\ncommit_policy: reopen-task\n", "commit_policy 'reopen-task' is not valid for binding 'on-tool-call'; binding 'on-tool-call' honors commit_policy 'none'"},
		{"binding: on-inference\ncommit_policy: write-manifests\n", "binding 'on-inference' honors commit_policy 'none' (on-inference commits an 'artifact' output, which has no commit_policy spelling)"},
		{"binding: 7\n", ""}, // non-string ⇒ default
	} {
		a, _ := parseArtifact(t, "name: gate\nversion: '1'\nruntime: hook\n"+tc.keys)
		hc, err := a.HookContract()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.keys, err)
		case tc.want != "" && (err == nil || !strings.HasSuffix(err.(*diag.Error).Msg, tc.want)):
			t.Errorf("%q: got %v, want %s", tc.keys, err, tc.want)
		case tc.want == "" && (hc.ExecutionMode == "" || hc.CommitPolicy == ""):
			t.Errorf("%q: defaults not applied: %+v", tc.keys, hc)
		}
		if err != nil && !strings.HasPrefix(err.(*diag.Error).Msg, "hook gate@1 invalid config: ") {
			t.Errorf("prefix: %v", err)
		}
	}
}

func TestValidateArtifactName(t *testing.T) {
	for name, want := range map[string]string{
		"my-tool": "", "a--b": "", "123": "", "murmur-x": "", strings.Repeat("a", 100): "",
		"":                       "must not be empty",
		strings.Repeat("a", 101): "must be at most 100 characters",
		"My-tool":                "may contain only lowercase letters, digits and '-' (found 'M')",
		"my_tool":                "(found '_')",
		"-tool":                  "must not start or end with '-'",
		"tool-":                  "must not start or end with '-'",
	} {
		err := ValidateArtifactName(name)
		if (err == nil) != (want == "") || (err != nil && (!strings.HasSuffix(err.(*diag.Error).Msg, want) || err.(*diag.Error).Code != CodeBuildName)) {
			t.Errorf("%q: %v", name, err)
		}
	}
	e := ValidateArtifactName("A").(*diag.Error)
	if e.Msg != "invalid artifact name 'A': may contain only lowercase letters, digits and '-' (found 'A')" || e.Hint != "artifact names are lowercase letters, digits and inner hyphens, e.g. my-tool" {
		t.Errorf("golden: %q / %q", e.Msg, e.Hint)
	}
}
