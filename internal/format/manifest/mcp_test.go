package manifest

import (
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

// agentHdr is an agent capsule allowing node, before its mcp block.
const agentHdr = `name: c
version: "1"
inference:
  endpoint: http://localhost:9
  model: m
  driver: {artifact: d}
artifacts:
  - {name: d, version: "1", runtime: driver}
capabilities:
  shell: {allow: [node]}
`

// Every refusal of the mcp block is positioned at the node at fault, so
// it renders as murmur.yaml:LINE:COL like the rest of the manifest.
func TestMCPErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		code      diag.Code
		path      string
		line, col int
		msg       string
		env       []string
	}{
		{"servers not a list", "mcp: {servers: {a: 1}}\n", CodeSyntax, "mcp.servers", 11, 16, "expected a sequence of servers, got mapping", nil},
		{"server not a mapping", "mcp:\n  servers: [x]\n", CodeSyntax, "mcp.servers[0]", 12, 13, "expected a mapping, got string", nil},
		{"no name", "mcp:\n  servers:\n    - {command: node}\n", CodeInvalid, "mcp.servers[0].name", 13, 7, "missing required field", nil},
		{"name with __", "mcp:\n  servers:\n    - {name: a__b, command: node}\n", CodeInvalid, "mcp.servers[0].name", 13, 14, "'a__b' must be at most 24 letters", nil},
		{"name with a dot", "mcp:\n  servers:\n    - {name: a.b, command: node}\n", CodeInvalid, "mcp.servers[0].name", 13, 14, "'a.b' must be", nil},
		{"name too long", "mcp:\n  servers:\n    - {name: " + strings.Repeat("a", 25) + ", command: node}\n", CodeInvalid, "mcp.servers[0].name", 13, 14, "must be at most 24", nil},
		{"twice", "mcp:\n  servers:\n    - {name: a, command: node}\n    - {name: a, command: node}\n", CodeInvalid, "mcp.servers[1].name", 14, 14, "'a' names an earlier server too", nil},
		{"neither", "mcp:\n  servers:\n    - {name: a}\n", CodeInvalid, "mcp.servers[0].command", 13, 7, "missing required field: command or url", nil},
		{"both", "mcp:\n  servers:\n    - {name: a, command: node, url: 'http://x'}\n", CodeInvalid, "mcp.servers[0].url", 13, 32, "either local (command) or remote (url), not both", nil},
		{"command not allowed", "mcp:\n  servers:\n    - {name: a, command: python3}\n", CodeInvalid, "mcp.servers[0].command", 13, 26, "'python3' is not in capabilities.shell.allow", nil},
		{"args not strings", "mcp:\n  servers:\n    - {name: a, command: node, args: [[x]]}\n", CodeSyntax, "mcp.servers[0].args[0]", 13, 39, "expected a string, got sequence", nil},
		{"env name", "mcp:\n  servers:\n    - name: a\n      command: node\n      env: {1X: y}\n", CodeInvalid, "mcp.servers[0].env.1X", 15, 13, "'1X' is not an environment variable name", nil},
		{"env reference", "mcp:\n  servers:\n    - name: a\n      command: node\n      env: {TOKEN: '${TOKEN}'}\n", CodeInvalid, "mcp.servers[0].env.TOKEN", 15, 20, "never the host's variables or secrets", []string{"TOKEN", "t"}},
		{"local headers", "mcp:\n  servers:\n    - name: a\n      command: node\n      headers: {X: y}\n", CodeInvalid, "mcp.servers[0].headers", 15, 7, "a local server has none", nil},
		{"url scheme", "mcp:\n  servers:\n    - {name: r, url: 'ftp://x/mcp'}\n", CodeInvalid, "mcp.servers[0].url", 13, 22, "'ftp://x/mcp' is not an http:// or https:// URL", nil},
		{"url user", "mcp:\n  servers:\n    - {name: r, url: 'https://u:p@x/mcp'}\n", CodeInvalid, "mcp.servers[0].url", 13, 22, "carries credentials in the URL", nil},
		{"remote args", "mcp:\n  servers:\n    - {name: r, url: 'https://x/mcp', args: [a]}\n", CodeInvalid, "mcp.servers[0].args", 13, 39, "a remote server (url) takes no args", nil},
		{"remote env", "mcp:\n  servers:\n    - {name: r, url: 'https://x/mcp', env: {A: b}}\n", CodeInvalid, "mcp.servers[0].env", 13, 39, "a remote server (url) has no environment", nil},
		{"header unset", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {Authorization: 'Bearer ${EXAMPLE_TOKEN}'}\n", CodeInvalid, "mcp.servers[0].headers.Authorization", 15, 32, "references EXAMPLE_TOKEN but the environment variable is not set", nil},
		{"header name", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {'a b': c}\n", CodeInvalid, "mcp.servers[0].headers.a b", 15, 17, "'a b' is not an HTTP header name", nil},
		{"header newline", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {X: \"a\\nb\"}\n", CodeInvalid, "mcp.servers[0].headers.X", 15, 20, "holds a line break", nil},
		{"header expands to a newline", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {X: '${V}'}\n", CodeInvalid, "mcp.servers[0].headers.X", 15, 20, "the expanded value holds a line break", []string{"V", "a\r\nEvil: 1"}},
		{"transport header", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {Mcp-Session-Id: abc}\n", CodeInvalid, "mcp.servers[0].headers.Mcp-Session-Id", 15, 17, "belongs to the HTTP transport", nil},
		{"header null", "mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {X: }\n", CodeInvalid, "mcp.servers[0].headers.X", 15, 17, "the header has no value", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := expectErr(t, RoleCapsule, agentHdr+tc.src, tc.code, tc.path, tc.msg, tc.env...)
			if e.Pos.Line != tc.line || e.Pos.Column != tc.col || e.Pos.File != FileName {
				t.Errorf("at %s:%d:%d, want %s:%d:%d", e.Pos.File, e.Pos.Line, e.Pos.Column, FileName, tc.line, tc.col)
			}
			if tc.code == CodeInvalid && !strings.HasPrefix(e.Msg, "invalid mcp config for '"+tc.path+"': ") {
				t.Errorf("message shape: %q", e.Msg)
			}
			if tc.code == CodeInvalid && e.Hint == "" {
				t.Errorf("no hint: %v", e)
			}
		})
	}
}

// A script capsule has no model to hand MCP tools to: the block is
// refused rather than ignored.
func TestMCPRefusedInAScriptCapsule(t *testing.T) {
	expectErr(t, RoleCapsule, "name: c\nversion: '1'\ncapabilities:\n  shell: {allow: [node]}\nmcp:\n  servers:\n    - {name: a, command: node}\n",
		CodeInvalid, "mcp", "a script capsule has none")
}

func TestMCPParses(t *testing.T) {
	c, w := parseCapsule(t, agentHdr+`mcp:
  servers:
    - name: everything
      command: node
      args: [/opt/mcp/index.js, stdio]
      env: {LOG_LEVEL: warn, EMPTY: ""}
    - name: remote_1
      url: https://mcp.example.com/mcp
      headers: {Authorization: "Bearer ${EXAMPLE_TOKEN}", X-Both: "${A}-${B}", X-Plain: v1}
`, "EXAMPLE_TOKEN", "tok-123", "A", "left", "B", "right")
	if len(w) != 0 {
		t.Errorf("warnings: %v", warnCodes(w))
	}
	m := c.MCP
	if m == nil || len(m.Servers) != 2 {
		t.Fatalf("mcp = %+v", m)
	}
	l, r := m.Servers[0], m.Servers[1]
	if !l.Local() || l.Command != "node" || !slices.Equal(l.Args, []string{"/opt/mcp/index.js", "stdio"}) ||
		!slices.Equal(l.Env, []MCPEnv{{"LOG_LEVEL", "warn"}, {"EMPTY", ""}}) || l.Pos.Line != 13 {
		t.Errorf("local = %+v", l)
	}
	want := []MCPHeader{{"Authorization", "Bearer tok-123", []string{"tok-123"}}, {"X-Both", "left-right", []string{"left", "right"}}, {"X-Plain", "v1", nil}}
	if r.Local() || r.URL != "https://mcp.example.com/mcp" || r.URLPos.Line != 18 || r.URLPos.Column != 12 ||
		!slices.EqualFunc(r.Headers, want, func(a, b MCPHeader) bool {
			return a.Name == b.Name && a.Value == b.Value && slices.Equal(a.Vars, b.Vars)
		}) {
		t.Errorf("remote = %+v", r)
	}
	if got := m.Secrets(); !slices.Equal(got, []string{"Bearer tok-123", "tok-123", "left-right", "left", "right", "v1"}) {
		t.Errorf("secrets = %q", got)
	}
}

// A header value written as a whole ${NAME} is expanded, so it draws no
// "not interpolated" warning; the same text elsewhere still does.
func TestMCPHeaderReferenceIsNoLiteral(t *testing.T) {
	_, w := parseCapsule(t, agentHdr+"mcp:\n  servers:\n    - name: r\n      url: https://x/mcp\n      headers: {X-Key: '${K}'}\n    - name: l\n      command: node\n      args: ['${K}']\n", "K", "v")
	if hasWarn(w, WarnLiteralInterpolation, "mcp.servers[0].headers.X-Key") || !hasWarn(w, WarnLiteralInterpolation, "mcp.servers[1].args[0]") {
		t.Errorf("warnings: %v", warnCodes(w))
	}
}

func TestMCPUnknownKeyWarns(t *testing.T) {
	_, w := parseCapsule(t, agentHdr+"mcp:\n  servers:\n    - {name: a, command: node, timeout: 3}\n")
	if !hasWarn(w, WarnUnknownKey, "mcp.servers[0].timeout") {
		t.Errorf("warnings: %v", warnCodes(w))
	}
}
