package launch_test

// MCP servers as a capsule's tools, through the mur binary: the scripted
// driver (the loopback model stand-in) asks for mcp__<server>__<tool>
// and checks what the loop hands back in its next request. The local
// servers are the reference ones (npm @modelcontextprotocol/
// server-everything and server-filesystem, pinned in conformance/mcp-servers and
// installed by its `npm ci`) run by node under the shell's containment,
// and testdata/mcpserver (the official Go SDK) where a test needs a
// server that behaves on cue.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// mcpServerBin is testdata/mcpserver built: an MCP server on stdio whose
// grow tool adds a tool and answers once the client re-listed.
var mcpServerBin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "mur-mcpserver-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "mcpserver")
	return bin, goBuild(bin, "./internal/remote/mcp/testdata/server")
})

// nodeGrant is the capabilities.shell block running node with what it
// reads besides its binary and libraries (interpreter_runtime grants):
// the reference servers' modules and OpenSSL's configuration.
func nodeGrant(modules string) string {
	return fmt.Sprintf(`  shell:
    allow: [node]
    interpreter_runtime:
      - binary: node
        dirs: [{path: %s, list_dir: true}, {path: /etc/ssl, list_dir: false}]
`, modules)
}

// mcpAgentIn writes an agent capsule in dir whose scripted driver replays
// turns, recording tool outputs in its trace, with the capabilities and
// mcp blocks given, and installs the driver.
func mcpAgentIn(t *testing.T, dir, turns, capabilities, mcp string) *project {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	yaml := fmt.Sprintf(`name: mcp-agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": %s}
trace:
  include_tool_output: true
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
capabilities:
%smcp:
  servers:
%s`, turns, capabilities, mcp)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runMur(dir, nil, "install", filepath.Join(pkgs, "scripted-0.1.0.mur.zip")); code != 0 {
		t.Fatalf("mur install scripted: exit %d\n%s", code, stderr)
	}
	return &project{t: t, dir: dir}
}

// mcpCall is a tool call of the scripted driver's.
func mcpCall(id, name string, input any) string {
	b, _ := json.Marshal(map[string]any{"id": id, "name": name, "input": input})
	return string(b)
}

// toolCalls are the session's tool_call records.
func toolCalls(t *testing.T, sessionDir string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range readTrace(t, sessionDir) {
		if l.Type == trace.TypeToolCall {
			out = append(out, l.Fields)
		}
	}
	return out
}

