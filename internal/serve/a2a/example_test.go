package a2a_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/a2a"
)

// How the session serves an agent capsule: Serve binds, reports the URL,
// runs the loop against the A2A task source and stops when it returns.
// The loop runs each task under agent.TaskContext so CancelTask reaches it.
func ExampleServe() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	err := a2a.Serve(context.Background(), a2a.ServerOptions{
		SessionID: "ses_0190f1d2a3b47c8d9e0f112233445566",
		Workdir:   dir,
		Lifecycle: manifest.Lifecycle{TaskAcceptance: "single", AfterTask: "exit", QueueDepth: 1},
		Card:      a2a.CardInfo{Name: "hello", Version: "0.1.0"},
		Token:     os.Getenv(a2a.TokenEnv),
		Getenv:    func(string) string { return "0" }, // no wait: the idle attempt runs at once
		OnListen:  func(url string) { fmt.Println("murmur: url is known") },
		Run: func(ctx context.Context, src agent.TaskSource) error {
			for {
				t, ok, err := src.Next(ctx)
				if err != nil || !ok {
					return err
				}
				tctx, cancel := agent.TaskContext(ctx, t)
				_ = tctx // agent.Run's attempt runs here
				cancel()
				fmt.Printf("ran a task from %s with id %q\n", t.Source, t.ID)
				src.Done(ctx, t, agent.TaskResult{ExitStatus: "ok"})
			}
		},
	})
	fmt.Println("served:", err)
	// Output:
	// murmur: url is known
	// ran a task from a2a with id ""
	// served: <nil>
}
