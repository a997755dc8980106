package agentexample

// BenchmarkMCPToolCall is what serving a tool over MCP costs (issue 27
// §1): one call of the example's WASM tool, word-stats on task.md,
// three ways in the same run, each in a session of its own:
//
//	go test -run '^$' -bench MCPToolCall -benchtime 200x ./examples/agent/
//
//	direct-ns/call  in-process through the agent loop's dispatch
//	                (session.ServeTools, Served.Call): a call of the
//	                capsule's own model, trace record included
//	inproc-ns/call  the same session's MCP server in this process, over
//	                a pipe (the protocol's own cost, no process hop)
//	stdio-ns/call   through `mur mcp serve` over stdio (the Go SDK's
//	                client and command transport)
//	http-ns/call    through `mur mcp serve --http` (the Go SDK's
//	                streamable client, bearer token, loopback)
//	inproc-x, stdio-x, http-x  each one's cost over the direct call's
//
// Every session runs with --no-cgroup (NoCgroup in process), so the
// three differ only in how the call reaches the dispatch.

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mur-go/mur/internal/serve/mcp"
	"github.com/mur-go/mur/internal/session"
)

// directSession is the example served in this process until stop: its
// tools, and an SDK client of its MCP server over a pipe.
type directSession struct {
	served *session.Serving
	client *sdk.ClientSession
	stop   func()
}

func startDirect(b *testing.B, e *example) *directSession {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan session.Serving, 1)
	done := make(chan error, 1)
	env := map[string]string{"PATH": os.Getenv("PATH"), "HOME": e.home}
	cin, sout := io.Pipe()
	sin, cout := io.Pipe()
	go func() {
		_, err := session.ServeTools(ctx, session.Options{
			ManifestPath: filepath.Join(e.project, "murmur.yaml"),
			Workdir:      workdir(b),
			NoCgroup:     true,
			Trampoline:   e.bin,
			CacheDir:     e.cache,
			LookupEnv:    func(k string) (string, bool) { v, ok := env[k]; return v, ok },
			Log:          slog.New(slog.DiscardHandler),
		}, "", func(ctx context.Context, s session.Serving) error {
			got <- s
			return mcp.ServeStdio(ctx, mcp.Options{Name: "agent", Tools: s.Tools.Tools(), Dispatcher: s.Tools}, sin, sout)
		})
		done <- err
	}()
	var s session.Serving
	select {
	case s = <-got:
	case err := <-done:
		cancel()
		b.Fatalf("serving the example in process: %v", err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "mur-bench", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: cin, Writer: cout}, nil)
	if err != nil {
		cancel()
		b.Fatal(err)
	}
	return &directSession{served: &s, client: cs, stop: func() { cs.Close(); <-done; cancel() }}
}

func BenchmarkMCPToolCall(b *testing.B) {
	e := setUp(b)
	c := scriptCalls(b)[0]
	if c.name != "word-stats" {
		b.Fatalf("the script's first call is %s, want the WASM tool word-stats", c.name)
	}
	input := `{"path":"task.md"}`
	direct := startDirect(b, e)
	defer direct.stop()
	stdio, _ := connectStdio(b, e.mcpCommand(workdir(b), nil, "--no-cgroup"))
	defer stdio.Close()
	token := "mcp-bench-token-" + time.Now().Format("150405.000000000")
	server := e.startHTTP(b, []string{"MURMUR_MCP_TOKEN=" + token}, "--no-cgroup")
	overHTTP, err := connectHTTP(server.url, "Bearer "+token)
	if err != nil {
		b.Fatal(err)
	}
	defer overHTTP.Close()

	ctx := context.Background()
	calls := []struct {
		name  string
		call  func()
		spent time.Duration
	}{
		{name: "direct", call: func() {
			if text, isError := direct.served.Tools.Call(ctx, c.name, input); text != c.want || isError {
				b.Fatalf("direct call: %q", text)
			}
		}},
		{name: "inproc", call: func() {
			if text, isError := call(b, direct.client, c.name, c.input); text != c.want || isError {
				b.Fatalf("in-process MCP call: %q", text)
			}
		}},
		{name: "stdio", call: func() {
			if text, isError := call(b, stdio, c.name, c.input); text != c.want || isError {
				b.Fatalf("stdio call: %q", text)
			}
		}},
		{name: "http", call: func() {
			if text, isError := call(b, overHTTP, c.name, c.input); text != c.want || isError {
				b.Fatalf("HTTP call: %q", text)
			}
		}},
	}
	// One untimed call each: the tool's first store and the connections.
	for _, k := range calls {
		k.call()
	}
	n := 0
	for b.Loop() {
		for i := range calls {
			start := time.Now()
			calls[i].call()
			calls[i].spent += time.Since(start)
		}
		n++
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(n) }
	for _, k := range calls {
		b.ReportMetric(per(k.spent), k.name+"-ns/call")
	}
	for _, k := range calls[1:] {
		b.ReportMetric(per(k.spent)/per(calls[0].spent), k.name+"-x")
	}
}
