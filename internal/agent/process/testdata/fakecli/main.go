// Command fakecli stands in for the claude and codex CLIs in the
// transport's tests: it records its argv and environment in its working
// directory (readable by its own uid only, as a real CLI keeps its
// environment), reads its task (stdin for claude, the last argument for
// codex), reaches the bridge with the MCP SDK's own client when told to,
// configured the way the real CLI reads its configuration (bridge.go),
// and prints the dialect's JSON events. The task's first word picks the
// scenario; the test checks what was recorded.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	_ "github.com/mur-go/mur/internal/sandbox" // its init is the test's rlimit trampoline, as in mur
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "__sleep" {
		for {
			time.Sleep(time.Hour) // until killed (select{} would be a detected deadlock)
		}
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "fakecli:", err)
		os.Exit(3)
	}
}

func run() error {
	if err := record("fake-argv.json", os.Args); err != nil {
		return err
	}
	if err := record("fake-env.json", os.Environ()); err != nil {
		return err
	}
	var nofile, fsize syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &nofile) != nil || syscall.Getrlimit(syscall.RLIMIT_FSIZE, &fsize) != nil {
		return fmt.Errorf("reading rlimits")
	}
	if err := record("fake-rlimits.json", []uint64{nofile.Max, fsize.Max}); err != nil {
		return err
	}
	codex := filepath.Base(os.Args[0]) == "codex"
	var task string
	if codex {
		lines := strings.Split(os.Args[len(os.Args)-1], "\n")
		task = lines[len(lines)-1]
	} else {
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the task line: %w", err)
		}
		var ev struct {
			Type    string
			Message struct {
				Role    string
				Content []struct{ Type, Text string }
			}
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Type != "user" || len(ev.Message.Content) != 1 {
			return fmt.Errorf("task line %q is not one user text message", line)
		}
		task = ev.Message.Content[0].Text
	}
	if err := os.WriteFile("fake-task.txt", []byte(task), 0o600); err != nil {
		return err
	}
	words := strings.Fields(task)
	p := &printer{codex: codex}
	switch words[0] {
	case "call":
		return call(p, words[1], strings.Join(words[2:], " "), false, false)
	case "quiet": // a call over the bridge that the event stream hides
		return call(p, words[1], strings.Join(words[2:], " "), true, false)
	case "block": // a call, then wait until the test says to finish
		return call(p, words[1], strings.Join(words[2:], " "), false, true)
	case "turns":
		n, _ := strconv.Atoi(words[1])
		for i := range n {
			p.text(fmt.Sprintf("turn %d", i+1))
		}
		p.result("after turns")
	case "thinking":
		p.emit(map[string]any{"type": "assistant", "message": map[string]any{"content": []any{
			map[string]any{"type": "thinking", "thinking": "hmm"}}}})
		p.text("only this one counts")
		p.result("thought")
	case "exit":
		fmt.Fprintln(os.Stderr, "boom: no credentials")
		os.Exit(2)
	case "huge":
		fmt.Printf("{\"type\":\"assistant\",\"pad\":\"%s\"}\n", strings.Repeat("x", 17<<20))
		p.result("never read")
	case "garbage":
		fmt.Println("this is not json")
		fmt.Println("{\"type\":")
	case "error":
		p.emit(map[string]any{"type": "result", "subtype": "error_during_execution", "is_error": true, "result": "model overloaded"})
	case "orphan":
		child := exec.Command(os.Args[0], "__sleep")
		if err := child.Start(); err != nil {
			return err
		}
		if err := os.WriteFile("fake-pids", fmt.Appendf(nil, "%d", child.Process.Pid), 0o600); err != nil {
			return err
		}
		p.result("left a child behind")
	case "daemon": // a child in a session of its own, which no process group kill reaches; then hang
		child := exec.Command(os.Args[0], "__sleep")
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := child.Start(); err != nil {
			return err
		}
		if err := os.WriteFile("fake-pids.tmp", fmt.Appendf(nil, "%d %d\n", os.Getpid(), child.Process.Pid), 0o644); err != nil {
			return err
		}
		if err := os.Rename("fake-pids.tmp", "fake-pids"); err != nil {
			return err
		}
		p.text("working")
		for {
			time.Sleep(time.Hour)
		}
	case "hang":
		child := exec.Command(os.Args[0], "__sleep")
		if err := child.Start(); err != nil {
			return err
		}
		if err := os.WriteFile("fake-pids", fmt.Appendf(nil, "%d %d", os.Getpid(), child.Process.Pid), 0o600); err != nil {
			return err
		}
		p.text("working")
		// Blocks until killed; a bare select{} would let the runtime
		// declare a deadlock and exit when no other goroutine exists.
		for {
			time.Sleep(time.Hour)
		}
	default:
		return fmt.Errorf("unknown scenario %q", task)
	}
	return nil
}

