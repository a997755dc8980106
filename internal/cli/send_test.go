package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/serve/a2a"
)

// chunkLoop answers each task by streaming its text word by word; "fail"
// fails and "ask" asks for input.
func chunkLoop(workdir string) func(context.Context, agent.TaskSource) error {
	return func(ctx context.Context, src agent.TaskSource) error {
		for {
			t, ok, err := src.Next(ctx)
			if err != nil || !ok {
				return err
			}
			data, _ := os.ReadFile(filepath.Join(workdir, "task.md"))
			text := string(data)
			t.Events.Status(agent.StatusEvent{State: "working", Message: "inference turn 1"})
			switch text {
			case "fail":
				t.Events.Status(agent.StatusEvent{State: "failed", Message: "session ended", Final: true})
				src.Done(ctx, t, agent.TaskResult{ExitStatus: "failed", Text: "error: told to fail"})
				continue
			case "ask":
				_, _ = t.IO.RequestInput(ctx, "which one?")
				src.Done(ctx, t, agent.TaskResult{ExitStatus: "failed", Text: "error: cancelled"})
				continue
			}
			for _, w := range strings.Fields(text) {
				t.IO.EmitChunk(ctx, w+" ", false)
			}
			t.Events.Text("")
			reply := strings.ToUpper(text)
			t.Events.Status(agent.StatusEvent{State: "completed", Message: "session ended", Response: &reply, Final: true})
			src.Done(ctx, t, agent.TaskResult{ExitStatus: "ok", Text: reply})
		}
	}
}

// serveA2A runs a queue+sleep capsule server with chunkLoop until the test ends.
func serveA2A(t *testing.T, token string) string {
	t.Helper()
	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- a2a.Serve(ctx, a2a.ServerOptions{
			SessionID: "ses_cli",
			Workdir:   dir,
			Lifecycle: manifest.Lifecycle{TaskAcceptance: "queue", AfterTask: "sleep", QueueDepth: 4},
			Card:      a2a.CardInfo{Name: "cli-test", Version: "0.1.0"},
			Token:     token,
			OnListen:  func(u string) { urls <- u },
			Run:       chunkLoop(dir),
		})
		close(urls)
	}()
	u, ok := <-urls
	if !ok {
		t.Fatalf("the server did not start: %v", <-done)
	}
	t.Cleanup(func() { stop(); <-done })
	return u
}

func TestSendStreamsTheAnswer(t *testing.T) {
	u := serveA2A(t, "")
	tests := []struct {
		name, text string
		code       int
		out        string
	}{
		{"streams the chunks", "hello there world", 0, "hello there world \n"},
		{"a failed task exits 1", "fail", 1, "ended failed: error: told to fail"},
		{"a question is printed with the answering command", "ask", 1, "the agent asks: which one?\nanswer with: mur send --task tsk_"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := mur(t, "send", u, tt.text)
			o.wantOutput(t, tt.code, tt.out)
		})
	}
}

// A peer that speaks only v0.3 and has no public card (as Murmur's own
// capsules) is reached through the fallback.
func TestSendFallsBackToV03(t *testing.T) {
	target, _ := url.Parse("http://" + serveA2A(t, ""))
	proxy := httputil.NewSingleHostReverseProxy(target)
	v03 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == a2a.CardPath {
			http.NotFound(w, r)
			return
		}
		r.Header.Del("A2A-Version")
		proxy.ServeHTTP(w, r)
	}))
	defer v03.Close()
	o := mur(t, "send", v03.URL, "over old protocol")
	o.want(t, 0, "over old protocol \n", "")
}

func TestSendCarriesTheToken(t *testing.T) {
	u := serveA2A(t, "tok-123")
	mur(t, "send", u, "no token").wantOutput(t, 1, "401")
	mur(t, "send", "--token", "tok-123", u, "with token").want(t, 0, "with token \n", "")
}
