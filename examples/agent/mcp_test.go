package agentexample

// `mur mcp serve` serves this example's tools to MCP clients (issue 27
// §1), here the official Go SDK's client, over stdio and over HTTP: the
// client lists the WASM tool, the native tool and the shell command,
// calls each with the script's own first-turn calls and must get
// exactly the results the script's second turn insists on; a shell
// command reading outside the workdir is refused by the sandbox, a tool
// the capsule does not declare by the server; over HTTP nothing is
// served without the bearer token, which never reaches the trace.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"
)

// scriptCall is one tool call of the script's first turn and the result
// its second turn expects for it.
type scriptCall struct {
	name  string
	input map[string]any
	want  string
}

// scriptCalls reads the calls and expected results from murmur.yaml, so
// the script stays the one place that says what the tools answer.
func scriptCalls(t testing.TB) []scriptCall {
	t.Helper()
	b, err := os.ReadFile("murmur.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Inference struct {
			Driver struct {
				Config struct {
					Turns []struct {
						ToolCalls []struct {
							ID    string         `yaml:"id"`
							Name  string         `yaml:"name"`
							Input map[string]any `yaml:"input"`
						} `yaml:"tool_calls"`
						ExpectResults []struct {
							ID   string `yaml:"tool_call_id"`
							Text string `yaml:"text"`
						} `yaml:"expect_results"`
					} `yaml:"turns"`
				} `yaml:"config"`
			} `yaml:"driver"`
		} `yaml:"inference"`
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	turns := m.Inference.Driver.Config.Turns
	if len(turns) < 2 {
		t.Fatal("murmur.yaml's script has no tool turn and check")
	}
	var calls []scriptCall
	for _, c := range turns[0].ToolCalls {
		for _, r := range turns[1].ExpectResults {
			if r.ID == c.ID {
				calls = append(calls, scriptCall{name: c.Name, input: c.Input, want: r.Text})
			}
		}
	}
	if len(calls) != 3 {
		t.Fatalf("the script's first turn has %d calls with expected results, want 3", len(calls))
	}
	return calls
}

// workdir is a fresh directory holding the example's task.md, which the
// tools measure.
func workdir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	copyFile(t, "task.md", filepath.Join(dir, "task.md"))
	return dir
}

// mcpCommand is `mur mcp serve --workdir dir args…` in the project, with
// the example's environment and extra.
func (e *example) mcpCommand(dir string, extra []string, args ...string) *exec.Cmd {
	cmd := exec.Command(e.bin, append([]string{"mcp", "serve", "--workdir", dir}, args...)...)
	cmd.Dir = e.project
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + e.home, "MUR_CACHE_DIR=" + e.cache}, extra...)
	return cmd
}

// lockedBuffer collects a process's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// grew is closed at the next Write (made on demand by waitFor).
	grew chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grew != nil {
		close(l.grew)
		l.grew = nil
	}
	return l.b.Write(p)
}

// waitFor waits until the buffer holds s, woken by each write, and
// reports whether it did before timeout.
func (l *lockedBuffer) waitFor(s string, timeout time.Duration) bool {
	expired := time.After(timeout)
	for {
		l.mu.Lock()
		if strings.Contains(l.b.String(), s) {
			l.mu.Unlock()
			return true
		}
		if l.grew == nil {
			l.grew = make(chan struct{})
		}
		grew := l.grew
		l.mu.Unlock()
		select {
		case <-grew:
		case <-expired:
			return false
		}
	}
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// connectStdio starts cmd as the SDK's client starts a stdio server and
// connects to it.
func connectStdio(t testing.TB, cmd *exec.Cmd) (*mcp.ClientSession, *lockedBuffer) {
	t.Helper()
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "mur-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to mur mcp serve: %v\nstderr:\n%s", err, stderr)
	}
	return cs, stderr
}

// call is a tools/call and its text.
func call(t testing.TB, cs *mcp.ClientSession, name string, input map[string]any) (string, bool) {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: input})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	if len(r.Content) != 1 {
		t.Fatalf("%s answered %d contents, want 1", name, len(r.Content))
	}
	return r.Content[0].(*mcp.TextContent).Text, r.IsError
}

