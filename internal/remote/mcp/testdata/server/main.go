// Command server is an MCP server on stdio for the MCP client's tests,
// built on the official Go SDK. Its tools: echo {message} answers
// "Echo: <message>"; fail answers a result marked isError; env answers
// its environment; read {path} answers a file's content; sleep blocks
// until the call is cancelled; grow adds the tool grown (which answers
// "grown") and answers only once the client has asked for the changed
// list, so the change is known to the client before the answer is. With
// -crash it writes to stderr and exits 3 before speaking MCP; with
// -pidfile FILE it writes its pid and a newline to FILE first; with
// -linger it stays once its client is gone, as a hostile server would.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	crash := flag.Bool("crash", false, "fail before speaking MCP")
	pidfile := flag.String("pidfile", "", "write the pid to this file")
	linger := flag.Bool("linger", false, "stay once the client is gone")
	flag.Parse()
	if *crash {
		fmt.Fprintln(os.Stderr, "server: refusing to start, as asked")
		os.Exit(3)
	}
	if *pidfile != "" {
		if err := os.WriteFile(*pidfile, []byte(fmt.Sprintf("%d\n", os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "server:", err)
			os.Exit(1)
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mur-test-server", Version: "1"}, nil)
	lists := newCounter()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists.add()
			}
			return next(ctx, method, req)
		}
	})
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	obj := &mcp.Tool{InputSchema: map[string]any{"type": "object"}}
	tool := func(name, desc string, h mcp.ToolHandler) {
		t := *obj
		t.Name, t.Description = name, desc
		s.AddTool(&t, h)
	}
	tool("echo", "Echoes back the input string", func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Message string }
		if err := jsonArgs(r, &in); err != nil {
			return nil, err
		}
		return text("Echo: " + in.Message), nil
	})
	tool("fail", "Always fails", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := text("it failed, as it always does")
		res.IsError = true
		return res, nil
	})
	tool("env", "Its environment", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(strings.Join(os.Environ(), "\n")), nil
	})
	tool("read", "Reads a file", func(_ context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Path string }
		if err := jsonArgs(r, &in); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(in.Path)
		if err != nil {
			res := text(err.Error())
			res.IsError = true
			return res, nil
		}
		return text(string(b)), nil
	})
	tool("sleep", "Blocks until cancelled", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	tool("grow", "Adds the tool grown", func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		seen := lists.get()
		tool("grown", "Added by grow", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("grown"), nil
		})
		if err := lists.after(ctx, seen); err != nil {
			return nil, err
		}
		return text("grew"), nil
	})
	err := s.Run(context.Background(), &mcp.StdioTransport{})
	for *linger {
		time.Sleep(time.Hour) // a timer, so the runtime sees no deadlock
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func jsonArgs(r *mcp.CallToolRequest, v any) error {
	return json.Unmarshal(r.Params.Arguments, v)
}

// counter counts tools/list requests and lets a call wait for the next.
type counter struct {
	mu   sync.Mutex
	n    int
	more chan struct{}
}

func newCounter() *counter { return &counter{more: make(chan struct{})} }

func (c *counter) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	close(c.more)
	c.more = make(chan struct{})
}

func (c *counter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// after returns once the count is past seen.
func (c *counter) after(ctx context.Context, seen int) error {
	for {
		c.mu.Lock()
		n, more := c.n, c.more
		c.mu.Unlock()
		if n > seen {
			return nil
		}
		select {
		case <-more:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
