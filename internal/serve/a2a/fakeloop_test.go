package a2a

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

// fakeLoop stands in for agent.Run: it takes tasks from the source,
// reads task.md as the loop does and reports progress the way session.md
// §3.2 and §11.1 order it. What a task does is in its text:
//
//	chunks:a,b,c   streams the chunks, waiting on gate (if set) before it completes
//	ask:PROMPT     asks for input and answers "got <reply>"
//	flood:N        streams N chunks of 1 KiB
//	block          waits in a "tool" until the task's context ends
//	fail           ends failed
//	anything else  answers "echo: <text>"
type fakeLoop struct {
	workdir string
	gate    chan struct{}
	// finished receives each task as the loop reports it done.
	finished chan agent.Task

	mu sync.Mutex
	// forget keeps no list of the tasks run, so a heap measurement weighs
	// the server alone.
	forget bool
	ran    []agent.Task
	res    []agent.TaskResult
}

func (f *fakeLoop) run(ctx context.Context, src agent.TaskSource) error {
	for {
		t, ok, err := src.Next(ctx)
		if err != nil || !ok {
			return err
		}
		tctx, cancel := agent.TaskContext(ctx, t)
		r := f.task(tctx, t)
		cancel()
		kept := t
		kept.Events, kept.IO = nil, nil // they hold the server's record, which TestFinishedTaskHeap weighs
		f.mu.Lock()
		if !f.forget {
			f.ran = append(f.ran, kept)
			f.res = append(f.res, r)
		}
		f.mu.Unlock()
		src.Done(ctx, t, r)
		f.finished <- t
	}
}

func (f *fakeLoop) tasks() []agent.Task {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]agent.Task(nil), f.ran...)
}

func (f *fakeLoop) task(ctx context.Context, t agent.Task) agent.TaskResult {
	ev := t.Events
	if ev == nil {
		ev = agent.NoEvents{}
	}
	data, _ := os.ReadFile(filepath.Join(f.workdir, stage.TaskFile))
	text := string(data)
	ev.Status(agent.StatusEvent{State: "working", Message: "inference turn 1"})
	reply := "echo: " + text
	streamed := false
	switch {
	case strings.HasPrefix(text, "chunks:"):
		for _, c := range strings.Split(strings.TrimPrefix(text, "chunks:"), ",") {
			if t.IO != nil {
				t.IO.EmitChunk(ctx, c, false)
			}
		}
		if t.IO != nil {
			t.IO.EmitChunk(ctx, "pondering", true)
		}
		streamed = true
		if f.gate != nil {
			select {
			case <-f.gate:
			case <-ctx.Done():
			}
		}
		reply = strings.ReplaceAll(strings.TrimPrefix(text, "chunks:"), ",", "")
	case strings.HasPrefix(text, "ask:"):
		answer, err := t.IO.RequestInput(ctx, strings.TrimPrefix(text, "ask:"))
		if err != nil {
			ev.Artifact("murmur-tool-request-input", "error: "+err.Error())
			ev.Status(agent.StatusEvent{State: "failed", Message: "session ended", Final: true})
			return agent.TaskResult{ExitStatus: "ok", Text: "error: " + err.Error()}
		}
		ev.Artifact("murmur-tool-request-input", answer)
		ev.Status(agent.StatusEvent{State: "working", Message: "inference turn 2"})
		reply = "got " + answer
	case strings.HasPrefix(text, "flood:"):
		n, _ := strconv.Atoi(strings.TrimPrefix(text, "flood:"))
		chunk := strings.Repeat("z", 1024)
		for range n {
			t.IO.EmitChunk(ctx, chunk, false)
		}
		reply = "flooded"
	case text == "block":
		<-ctx.Done()
		ev.Artifact("wait", "interrupted")
		ev.Status(agent.StatusEvent{State: "failed", Message: "driver invocation failed: " + ctx.Err().Error(), Final: true})
		return agent.TaskResult{ExitStatus: "failed", Text: "error: cancelled", Err: ctx.Err()}
	case text == "fail":
		ev.Status(agent.StatusEvent{State: "failed", Message: "session ended", Final: true})
		return agent.TaskResult{ExitStatus: "failed", Text: "error: asked to fail", Err: errors.New("asked to fail")}
	default:
		ev.Artifact("echo", text)
		ev.Status(agent.StatusEvent{State: "working", Message: "inference turn 2"})
	}
	if streamed {
		ev.Text("")
	} else {
		ev.Text(reply)
	}
	ev.Status(agent.StatusEvent{State: "completed", Message: "session ended", Response: &reply, Final: true})
	return agent.TaskResult{ExitStatus: "ok", Text: reply}
}

// served is one running Serve with the fake loop.
type served struct {
	url     string // http://localhost:PORT
	loop    *fakeLoop
	workdir string
	done    chan error
	stop    context.CancelFunc
}

type serveOpt func(*ServerOptions)

func lifecycle(acceptance, after string, depth uint64) serveOpt {
	return func(o *ServerOptions) {
		o.Lifecycle = manifest.Lifecycle{TaskAcceptance: acceptance, AfterTask: after, QueueDepth: depth, Conversation: "stateless"}
	}
}

func env(kv ...string) serveOpt {
	return func(o *ServerOptions) {
		o.Getenv = func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
}

// serve starts Serve with the fake loop in a temp session and stops it at
// the end of the test.
func serve(t *testing.T, opts ...serveOpt) *served {
	t.Helper()
	dir := t.TempDir()
	loop := &fakeLoop{workdir: dir, finished: make(chan agent.Task, 1024)}
	urls := make(chan string, 1)
	o := ServerOptions{
		SessionID: "ses_test",
		Workdir:   dir,
		Lifecycle: manifest.Lifecycle{TaskAcceptance: AcceptQueue, AfterTask: "sleep", QueueDepth: 64, Conversation: "stateless"},
		Card:      CardInfo{Name: "test-capsule", Version: "0.1.0", Tools: []string{"echo"}},
		OnListen:  func(u string) { urls <- u },
		Getenv:    func(string) string { return "" },
		Log:       slog.New(slog.NewTextHandler(t.Output(), nil)),
	}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Run == nil {
		o.Run = loop.run
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &served{loop: loop, workdir: dir, done: make(chan error, 1), stop: stop}
	go func() {
		err := Serve(ctx, o)
		s.done <- err
		close(urls)
	}()
	u, ok := <-urls
	if !ok {
		t.Fatalf("Serve ended before binding: %v", <-s.done)
	}
	s.url = "http://" + u
	t.Cleanup(func() {
		stop()
		<-s.done
	})
	return s
}

// wait returns Serve's result once the session ended by itself.
func (s *served) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		s.done <- err
		return err
	case <-time.After(60 * time.Second):
		t.Fatal("the session did not end within 60 s")
	}
	return nil
}
