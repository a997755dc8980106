package manifest

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestCapabilityErrors(t *testing.T) {
	const hdr = "name: c\nversion: '1'\ncapabilities:\n"
	for _, tc := range []struct{ name, src, path, msg string }{
		{"shell empty", "  shell: {}\n", "capabilities.shell.allow", "must contain at least one binary"},
		{"shell allow empty", "  shell: {allow: []}\n", "capabilities.shell.allow", "must contain at least one binary"},
		{"interp binary", "  shell: {allow: [node], interpreter_runtime: [{dirs: [{path: /x, list_dir: true}]}]}\n", "capabilities.shell.interpreter_runtime[0].binary", "must name a binary"},
		{"interp not allowed", "  shell: {allow: [sh], interpreter_runtime: [{binary: node, dirs: [{path: /x, list_dir: true}]}]}\n", "capabilities.shell.interpreter_runtime[0].binary", "'node' is not in capabilities.shell.allow"},
		{"interp dirs", "  shell: {allow: [node], interpreter_runtime: [{binary: node}]}\n", "capabilities.shell.interpreter_runtime[0].dirs", "must name at least one directory"},
		{"interp path", "  shell: {allow: [node], interpreter_runtime: [{binary: node, dirs: [{list_dir: true}]}]}\n", "capabilities.shell.interpreter_runtime[0].dirs[0].path", "must name a host directory"},
		{"interp relative", "  shell: {allow: [node], interpreter_runtime: [{binary: node, dirs: [{path: lib, list_dir: true}]}]}\n", "capabilities.shell.interpreter_runtime[0].dirs[0].path", "'lib' must be an absolute host path (start with '/')"},
		{"interp list_dir", "  shell: {allow: [node], interpreter_runtime: [{binary: node, dirs: [{path: /lib}]}]}\n", "capabilities.shell.interpreter_runtime[0].dirs[0].list_dir", "'/lib' must set list_dir explicitly to true or false"},
		{"staged binary", "  shell: {allow: [py], staged_runtime: [{source_path: /o, pin: p}]}\n", "capabilities.shell.staged_runtime[0].binary", "must name a binary"},
		{"staged not allowed", "  shell: {allow: [py], staged_runtime: [{binary: node, source_path: /o, pin: p}]}\n", "capabilities.shell.staged_runtime[0].binary", "'node' is not in capabilities.shell.allow"},
		{"staged both", "  shell: {allow: [py], interpreter_runtime: [{binary: py, dirs: [{path: /l, list_dir: false}]}], staged_runtime: [{binary: py, source_path: /o, pin: p}]}\n", "capabilities.shell.staged_runtime[0].binary", "also has a capabilities.shell.interpreter_runtime grant"},
		{"staged source", "  shell: {allow: [py], staged_runtime: [{binary: py, pin: p}]}\n", "capabilities.shell.staged_runtime[0].source_path", "must name the host directory holding the pinned runtime tree"},
		{"staged relative", "  shell: {allow: [py], staged_runtime: [{binary: py, source_path: o, pin: p}]}\n", "capabilities.shell.staged_runtime[0].source_path", "'o' must be an absolute host path"},
		{"staged pin", "  shell: {allow: [py], staged_runtime: [{binary: py, source_path: /o}]}\n", "capabilities.shell.staged_runtime[0].pin", "'/o' must declare a non-empty pin"},
		{"limit zero", "  limits: {table_elements: 0}\n", "capabilities.limits.table_elements", "must be greater than zero"},
		{"deadline zero", "  limits: {deadline_seconds: 0}\n", "capabilities.limits.deadline_seconds", "must be greater than zero"},
		{"resource zero", "  resources: {workdir_max_bytes: 0}\n", "capabilities.resources.workdir_max_bytes", "must be greater than zero"},
		{"containment", "  containment: Sealed\n", "capabilities.containment", "must be one of: advisory, scoped, sealed; got 'Sealed'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := expectErr(t, RoleCapsule, hdr+tc.src, CodeInvalid, tc.path, tc.msg)
			if !strings.HasPrefix(e.Msg, "invalid capability config for '"+tc.path+"': ") {
				t.Errorf("message shape: %q", e.Msg)
			}
		})
	}
	// Each resource field rejects 0; cgroup_cpu_percent is 32-bit.
	for _, k := range resourceKeys {
		expectErr(t, RoleCapsule, hdr+"  resources: {"+k+": 0}\n", CodeInvalid, "capabilities.resources."+k, "must be greater than zero")
	}
	for _, k := range limitKeys {
		expectErr(t, RoleCapsule, hdr+"  limits: {"+k+": 0}\n", CodeInvalid, "capabilities.limits."+k, "must be greater than zero")
	}
	expectErr(t, RoleCapsule, hdr+"  resources: {cgroup_cpu_percent: 4294967296}\n", CodeSyntax, "capabilities.resources.cgroup_cpu_percent", "too large")
	expectErr(t, RoleCapsule, hdr+"  limits: {memory_bytes: '1'}\n", CodeSyntax, "capabilities.limits.memory_bytes", "got string")
	expectErr(t, RoleCapsule, hdr+"  network: [a]\n", CodeSyntax, "capabilities.network", "expected a mapping, got sequence")
	expectErr(t, RoleCapsule, hdr+"  network: {allow: [a, [b]]}\n", CodeSyntax, "capabilities.network.allow[1]", "got sequence")
}