// nowhereUnder fails t where a file under dir holds secret.
func nowhereUnder(t *testing.T, dir, secret string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), secret) {
			t.Errorf("%s holds %q", p, secret)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The reference server-everything, run by node on stdio under the
// shell's containment: the model asks for mcp__everything__echo and its
// answer is in the next request; get-env shows the server's environment
// is the shell's (credentials stripped, its own env added), not mur's.
func TestAgentMCPEverythingEcho(t *testing.T) {
	everything := testguest.MCPServerDir(t, "server-everything")
	turns := `[{"tool_calls": [` + mcpCall("e", "mcp__everything__echo", map[string]string{"message": "hello"}) + `, ` +
		mcpCall("env", "mcp__everything__get-env", map[string]any{}) + `]},
		{"text": "echoed"}]`
	p := mcpAgentIn(t, t.TempDir(), turns, nodeGrant(testguest.MCPModules()), fmt.Sprintf(`    - name: everything
      command: node
      args: [%s/dist/index.js, stdio]
      env: {LOG_LEVEL: warn}
`, everything))
	stdout, stderr, code := runMur(p.dir, []string{"FOO_API_KEY=sk-host-secret"}, "run", "--task", "echo")
	if code != 0 || !strings.HasSuffix(stdout, "status:  ok\nechoed\n") {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	calls := toolCalls(t, p.sessionDir())
	if len(calls) != 2 || calls[0]["tool_name"] != "mcp__everything__echo" || calls[0]["status"] != "ok" || calls[0]["output"] != "Echo: hello" {
		t.Fatalf("tool_call records: %v", calls)
	}
	env, _ := calls[1]["output"].(string)
	if calls[1]["status"] != "ok" || !strings.Contains(env, `"LOG_LEVEL": "warn"`) || !strings.Contains(env, ".capsule-home") ||
		strings.Contains(env, "sk-host-secret") || strings.Contains(env, "FOO_API_KEY") || strings.Contains(env, "MUR_CACHE_DIR") {
		t.Errorf("the server's environment:\n%s", env)
	}
}

// server-filesystem told it may read / still cannot hand the model a file
// outside the workdir: its process runs under the shell's containment at
// the scoped and the sealed class, so the read is refused, the model gets
// a tool error, and the file's content is nowhere in what the session
// recorded. A file in the workdir is read as usual.
func TestAgentMCPFilesystemContained(t *testing.T) {
	filesystem := testguest.MCPServerDir(t, "server-filesystem")
	for _, tc := range []struct{ class string }{{"scoped"}, {"sealed"}} {
		t.Run(tc.class, func(t *testing.T) {
			work, outside := t.TempDir(), t.TempDir()
			const secretText = "outside-secret-7f3a9c"
			secret := filepath.Join(outside, "secret.txt")
			if err := os.WriteFile(secret, []byte(secretText), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(work, "inside.txt"), []byte("inside content"), 0o644); err != nil {
				t.Fatal(err)
			}
			turns := `[{"tool_calls": [` + mcpCall("out", "mcp__fs__read_text_file", map[string]string{"path": secret}) + `, ` +
				mcpCall("in", "mcp__fs__read_text_file", map[string]string{"path": filepath.Join(work, "inside.txt")}) + `]},
				{"text": "read"}]`
			p := mcpAgentIn(t, t.TempDir(), turns, "  containment: "+tc.class+"\n"+nodeGrant(testguest.MCPModules()), fmt.Sprintf(`    - name: fs
      command: node
      args: [%s/dist/index.js, /]
`, filesystem))
			stdout, stderr, code := runMur(p.dir, nil, "run", "--workdir", work, "--task", "read")
			if code != 0 || !strings.HasSuffix(stdout, "status:  ok\nread\n") {
				t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			sess, _ := filepath.Glob(filepath.Join(work, ".murmur", "ses_*"))
			if len(sess) != 1 {
				t.Fatalf("sessions in the workdir: %v", sess)
			}
			calls := toolCalls(t, sess[0])
			if len(calls) != 2 {
				t.Fatalf("tool_call records: %v", calls)
			}
			out, _ := calls[0]["output"].(string)
			if calls[0]["status"] != "error" || !strings.Contains(out, "EACCES") {
				t.Errorf("the read outside the workdir: %v", calls[0])
			}
			if calls[1]["status"] != "ok" || calls[1]["output"] != "inside content" {
				t.Errorf("the read in the workdir: %v", calls[1])
			}
			nowhereUnder(t, work, secretText)
			if strings.Contains(stdout+stderr, secretText) {
				t.Errorf("mur's output holds the secret")
			}
		})
	}
}

// A remote server (server-everything's streamable HTTP on loopback) is
// refused at staging until capabilities.network.allow covers it, naming
// the rule to add; then its echo works. Its Authorization header's value
// reaches the server but nothing recorded, no guest and no subprocess: a
// model that has the server echo it reads [REDACTED], and a local
// server's environment does not hold it.
func TestAgentMCPRemoteServer(t *testing.T) {
	everything := testguest.MCPServerDir(t, "server-everything")
	port := startStreamableEverything(t, everything)
	const token = "tok-mcp-remote-4e1d"
	turns := `[{"tool_calls": [` + mcpCall("e", "mcp__remote__echo", map[string]string{"message": "hello"}) + `, ` +
		mcpCall("leak", "mcp__remote__echo", map[string]string{"message": token}) + `]},
		{"expect_results": [` + expect("e", false, "Echo: hello") + `, ` + expect("leak", false, "Echo: [REDACTED]") + `],
		 "tool_calls": [` + mcpCall("env", "mcp__local__get-env", map[string]any{}) + `]},
		{"text": "remote ok"}]`
	servers := fmt.Sprintf(`    - name: remote
      url: http://127.0.0.1:%d/mcp
      headers: {Authorization: "Bearer ${EXAMPLE_TOKEN}"}
    - name: local
      command: node
      args: [%s/dist/index.js, stdio]
`, port, everything)
	dir := t.TempDir()
	p := mcpAgentIn(t, dir, turns, nodeGrant(testguest.MCPModules()), servers)
	extra := []string{"EXAMPLE_TOKEN=" + token}
	stdout, stderr, code := runMur(p.dir, extra, "run", "--task", "remote")
	rule := fmt.Sprintf("add `- http://127.0.0.1:%d` to capabilities.network.allow in murmur.yaml", port)
	if code == 0 || !strings.Contains(stderr, "error[E-CAP-001]") || !strings.Contains(stderr, "mcp server 'remote'") || !strings.Contains(stderr, rule) {
		t.Fatalf("not refused: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if sessions, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*")); len(sessions) != 0 {
		t.Errorf("a refused run left %v", sessions)
	}
	p = mcpAgentIn(t, dir, turns, nodeGrant(testguest.MCPModules())+fmt.Sprintf("  network: {allow: ['http://127.0.0.1:%d']}\n", port), servers)
	stdout, stderr, code = runMur(p.dir, extra, "run", "--task", "remote")
	if code != 0 || !strings.HasSuffix(stdout, "status:  ok\nremote ok\n") {
		t.Fatalf("mur run: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	calls := toolCalls(t, p.sessionDir())
	if env, _ := calls[2]["output"].(string); len(calls) != 3 || !strings.Contains(env, "PATH") {
		t.Fatalf("tool_call records: %v", calls)
	}
	nowhereUnder(t, p.sessionDir(), token)
	if strings.Contains(stdout+stderr, token) {
		t.Errorf("mur's output holds the token")
	}
}

// startStreamableEverything runs server-everything's streamable HTTP
// transport on a free loopback port, until the test ends, and returns
// the port once it listens (it says so on stderr).
func startStreamableEverything(t *testing.T, everything string) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed for the reference servers: %v", err)
	}
	cmd := exec.Command(node, filepath.Join(everything, "dist", "index.js"), "streamableHttp")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PORT=" + strconv.Itoa(port)}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "listening on port") {
			go func() {
				for sc.Scan() {
				}
			}()
			return port
		}
	}
	t.Fatalf("server-everything did not listen on %d", port)
	return 0
}

// A local server that fails to start is an error naming it, with what
// it said, and the run fails.
func TestAgentMCPServerFailsToStart(t *testing.T) {
	p := mcpAgentIn(t, t.TempDir(), `[{"text": "never"}]`, nodeGrant(testguest.MCPModules()), `    - name: broken
      command: node
      args: [/nonexistent/server.js]
`)
	stdout, stderr, code := runMur(p.dir, nil, "run", "--task", "start")
	if code == 0 || !strings.Contains(stderr, "mcp server 'broken' did not start") || !strings.Contains(stderr, "Cannot find module") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// A tool a server adds (notifications/tools/list_changed) is offered in
// the next request and can be called: the Go SDK server's grow answers
// only once the client re-listed, and the next turn calls grown.
func TestAgentMCPListChanged(t *testing.T) {
	bin, err := mcpServerBin()
	if err != nil {
		t.Fatal(err)
	}
	turns := `[{"tool_calls": [` + mcpCall("g", "mcp__t__grow", map[string]any{}) + `]},
		{"expect_results": [` + expect("g", false, "grew") + `], "tool_calls": [` + mcpCall("n", "mcp__t__grown", map[string]any{}) + `]},
		{"expect_results": [` + expect("n", false, "grown") + `], "text": "grown ok"}]`
	p := mcpAgentIn(t, t.TempDir(), turns, fmt.Sprintf("  shell:\n    allow: [%s]\n", bin), fmt.Sprintf("    - {name: t, command: %s}\n", bin))
	stdout, stderr := p.mur(0, "run", "--task", "grow")
	if !strings.HasSuffix(stdout, "status:  ok\ngrown ok\n") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}
