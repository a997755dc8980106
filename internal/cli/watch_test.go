package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/remote/a2a"
)

func TestWatchFollowsAServedCapsule(t *testing.T) {
	u := serveA2A(t, "")
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, []string{"watch", u}, pw, &stderr)
		pw.Close()
	}()
	mur(t, "send", u, "alpha beta").want(t, 0, "alpha beta", "")
	var lines []string
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if sc.Text() == "  ALPHA BETA" {
			break
		}
	}
	cancel()
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	<-done
	want := []string{"[working]  inference turn 1", "alpha beta ", "[completed]", "  ALPHA BETA"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("mur watch printed:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestWatchRendering(t *testing.T) {
	ev := func(event string, data any) a2a.WatchEvent {
		b, _ := json.Marshal(data)
		return a2a.WatchEvent{Event: event, Data: b}
	}
	status := func(ctx, state, msg string, final bool, resp *string) a2a.WatchEvent {
		return ev("status", map[string]any{"id": "tsk_1", "context_id": ctx,
			"status": map[string]any{"state": state, "message": msg, "response": resp}, "final": final})
	}
	long := strings.Repeat("word ", 20)
	tests := []struct {
		name         string
		events       []a2a.WatchEvent
		stdout, errs string
	}{
		{"artifact lines", []a2a.WatchEvent{ev("artifact", map[string]any{"id": "tsk_1", "artifact": map[string]any{"tool_name": "ls", "content": "a\nb"}})},
			"[artifact] tool: ls | a\n  b\n", ""},
		{"empty artifact", []a2a.WatchEvent{ev("artifact", map[string]any{"id": "tsk_1", "artifact": map[string]any{"tool_name": "ls", "content": ""}})},
			"[artifact] tool: ls\n", ""},
		{"completed response wraps at 78", []a2a.WatchEvent{status("", "completed", "session ended", true, &long)},
			"[completed]\n  " + strings.TrimSpace(strings.Repeat("word ", 15)) + "\n  " + strings.TrimSpace(strings.Repeat("word ", 5)) + "\n\n", ""},
		{"threaded prefix counts turns per context", []a2a.WatchEvent{
			ev("connection-ack", map[string]any{"role": "observer", "conversation_mode": "threaded"}),
			status("ctx_0123456789abcdef", "working", "inference turn 1", false, nil),
			status("ctx_0123456789abcdef", "failed", "session ended", true, nil),
			status("ctx_0123456789abcdef", "working", "inference turn 1", false, nil)},
			"[ctx_01234567... / turn 1 / working]  inference turn 1\n[ctx_01234567... / turn 1 / failed]\n[ctx_01234567... / turn 2 / working]  inference turn 1\n", ""},
		{"thinking is not shown, gap and close go to stderr", []a2a.WatchEvent{
			ev("thinking", map[string]any{"text": "hmm"}), ev("gap", map[string]any{"first_available_id": 7}), ev("capsule-closed", map[string]any{})},
			"", "[murmur] warning: events were dropped before id 7; the stream resumes there\n[murmur] capsule closed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			r := &watchRenderer{out: &out, errw: &errw, mode: "stateless", turns: map[string]int{}, contexts: map[string]string{}}
			for _, e := range tt.events {
				r.render(e)
			}
			if out.String() != tt.stdout || errw.String() != tt.errs {
				t.Errorf("stdout %q stderr %q\nwant   %q        %q", out.String(), errw.String(), tt.stdout, tt.errs)
			}
		})
	}
}
