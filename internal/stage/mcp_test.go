package stage

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
)

// mcpCapsule parses an agent capsule with one remote MCP server at url and
// the given network.allow.
func mcpCapsule(t *testing.T, url string, allow ...string) *manifest.Capsule {
	t.Helper()
	src := fmt.Sprintf(`name: c
version: "1"
inference:
  endpoint: http://localhost:9
  model: m
  driver: {artifact: d}
artifacts:
  - {name: d, version: "1", runtime: driver}
capabilities:
  network: {allow: [%s]}
mcp:
  servers:
    - name: remote
      url: %s
`, strings.Join(allow, ", "), url)
	f, _, err := manifest.Parse([]byte(src), "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleCapsule, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return f.Capsule
}

// A remote MCP server is reached from the host under the ceiling's
// network rules, so staging refuses one the rules do not cover, before
// anything is written, naming the rule to add and pointing at the url.
func TestCheckMCPRemoteReach(t *testing.T) {
	for _, tc := range []struct {
		url   string
		allow []string
		rule  string // "" = admitted
	}{
		{"https://mcp.example.com/mcp", []string{"mcp.example.com"}, ""},
		{"https://mcp.example.com/mcp", []string{"'https://mcp.example.com:443'"}, ""},
		{"https://mcp.example.com/mcp", nil, "https://mcp.example.com"},
		{"https://mcp.example.com/mcp", []string{"'http://mcp.example.com'"}, "https://mcp.example.com"},
		{"https://MCP.example.com:8443/mcp", []string{"'mcp.example.com:443'"}, "https://mcp.example.com:8443"},
		{"http://127.0.0.1:3001/mcp", []string{"'127.0.0.1:3001'"}, ""},
		{"http://127.0.0.1:3001/mcp", []string{"'127.0.0.1:3002'"}, "http://127.0.0.1:3001"},
		{"http://[::1]:3001/mcp", nil, "http://[::1]:3001"},
		{"https://other.example.com/mcp", []string{"'example.com'"}, "https://other.example.com"},
	} {
		t.Run(tc.url+" "+strings.Join(tc.allow, ","), func(t *testing.T) {
			c := mcpCapsule(t, tc.url, tc.allow...)
			rules, err := policy.NetworkRules(c.Capabilities, "capabilities")
			if err != nil {
				t.Fatal(err)
			}
			err = checkMCP(c, "murmur.yaml", rules)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var d *diag.Error
			if !errors.As(err, &d) || d.Code != CodeNetRule {
				t.Fatalf("err = %v, want E-CAP-001", err)
			}
			if want := "add `- " + tc.rule + "` to capabilities.network.allow in murmur.yaml"; d.Hint != want {
				t.Errorf("hint %q, want %q", d.Hint, want)
			}
			if !strings.Contains(d.Msg, "mcp server 'remote'") || d.Pos.Path != "mcp.servers[0].url" || d.Pos.Line != 14 || d.Pos.Column != 12 {
				t.Errorf("error %q at %+v", d.Msg, d.Pos)
			}
		})
	}
}

// --explain-scope and mur doctor show the refusal staging would make, and
// a header's name but never its value.
func TestMCPReport(t *testing.T) {
	src := `name: c
version: "1"
inference:
  endpoint: http://localhost:9
  model: m
  driver: {artifact: d}
artifacts:
  - {name: d, version: "1", runtime: driver}
capabilities:
  shell: {allow: [node]}
  network: {allow: [ok.example.com]}
mcp:
  servers:
    - {name: local, command: node, args: [s.js]}
    - {name: good, url: 'https://ok.example.com/mcp', headers: {Authorization: 'Bearer ${TOK}'}}
    - {name: bad, url: 'https://no.example.com/mcp'}
`
	f, _, err := manifest.Parse([]byte(src), "", manifest.ParseOptions{Role: manifest.RoleCapsule,
		Env: func(k string) (string, bool) { return "tok-secret-value", k == "TOK" }})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Explain(f.Capsule, "", policy.HostSupport{})
	if err != nil {
		t.Fatal(err)
	}
	r := g.MCPServers
	if len(r) != 3 || r[0].Kind != "local" || r[0].Command != "node" || r[1].Kind != "remote" || r[1].Refusal != "" ||
		len(r[1].Headers) != 1 || r[1].Headers[0] != "Authorization" || !strings.HasPrefix(r[2].Refusal, "E-CAP-001: mcp server 'bad'") {
		t.Errorf("report = %+v", r)
	}
	if got := g.MCPRefusals(); len(got) != 1 {
		t.Errorf("refusals = %q", got)
	}
	if s := fmt.Sprintf("%+v", g); strings.Contains(s, "tok-secret-value") {
		t.Errorf("a header value in the report: %s", s)
	}
}