func TestCapabilityParseIsLenientWhereMurmurIs(t *testing.T) {
	// Rule syntax (policy.NetworkRules) and scopes are staging-time
	// checks: parsing succeeds and keeps the rules as written.
	c, _ := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  network: {allow: ['ftp://x', 'https://a.com/path']}\n  filesystem: {scope: ../up}\n  containment: '  '\n  shell: {allow: [/bin/bash]}\n")
	if c.Capabilities.Containment != "" {
		t.Errorf("blank containment must be undeclared")
	}
	if got := c.Capabilities.NetworkAllow(); len(got) != 2 || got[0] != "ftp://x" || c.Capabilities.Network.AllowPos[0].Line != 4 {
		t.Errorf("network.allow as written: %v %v", got, c.Capabilities.Network.AllowPos)
	}
	se := c.Capabilities.CheckScope("capabilities")
	if e := errs(se); len(e) != 1 || e[0].Code != CodeScope || e[0].Msg != "invalid filesystem scope '../up': scope cannot escape the workdir via '..'" || e[0].Pos.Line != 5 {
		t.Errorf("CheckScope: %v", se)
	}
}

func TestCheckScope(t *testing.T) {
	for scope, want := range map[string]string{
		".": "", "./workdir": "", "a/../b": "", "sandbox/subdir": "", "": "",
		"../x":      "scope cannot escape the workdir via '..'",
		"a/../../x": "scope cannot escape the workdir via '..'",
		"/tmp":      "scope must be relative to the workdir",
	} {
		c := &Capabilities{Filesystem: &FilesystemCaps{Scope: scope}}
		err := c.CheckScope("capabilities")
		if (err == nil) != (want == "") || (err != nil && !strings.HasSuffix(err.(*diag.Error).Msg, want)) {
			t.Errorf("%q: %v", scope, err)
		}
	}
}

func TestInertSubBlocks(t *testing.T) {
	c, _ := parseCapsule(t, "name: c\nversion: '1'\nartifacts:\n  - {name: h, version: '1', runtime: hook, capabilities: {shell: {allow: [sh]}, env: {allow: []}, containment: sealed, network: {allow: []}}}\n")
	if got := strings.Join(c.Artifacts[0].Capabilities.InertSubBlocks(), ","); got != "shell,env,containment" {
		t.Errorf("inert = %s", got)
	}
}