// call lists the bridge's tools, records them, calls tool with the JSON
// input and, unless quiet, reports the call as the dialect does; then,
// if block, it waits for the test (awaitGo), and ends with the result.
func call(p *printer, tool, input string, quiet, block bool) error {
	url, header, err := bridgeConfig(p.codex)
	if err != nil {
		return err
	}
	if err := record("fake-auth.json", header); err != nil {
		return err
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "fakecli", Version: "1.0.0"}, nil)
	hc := &http.Client{Transport: withHeader{header}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		return fmt.Errorf("connecting to the bridge: %w", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	if err := record("fake-tools.json", list.Tools); err != nil {
		return err
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(input), &args); err != nil {
		return fmt.Errorf("input %q: %w", input, err)
	}
	name := "mcp__claude_bridge__" + tool
	switch {
	case quiet:
	case p.codex:
		name = tool
		p.emit(map[string]any{"type": "item.started", "item": map[string]any{"id": "item_0", "type": "mcp_tool_call",
			"server": "claude_bridge", "tool": tool, "arguments": args, "status": "in_progress"}})
	default:
		p.emit(map[string]any{"type": "assistant", "message": map[string]any{"content": []any{
			map[string]any{"type": "text", "text": "calling"},
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": name, "input": args}}}})
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return fmt.Errorf("calling %s: %w", tool, err)
	}
	text := ""
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	switch {
	case quiet:
	case p.codex:
		status := "completed"
		if res.IsError {
			status = "failed"
		}
		p.emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_0", "type": "mcp_tool_call",
			"server": "claude_bridge", "tool": tool, "arguments": args, "status": status,
			"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}}})
	default:
		p.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": res.IsError,
				"content": []any{map[string]any{"type": "text", "text": text}}}}}})
	}
	p.text("the tool said " + text)
	if block {
		if err := awaitGo(); err != nil {
			return err
		}
	}
	p.result("done: " + text)
	return nil
}

// awaitGo writes this process's pid to the FIFO fake-ready, which the
// test reads to know the CLI is connected and working, then reads the
// FIFO fake-go until the test closes it.
func awaitGo() error {
	if err := os.WriteFile("fake-ready", fmt.Appendf(nil, "%d", os.Getpid()), 0o600); err != nil {
		return err
	}
	_, err := os.ReadFile("fake-go")
	return err
}

type withHeader struct{ auth string }

func (w withHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", w.auth)
	return http.DefaultTransport.RoundTrip(r)
}

// printer writes the dialect's events to stdout.
type printer struct {
	codex bool
	items int
}

func (p *printer) emit(v any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func (p *printer) text(s string) {
	if p.codex {
		p.items++
		p.emit(map[string]any{"type": "item.completed", "item": map[string]any{"id": fmt.Sprintf("msg_%d", p.items), "type": "agent_message", "text": s}})
		return
	}
	p.emit(map[string]any{"type": "assistant", "message": map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}})
}

func (p *printer) result(s string) {
	if p.codex {
		p.text(s)
		p.emit(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": 1}})
		return
	}
	p.emit(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": s})
}

func record(name string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o600)
}
