// Command echocapsule serves a capsule over A2A with a scripted stand-in
// for the agent loop, for the load benchmark (beside the real mur run) and
// the mur ps tests: it prints "url localhost:PORT" once bound and serves until
// stdin closes or it is signalled. A task's text says what it does:
// "chunks:a,b" streams the chunks, "ask:Q" asks for input, "block" runs
// until cancelled, anything else is echoed.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/a2a"
	"github.com/mur-go/mur/internal/stage"
)

func main() {
	depth := flag.Uint64("queue-depth", 64, "lifecycle.queue_depth")
	runningDir := flag.String("running-dir", "", "list the session in this registry of served sessions (mur ps)")
	flag.Parse()
	if err := run(*depth, *runningDir); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "echocapsule:", err)
		os.Exit(1)
	}
}

func run(depth uint64, runningDir string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { // the parent closing stdin ends the capsule
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	dir, err := os.MkdirTemp("", "echocapsule-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	id, err := stage.NewSessionID(time.Now(), nil)
	if err != nil {
		return err
	}
	return a2a.Serve(ctx, a2a.ServerOptions{
		SessionID:  id,
		Workdir:    dir,
		Lifecycle:  manifest.Lifecycle{TaskAcceptance: "queue", AfterTask: "sleep", QueueDepth: depth, Conversation: "stateless"},
		Card:       a2a.CardInfo{Name: "echocapsule", Version: "0.1.0", Tools: []string{"echo"}},
		Log:        slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		RunningDir: runningDir,
		OnListen:   func(url string) { fmt.Println("url", url) },
		Run:        func(ctx context.Context, src agent.TaskSource) error { return loop(ctx, src, dir) },
	})
}

func loop(ctx context.Context, src agent.TaskSource, dir string) error {
	for {
		t, ok, err := src.Next(ctx)
		if err != nil || !ok {
			return err
		}
		tctx, cancel := agent.TaskContext(ctx, t)
		r := task(tctx, t, dir)
		cancel()
		src.Done(ctx, t, r)
	}
}

func task(ctx context.Context, t agent.Task, dir string) agent.TaskResult {
	data, _ := os.ReadFile(filepath.Join(dir, stage.TaskFile))
	text := string(data)
	ev := t.Events
	ev.Status(agent.StatusEvent{State: "working", Message: "inference turn 1"})
	reply := "echo: " + text
	switch {
	case strings.HasPrefix(text, "chunks:"):
		for _, c := range strings.Split(strings.TrimPrefix(text, "chunks:"), ",") {
			t.IO.EmitChunk(ctx, c, false)
		}
		ev.Text("")
		reply = strings.ReplaceAll(strings.TrimPrefix(text, "chunks:"), ",", "")
	case strings.HasPrefix(text, "ask:"):
		answer, err := t.IO.RequestInput(ctx, strings.TrimPrefix(text, "ask:"))
		if err != nil {
			return agent.TaskResult{ExitStatus: "failed", Text: "error: " + err.Error(), Err: err}
		}
		reply = "got " + answer
		ev.Text(reply)
	case text == "block":
		<-ctx.Done()
		return agent.TaskResult{ExitStatus: "failed", Text: "error: cancelled", Err: ctx.Err()}
	default:
		ev.Artifact("echo", text)
		ev.Text(reply)
	}
	ev.Status(agent.StatusEvent{State: "completed", Message: "session ended", Response: &reply, Final: true})
	return agent.TaskResult{ExitStatus: "ok", Text: reply}
}
