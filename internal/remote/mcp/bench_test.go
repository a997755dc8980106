package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/mur-go/mur/internal/tools"
)

// echoTool is the echo tool of testdata/server called in process, as a
// native Go tool would be: the baseline an MCP call is measured against.
type echoTool struct{}

func (echoTool) Invoke(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	var args struct{ Message string }
	if err := json.Unmarshal([]byte(*in.Data), &args); err != nil {
		return tools.ToolResult{}, err
	}
	text := "Echo: " + args.Message
	return tools.ToolResult{Status: tools.StatusPassed, Data: &text}, nil
}

// BenchmarkEcho is one echo call: the Go SDK server's tool through this
// client, over stdio to a local server's process and over streamable
// HTTP on loopback, against the same tool called directly. The ratio of
// ns/op is what the MCP client and transport cost per call.
func BenchmarkEcho(b *testing.B) {
	input := `{"message":"hello"}`
	run := func(b *testing.B, tool tools.Tool) {
		b.ReportAllocs()
		for b.Loop() {
			if r, err := tool.Invoke(context.Background(), tools.ToolInput{Data: &input}); err != nil || *r.Data != "Echo: hello" {
				b.Fatal(r, err)
			}
		}
	}
	b.Run("direct", func(b *testing.B) { run(b, echoTool{}) })
	b.Run("mcp-stdio", func(b *testing.B) {
		s := New(Config{Servers: []Server{{Name: "t", Local: &Local{Process: tools.Process{
			Path: serverBin, Args: []string{serverBin}, Dir: b.TempDir()}}}}})
		if err := s.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		tool, _ := s.Lookup("mcp__t__echo")
		run(b, tool)
	})
	b.Run("mcp-http", func(b *testing.B) {
		rs := newRemoteServer(b)
		u, _ := url.Parse(rs.URL)
		s := New(Config{Servers: []Server{{Name: "r", Remote: &Remote{URL: rs.URL + "/mcp", Net: allow(b, "http://"+u.Host)}}}})
		if err := s.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		tool, _ := s.Lookup("mcp__r__echo")
		run(b, tool)
	})
}