// checkTools holds the served list to the example's inventory: the WASM
// tool, the native tool and the shell command, each with its manifest's
// description, and not the driver.
func checkTools(t testing.TB, cs *mcp.ClientSession) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
	}
	if want := []string{"fingerprint", "wc", "word-stats"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

// callTheScript makes the script's calls and holds each to its result.
func callTheScript(t testing.TB, cs *mcp.ClientSession) {
	t.Helper()
	for _, c := range scriptCalls(t) {
		if got, isError := call(t, cs, c.name, c.input); got != c.want || isError {
			t.Errorf("%s(%v) answered (error %v)\n%s\nwant\n%s", c.name, c.input, isError, got, c.want)
		}
	}
}

// sessionTrace reads the trace the "session … ended …; trace: PATH" line
// names.
func sessionTrace(t testing.TB, stderr string) (raw string, types []string, lines []map[string]any) {
	t.Helper()
	_, path, ok := strings.Cut(stderr, "; trace: ")
	if !ok {
		t.Fatalf("mur named no trace:\n%s", stderr)
	}
	path, _, _ = strings.Cut(path, "\n")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for l := range strings.Lines(string(b)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("trace line %q: %v", l, err)
		}
		types = append(types, m["event_type"].(string))
		lines = append(lines, m)
	}
	return string(b), types, lines
}

// TestMCPServe runs the cases on one installed example.
func TestMCPServe(t *testing.T) {
	e := setUp(t)
	t.Run("stdio", func(t *testing.T) { mcpOverStdio(t, e) })
	t.Run("HTTP with a generated token", func(t *testing.T) { mcpOverHTTPWithAGeneratedToken(t, e) })
	t.Run("HTTP keeps its token out of the trace", func(t *testing.T) { mcpKeepsItsTokenOutOfTheTrace(t, e) })
}

func mcpOverStdio(t *testing.T, e *example) {
	cmd := e.mcpCommand(workdir(t), nil)
	cs, stderr := connectStdio(t, cmd)
	if info := cs.InitializeResult().ServerInfo; info.Name != "agent" || info.Version != "0.1.0" {
		t.Errorf("server %+v, want the capsule agent 0.1.0", info)
	}
	checkTools(t, cs)
	callTheScript(t, cs)
	// The sandbox refuses what the grants do not give: wc may read the
	// workdir and not /etc/passwd, which this user can read.
	if got, _ := call(t, cs, "wc", map[string]any{"command": "-c /etc/passwd"}); !strings.Contains(got, "Exit code: 1") || !strings.Contains(got, "Permission denied") {
		t.Errorf("wc read a file outside the workdir:\n%s", got)
	}
	// A command the capsule does not allow is no tool of its.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cat", Arguments: map[string]any{"command": "/etc/passwd"}}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("cat, which shell.allow does not name, was called: %v", err)
	}
	// The client leaving (stdin closed) ends the session ok.
	if err := cs.Close(); err != nil {
		t.Fatalf("closing the session: %v\nstderr:\n%s", err, stderr)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("mur mcp serve exited %d, want 0\nstderr:\n%s", code, stderr)
	}
	_, types, lines := sessionTrace(t, stderr.String())
	want := []string{"session_start", "tool_call", "tool_call", "tool_call", "shell", "tool_call", "shell", "session_end"}
	if !slices.Equal(types, want) {
		t.Fatalf("trace %v, want %v", types, want)
	}
	var names []string
	for _, l := range lines {
		if l["event_type"] == "tool_call" {
			names = append(names, l["tool_name"].(string))
			if l["turn"] != 0.0 {
				t.Errorf("tool_call at turn %v, want 0: no model turn", l["turn"])
			}
		}
	}
	if !slices.Equal(names, []string{"word-stats", "fingerprint", "wc", "wc"}) {
		t.Errorf("tool_call records for %v", names)
	}
	if end := lines[len(lines)-1]; end["exit_status"] != "ok" || end["total_tool_calls"] != 4.0 || end["total_shell_calls"] != 2.0 {
		t.Errorf("session_end %v", end)
	}
}

// httpServer is a started `mur mcp serve --http`: its URL, and its
// stderr once it ended.
type httpServer struct {
	cmd    *exec.Cmd
	url    string
	stderr *lockedBuffer
}

func (e *example) startHTTP(t testing.TB, extra []string, args ...string) *httpServer {
	t.Helper()
	cmd := e.mcpCommand(workdir(t), extra, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	s := &httpServer{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = s.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Wait()
		t.Fatalf("mur mcp serve --http printed no URL: %v\nstderr:\n%s", err, s.stderr)
	}
	s.url = strings.TrimSpace(line)
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") || !strings.HasSuffix(s.url, "/mcp") {
		t.Fatalf("URL line %q", line)
	}
	go io.Copy(io.Discard, out)
	return s
}

// stop sends sig and returns the exit status.
func (s *httpServer) stop(t testing.TB, sig syscall.Signal) int {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := s.cmd.Wait()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return s.cmd.ProcessState.ExitCode()
}

// connectHTTP connects the SDK's client sending auth ("" for none).
func connectHTTP(url, auth string) (*mcp.ClientSession, error) {
	hc := &http.Client{Transport: bearer{auth}}
	client := mcp.NewClient(&mcp.Implementation{Name: "mur-test", Version: "1.0.0"}, nil)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
}

