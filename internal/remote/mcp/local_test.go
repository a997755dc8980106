package mcp

import (
	"context"
	"errors"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/tools"
)

// localServers starts testdata/server as the local server "t" with args.
func localServers(t *testing.T, args ...string) *Servers {
	t.Helper()
	s := New(Config{Servers: []Server{{Name: "t", Local: &Local{Process: tools.Process{
		Path: serverBin, Args: append([]string{serverBin}, args...), Dir: t.TempDir(), Env: []string{"MARK=kept"}}}}}})
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// call invokes the catalog's tool name with input.
func call(t *testing.T, c tools.Catalog, name, input string) (tools.ToolResult, error) {
	t.Helper()
	tool, ok := c.Lookup(name)
	if !ok {
		t.Fatalf("%s is not listed", name)
	}
	return tool.Invoke(context.Background(), tools.ToolInput{Data: &input})
}

func names(l []tools.Listed) []string {
	var out []string
	for _, t := range l {
		out = append(out, t.Name)
	}
	return out
}

// A local server's tools are listed under mcp__<server>__ with their
// schemas, called with the model's input, and what they answer (text, or
// a result marked isError) is the tool's result.
func TestLocalServerTools(t *testing.T) {
	s := localServers(t)
	listed, _ := s.Listed(context.Background())
	if got := names(listed); !slices.Equal(got, []string{"mcp__t__echo", "mcp__t__env", "mcp__t__fail", "mcp__t__grow", "mcp__t__read", "mcp__t__sleep"}) {
		t.Fatalf("listed %v", got)
	}
	if listed[0].Description != "Echoes back the input string" || listed[0].InputSchema != `{"type":"object"}` {
		t.Errorf("echo listed as %+v", listed[0])
	}
	for _, tc := range []struct {
		name, input, text string
		status            tools.Status
		err               string
	}{
		{"mcp__t__echo", `{"message":"hi"}`, "Echo: hi", tools.StatusPassed, ""},
		{"mcp__t__echo", ``, "Echo: ", tools.StatusPassed, ""},
		{"mcp__t__fail", `{}`, "it failed, as it always does", tools.StatusError, ""},
		{"mcp__t__env", `{}`, "MARK=kept", tools.StatusPassed, ""},
		{"mcp__t__echo", `[1]`, "", 0, "tool 'mcp__t__echo' takes a JSON object as its input"},
		{"mcp__t__echo", `{"message":3}`, "", 0, "mcp server 't' failed tool 'echo'"},
	} {
		r, err := call(t, s, tc.name, tc.input)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %s: err = %v, want %q", tc.name, tc.input, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %s: %v", tc.name, tc.input, err)
		case r.Status != tc.status || r.Data == nil || !strings.Contains(*r.Data, tc.text):
			t.Errorf("%s %s: %v %q, want %v %q", tc.name, tc.input, r.Status, *r.Data, tc.status, tc.text)
		}
	}
	if _, ok := s.Lookup("mcp__t__nope"); ok {
		t.Error("a tool the server does not list was found")
	}
	if _, ok := s.Lookup("mcp__x__echo"); ok {
		t.Error("a server that is not declared was found")
	}
}

// A tool the server adds is in the list the next Listed returns, once
// the client has read the changed list: grow answers only after the
// client asked for it, so the change is known before the answer is.
func TestLocalServerListChanged(t *testing.T) {
	s := localServers(t)
	_, before := s.Listed(context.Background())
	if r, err := call(t, s, "mcp__t__grow", `{}`); err != nil || *r.Data != "grew" {
		t.Fatalf("grow: %v %v", r, err)
	}
	listed, after := s.Listed(context.Background())
	if !slices.Contains(names(listed), "mcp__t__grown") || after == before {
		t.Fatalf("after grow: %v (version %d → %d)", names(listed), before, after)
	}
	if r, err := call(t, s, "mcp__t__grown", `{}`); err != nil || *r.Data != "grown" {
		t.Errorf("grown: %v %v", r, err)
	}
}

// Every call has the capsule's deadline: a tool that never answers is a
// tool error naming it.
func TestLocalServerCallDeadline(t *testing.T) {
	s := localServers(t)
	s.cfg.Deadline = 100 * time.Millisecond
	_, err := call(t, s, "mcp__t__sleep", `{}`)
	if err == nil || !strings.Contains(err.Error(), "tool 'mcp__t__sleep' did not answer within its deadline of 100ms") {
		t.Errorf("err = %v", err)
	}
}

// A server that fails to start is an error naming it, with what it said
// on stderr; no process is left.
func TestLocalServerFailsToStart(t *testing.T) {
	s := New(Config{Servers: []Server{
		{Name: "good", Local: &Local{Process: tools.Process{Path: serverBin, Args: []string{serverBin}, Dir: t.TempDir()}}},
		{Name: "broken", Local: &Local{Process: tools.Process{Path: serverBin, Args: []string{serverBin, "-crash"}, Dir: t.TempDir()}}},
	}})
	err := s.Start(context.Background())
	var d *diag.Error
	if !errors.As(err, &d) || d.Code != CodeServer || !strings.HasPrefix(d.Msg, "mcp server 'broken' did not start") ||
		!strings.Contains(d.Msg, "server: refusing to start, as asked") || strings.Contains(err.Error(), "'good'") {
		t.Fatalf("err = %v", err)
	}
	if listed, _ := s.Listed(context.Background()); len(listed) != 0 {
		t.Errorf("a failed start still lists %v", names(listed))
	}
}

// Close ends the session and the server's process: it is gone when Close
// returns.
func TestLocalServerGoneAfterClose(t *testing.T) {
	s := localServers(t)
	sv := s.servers[0]
	pid := sv.proc.cmd.Process.Pid
	s.Close()
	select {
	case <-sv.proc.exited:
	default:
		t.Fatal("the server's process is still running after Close")
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("kill(%d, 0) = %v, want ESRCH", pid, err)
	}
	if listed, _ := s.Listed(context.Background()); len(listed) != 0 {
		t.Errorf("closed servers list %v", names(listed))
	}
}
