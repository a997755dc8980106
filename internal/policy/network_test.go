package policy

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

func TestNetworkRulesCarryPosition(t *testing.T) {
	c := parseCapsule(t, "name: c\nversion: '1'\ncapabilities:\n  network: {allow: ['ftp://x', 'https://a.com/path', '*.example.com']}\n")
	_, err := NetworkRules(c.Capabilities, "capabilities")
	es := errs(err)
	if len(es) != 3 || es[0].Code != manifest.CodeNetRule || es[0].Pos.Path != "capabilities.network.allow[0]" || es[0].Pos.Line != 4 ||
		es[0].Msg != "invalid network allow entry 'ftp://x': unsupported URL scheme 'ftp' (expected http or https)" ||
		!strings.Contains(es[1].Msg, "must not include path, query, or fragment") {
		t.Errorf("NetworkRules errors: %v", err)
	}
	if len(es) == 3 && (es[2].Pos.Path != "capabilities.network.allow[2]" || !strings.Contains(es[2].Msg, "'*.example.com'") ||
		!strings.Contains(es[2].Msg, "no wildcards") || !strings.Contains(diag.Render(es[2]), "E-CAP-001")) {
		t.Errorf("wildcard error: %v", es[2])
	}
}

func TestArtifactNetwork(t *testing.T) {
	c := parseCapsule(t, `name: c
version: "1"
capabilities:
  network: {allow: ["https://api.example.com", "localhost:11434", "other.com"]}
artifacts:
  - {name: inherit, version: "1"}
  - {name: none, version: "1", capabilities: {network: {allow: []}}}
  - {name: narrow, version: "1", runtime: driver, capabilities: {network: {allow: ["https://api.example.com", "api.example.com", "http://localhost:11434", "https://other.com:8443", "evil.com"]}}}
  - {name: fsonly, version: "1", capabilities: {filesystem: {scope: x}}}
  - {name: hook, version: "1", runtime: hook}
  - {name: hook2, version: "1", runtime: hook, capabilities: {network: {allow: ["https://telemetry.example.com"]}}}
  - {name: skill, version: "1", runtime: skill}
`)
	entries := func(name string) ([]string, bool, []manifest.Warning) {
		a, _ := c.Artifact(name)
		rules, inherit, w, err := ArtifactNetwork(c, a)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rules {
			out = append(out, r.Entry)
		}
		return out, inherit, w
	}
	if r, inh, _ := entries("inherit"); !inh || len(r) != 3 {
		t.Errorf("inherit: %v %v", r, inh)
	}
	if r, inh, _ := entries("none"); inh || len(r) != 0 {
		t.Errorf("none: %v", r)
	}
	r, _, w := entries("narrow")
	if strings.Join(r, ",") != "https://api.example.com,http://localhost:11434,https://other.com:8443" {
		t.Errorf("narrow kept %v", r)
	}
	if len(w) != 1 || w[0].Code != manifest.WarnNetworkDropped || !strings.Contains(w[0].Msg, "(api.example.com, evil.com)") || w[0].Path != "artifacts[2].capabilities.network.allow" {
		t.Errorf("narrow warnings %+v", w)
	}
	if r, inh, _ := entries("fsonly"); !inh || len(r) != 3 {
		t.Errorf("filesystem-only block must inherit network: %v", r)
	}
	if r, _, _ := entries("hook"); len(r) != 0 {
		t.Errorf("hook default deny: %v", r)
	}
	if r, _, _ := entries("hook2"); len(r) != 1 {
		t.Errorf("hook grant not clamped: %v", r)
	}
	if r, _, _ := entries("skill"); r != nil {
		t.Errorf("skill: %v", r)
	}
}