type bearer struct{ auth string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.auth != "" {
		r.Header.Set("Authorization", b.auth)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// rawStatus is the status of a tools/call POSTed with auth.
func rawStatus(t testing.TB, url, auth string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wc","arguments":{"command":"-l task.md"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Without MURMUR_MCP_TOKEN or --token-file, mur makes a token, keeps it
// in a 0600 file it names on stderr and removes at the end; a client
// without it is answered 401, one with it calls every tool.
func mcpOverHTTPWithAGeneratedToken(t *testing.T, e *example) {
	s := e.startHTTP(t, nil)
	files, _ := filepath.Glob(filepath.Join(e.home, ".murmur", "mcp", "*.token"))
	if len(files) != 1 {
		t.Fatalf("token files %v; stderr:\n%s", files, s.stderr)
	}
	fi, err := os.Stat(files[0])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %v, mode %v, want 0600", err, fi.Mode().Perm())
	}
	b, _ := os.ReadFile(files[0])
	token := strings.TrimSpace(string(b))
	if strings.Contains(strings.Join(s.cmd.Args, " "), token) {
		t.Fatal("the token is in mur's argv")
	}
	for _, auth := range []string{"", "Bearer " + strings.Repeat("0", len(token)), token, "Bearer " + token + "x"} {
		if code := rawStatus(t, s.url, auth); code != http.StatusUnauthorized {
			t.Errorf("tools/call with %q: status %d, want 401", auth, code)
		}
		if cs, err := connectHTTP(s.url, auth); err == nil {
			cs.Close()
			t.Errorf("the SDK client connected with %q", auth)
		}
	}
	cs, err := connectHTTP(s.url, "Bearer "+token)
	if err != nil {
		t.Fatalf("connecting with the token: %v\nstderr:\n%s", err, s.stderr)
	}
	checkTools(t, cs)
	callTheScript(t, cs)
	cs.Close()
	if code := s.stop(t, syscall.SIGTERM); code != 143 {
		t.Errorf("mur mcp serve exited %d on SIGTERM, want 143\nstderr:\n%s", code, s.stderr)
	}
	if _, err := os.Stat(files[0]); !os.IsNotExist(err) {
		t.Errorf("the token file outlived the server: %v", err)
	}
	// stderr is whole once mur exited.
	if !strings.Contains(s.stderr.String(), "the bearer token is in "+files[0]) {
		t.Errorf("mur did not name the token file on stderr:\n%s", s.stderr)
	}
	_, types, lines := sessionTrace(t, s.stderr.String())
	if want := []string{"session_start", "tool_call", "tool_call", "tool_call", "shell", "session_end"}; !slices.Equal(types, want) {
		t.Errorf("trace %v, want %v (the refused requests reach no tool)", types, want)
	}
	if end := lines[len(lines)-1]; end["exit_status"] != "cancelled" {
		t.Errorf("session_end %v, want cancelled", end)
	}
}

// MURMUR_MCP_TOKEN is the session's secret from the start: a call that
// carries it (here as a shell command's argument, which wc echoes back
// in its error) reaches neither the answer nor the trace.
func mcpKeepsItsTokenOutOfTheTrace(t *testing.T, e *example) {
	token := "mcp-test-token-" + strings.Repeat("7", 24)
	s := e.startHTTP(t, []string{"MURMUR_MCP_TOKEN=" + token})
	if files, _ := filepath.Glob(filepath.Join(e.home, ".murmur", "mcp", "*")); len(files) != 0 {
		t.Errorf("a token file was written for a given token: %v", files)
	}
	cs, err := connectHTTP(s.url, "Bearer "+token)
	if err != nil {
		t.Fatalf("connecting with MURMUR_MCP_TOKEN: %v\nstderr:\n%s", err, s.stderr)
	}
	got, _ := call(t, cs, "wc", map[string]any{"command": "-c " + token})
	cs.Close()
	if strings.Contains(got, token) || !strings.Contains(got, "[REDACTED]") {
		t.Errorf("the answer carries the token:\n%s", got)
	}
	if code := s.stop(t, syscall.SIGINT); code != 130 {
		t.Errorf("mur mcp serve exited %d on SIGINT, want 130", code)
	}
	raw, _, _ := sessionTrace(t, s.stderr.String())
	if strings.Contains(raw, token) || strings.Contains(s.stderr.String(), token) {
		t.Errorf("the token reached the trace or stderr:\n%s\n%s", raw, s.stderr)
	}
	if !strings.Contains(raw, `"command":"-c [REDACTED]"`) {
		t.Errorf("the call is not in the trace, redacted:\n%s", raw)
	}
}
