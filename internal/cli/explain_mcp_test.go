package cli

import (
	"strings"
	"testing"
)

// mcpYAML is an agent capsule with a local and a remote MCP server, the
// remote one outside network.allow.
const mcpYAML = agentYAML + `capabilities:
  shell: {allow: [node]}
mcp:
  servers:
    - {name: everything, command: node, args: [/opt/mcp/index.js, stdio]}
    - name: remote
      url: https://mcp.example.com/mcp
      headers: {Authorization: "Bearer ${EXAMPLE_TOKEN}"}
`

// --explain-scope lists the MCP servers, a header's name but never its
// value, and the refusal staging would make; mur doctor fails on it and
// says what to fix.
func TestExplainScopeMCP(t *testing.T) {
	t.Setenv("EXAMPLE_TOKEN", "tok-explain-secret")
	dir := capsuleDir(t, mcpYAML, nil)
	t.Chdir(dir)
	o := mur(t, "run", "--explain-scope")
	o.want(t, 0, "mcp server everything: local: node /opt/mcp/index.js stdio (on stdio, contained like a shell command)\n"+
		"mcp server remote: remote: https://mcp.example.com/mcp (streamable HTTP from the host; headers: Authorization)\n"+
		"  REFUSED: E-CAP-001: mcp server 'remote' at https://mcp.example.com/mcp is not in capabilities.network.allow", "")
	d := mur(t, "doctor")
	d.want(t, 1, "Fix: the capsule's mcp servers: E-CAP-001: mcp server 'remote'", "")
	for _, out := range []string{o.stdout, o.stderr, d.stdout, d.stderr} {
		if strings.Contains(out, "tok-explain-secret") {
			t.Errorf("a header value in the output:\n%s", out)
		}
	}
}
