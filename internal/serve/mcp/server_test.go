package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/serve/mcp"
)

// The tools are listed with their schemas (an object schema where the
// entry had none), calls reach the dispatcher with their arguments in
// canonical form, and a failed call is an error result, not a protocol
// error.
func TestListAndCall(t *testing.T) {
	d := newRecorder()
	ctx := context.Background()
	cs, err := connect(ctx, serveHTTP(t, d), "Bearer "+testToken)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if m, ok := tool.InputSchema.(map[string]any); !ok || m["type"] != "object" {
			t.Errorf("tool %s input schema %v, want an object schema", tool.Name, tool.InputSchema)
		}
	}
	slices.Sort(names)
	if want := []string{"block", "echo", "fail", "guide"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	tests := []struct {
		name    string
		args    any
		want    string
		isError bool
	}{
		{"echo", map[string]any{"b": 2.50, "a": "<x>"}, `echo: {"a":"<x>","b":2.5}`, false},
		{"echo", nil, "echo: {}", false},
		{"fail", map[string]any{}, "fail: {}", true},
	}
	for _, tt := range tests {
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tt.name, Arguments: tt.args})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := text(t, r); got != tt.want || r.IsError != tt.isError {
			t.Errorf("%s(%v) = %q (error %v), want %q (error %v)", tt.name, tt.args, got, r.IsError, tt.want, tt.isError)
		}
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "undeclared"}); err == nil {
		t.Error("a call to a tool the server does not offer succeeded")
	}
	if n := d.count(); n != len(tests) {
		t.Errorf("dispatched %d calls, want %d", n, len(tests))
	}
}

// A skill is a prompt as well as a tool: getting it is a call of the
// skill, whose text comes back as a user message.
func TestSkillsArePrompts(t *testing.T) {
	d := newRecorder()
	ctx := context.Background()
	cs, err := connect(ctx, serveHTTP(t, d), "Bearer "+testToken)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != 1 || list.Prompts[0].Name != "guide" || list.Prompts[0].Description != "how to do it" {
		t.Fatalf("prompts %+v, want the skill guide alone", list.Prompts)
	}
	got, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "guide"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 1 || got.Messages[0].Role != "user" || got.Messages[0].Content.(*sdk.TextContent).Text != "guide: {}" {
		t.Fatalf("prompt guide = %+v", got.Messages)
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "guide", Arguments: map[string]string{"x": "y"}}); err == nil {
		t.Error("a skill prompt took arguments it has no use for")
	}
	if d.count() != 1 {
		t.Errorf("dispatched %d calls, want 1", d.count())
	}
}

// Calls are dispatched one at a time, as the loop dispatches, whatever
// the number of clients: another client's call waits for the running
// one, and one whose client gives up while it waits never runs.
func TestCallsOneAtATime(t *testing.T) {
	d := newRecorder()
	ctx := context.Background()
	waited := make(waits, 4)
	url := serveHTTPLogged(t, d, slog.New(waited))
	clients := make([]*sdk.ClientSession, 3)
	for i := range clients {
		cs, err := connect(ctx, url, "Bearer "+testToken)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		clients[i] = cs
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := clients[0].CallTool(ctx, &sdk.CallToolParams{Name: "block"}); err != nil {
			t.Errorf("block: %v", err)
		}
	}()
	<-d.started
	// Deferred after the clients' Close, so it runs first: a failed test
	// does not leave block holding its client.
	defer d.free()
	// next is the caller's next diagnostic; a call that starts instead
	// fails the test.
	next := func(want, what string) {
		t.Helper()
		select {
		case got := <-waited:
			if got != want {
				t.Fatalf("%s: the server said %q, want %q", what, got, want)
			}
		case <-d.started:
			t.Fatalf("%s ran while block was running", what)
		}
	}
	gaveUp, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		clients[1].CallTool(gaveUp, &sdk.CallToolParams{Name: "echo"})
	}()
	next("waits echo", "a second client's call")
	cancel()
	next("not run echo", "the call whose client gave up")
	<-done
	second := make(chan string, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		r, err := clients[2].CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"a": "second"}})
		if err != nil {
			t.Errorf("echo: %v", err)
			return
		}
		second <- text(t, r)
	}()
	next("waits echo", "a third client's call")
	d.free()
	wg.Wait()
	if got := <-second; got != `echo: {"a":"second"}` {
		t.Errorf("the call that waited = %q", got)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if want := []string{"block {}", `echo {"a":"second"}`}; !slices.Equal(d.calls, want) || d.most != 1 {
		t.Errorf("calls %v (%d at once), want %v one at a time: the one whose client gave up never runs", d.calls, d.most, want)
	}
}

// Over stdio the server answers the client that started it until the
// client closes its end; then ServeStdio returns nil.
func TestStdio(t *testing.T) {
	d := newRecorder()
	ctx := context.Background()
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- mcp.ServeStdio(ctx, mcp.Options{Name: "test", Version: "1.0.0", Tools: testTools, Dispatcher: d}, sin, sout)
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cin, Writer: cout}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo; got.Name != "test" || got.Version != "1.0.0" {
		t.Errorf("server info %+v", got)
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"a": "stdio"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, r); got != `echo: {"a":"stdio"}` {
		t.Errorf("echo over stdio = %q", got)
	}
	cs.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeStdio after the client left: %v", err)
	}
}

// Stopping the server is how it ends, not an error worth a log line.
func TestStdioStopsQuietly(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- mcp.ServeStdio(ctx, mcp.Options{Name: "test", Tools: testTools, Dispatcher: newRecorder(), Log: log}, sin, sout)
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: cin, Writer: cout}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	cancel()
	if err := <-served; !errors.Is(err, context.Canceled) {
		t.Fatalf("ServeStdio after its context ended: %v", err)
	}
	if logged.Len() > 0 {
		t.Errorf("stopping logged:\n%s", logged.String())
	}
}
