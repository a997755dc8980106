// Command sdkecho is the baseline of the A2A load benchmark: a minimal
// server built the SDK's own way (a2asrv.NewHandler and an AgentExecutor)
// that completes every task with an echo. It prints "url localhost:PORT"
// once bound and serves until stdin closes.
package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net"
	"net/http"
	"os"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

type echo struct{}

func (echo) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		text := ""
		for _, p := range ec.Message.Parts {
			text += p.Text()
		}
		if !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("echo: "+text))), nil)
	}
}

func (echo) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkecho:", err)
		os.Exit(1)
	}
	h := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(echo{}))
	go func() { _ = http.Serve(ln, h) }()
	fmt.Println("url", ln.Addr().String())
	_, _ = io.Copy(io.Discard, os.Stdin)
}
