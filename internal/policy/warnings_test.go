package policy

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
)

func TestSecurityWarnings(t *testing.T) {
	c := parseCapsule(t, `name: c
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
		for _, w := range SecurityWarnings(c, h) {
			s = append(s, w.Code)
		}
		return strings.Join(s, ",")
	}
	if got := codes(Host{Tier: TierEnvironmentOnly}); got != "W-SEC-001,W-SEC-003,W-SEC-006,W-SEC-008,W-SEC-009,W-SEC-010,W-SEC-011" {
		t.Errorf("env-only: %s", got)
	}
	if got := codes(Host{Tier: TierSeccompOnly, Linux: true, CgroupScope: true}); got != "W-SEC-002,W-SEC-006,W-SEC-008,W-SEC-009,W-SEC-011" {
		t.Errorf("seccomp: %s", got)
	}
	if got := codes(Host{Tier: TierKernelFull, Linux: true, CgroupScope: true, NativeTools: []string{"n"}}); got != "W-SEC-005,W-SEC-006,W-SEC-008,W-SEC-008,W-SEC-009,W-SEC-011" {
		t.Errorf("full: %s", got)
	}
	// W-SEC-005 claims a network namespace only where the host makes one.
	for _, tier := range []Tier{TierKernelFull, TierKernelSealed} {
		for _, ns := range []bool{true, false} {
			s := HostSupport{Linux: true, NetNS: ns}
			if !ns {
				s.NetNSReason, s.NetNSErr = NetNSGrantMissing, "operation not permitted"
			}
			w := SecurityWarnings(c, Host{Tier: tier, Linux: true, CgroupScope: true, Support: s})[0]
			claims := strings.Contains(w.Msg, "network namespace of their own") && !strings.Contains(w.Msg, "cannot give them a network namespace")
			if w.Code != manifest.WarnShellKernel || claims != ns || (!ns && !strings.Contains(w.Msg, "E-CAP-005")) {
				t.Errorf("%v, netns %v: %s", tier, ns, w.Msg)
			}
		}
	}
	h := Host{Tier: TierKernelSealed, Linux: true, DeclaredFloor: "sealed", UncoveredHelpers: []CompilerHelper{{"gcc", "cc1", "/usr/libexec/gcc/cc1"}}}
	ws := SecurityWarnings(c, h)
	last := ws[len(ws)-1]
	if last.Code != manifest.WarnCompilerHelper || !strings.Contains(last.Msg, "'gcc'") || !strings.Contains(last.Msg, "'cc1' at /usr/libexec/gcc/cc1") {
		t.Errorf("W-SEC-012: %+v", last)
	}
	for _, w := range ws {
		if w.DocLink() == "" || w.Msg == "" {
			t.Errorf("incomplete %+v", w)
		}
	}
	// No shell, WASM only: nothing to say.
	plain := parseCapsule(t, "name: c\nversion: '1'\n")
	if ws := SecurityWarnings(plain, Host{}); len(ws) != 0 {
		t.Errorf("plain capsule warned: %v", ws)
	}
}
