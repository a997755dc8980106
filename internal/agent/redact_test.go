package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

const secretKey = "sk-agent-0123456789-KEY"

// wire is one task's outside as a client sees it: every frame in order,
// chunks and events alike.
type wire struct {
	frames []string
	done   []TaskResult
}

func (w *wire) EmitChunk(_ context.Context, text string, thinking bool) {
	kind := "chunk:"
	if thinking {
		kind = "thinking:"
	}
	w.frames = append(w.frames, kind+text)
}

func (w *wire) RequestInput(_ context.Context, prompt string) (string, error) {
	w.frames = append(w.frames, "input-required:"+prompt)
	return "an answer", nil
}

func (w *wire) Status(s StatusEvent) {
	r := ""
	if s.Response != nil {
		r = "=" + *s.Response
	}
	w.frames = append(w.frames, "status:"+s.State+":"+s.Message+r)
}
func (w *wire) Artifact(n, c string) { w.frames = append(w.frames, "artifact:"+n+":"+c) }
func (w *wire) Text(t string)        { w.frames = append(w.frames, "text:"+t) }

// text is the frames' texts put back together, as a watcher reading
// every frame sees them.
func (w *wire) text() string {
	var b strings.Builder
	for _, f := range w.frames {
		_, after, _ := strings.Cut(f, ":")
		b.WriteString(after)
	}
	return b.String()
}

// leakyDriver is a driver holding the key (a raw_api_key driver, or one a
// provider handed it split or escaped) that sends it out every way a
// guest can: chunks split at every offset, across kinds, across the
// call's end; a request-input prompt; a tool call's input and its final
// text. No driver wrapper stands in front of it here: the loop's own
// paths must hold.
type leakyDriver struct{ calls int }

func (d *leakyDriver) Invoke(ctx context.Context, _ tools.ToolInput) (tools.ToolResult, error) {
	d.calls++
	io := tools.TaskIOFrom(ctx)
	if d.calls == 1 {
		for i := 1; i < len(secretKey); i++ {
			io.EmitChunk(ctx, fmt.Sprintf(" %d:%s", i, secretKey[:i]), false)
			io.EmitChunk(ctx, secretKey[i:], false)
		}
		io.EmitChunk(ctx, " think "+secretKey[:4], true)
		io.EmitChunk(ctx, secretKey[4:9], false) // the kind changes inside the key
		io.EmitChunk(ctx, secretKey[9:]+" tail "+secretKey[:6], false)
		if _, err := io.RequestInput(ctx, "paste "+secretKey+" here"); err != nil {
			return tools.ToolResult{}, err
		}
		return passed(`{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"1","name":"t","input":{"q":"` + secretKey + `"}}]}`), nil
	}
	// The key's start went out with the last call's end.
	io.EmitChunk(ctx, secretKey[6:]+" next", false)
	return passed(`{"stop_reason":"end_turn","content":[{"type":"text","text":"done ` + secretKey + `"}]}`), nil
}

// TestTaskOutputIsRedacted: whatever way the driver and a tool send the
// session's key to the task's client, the frames, put together in order,
// never hold it; the stream's tail goes out before the next event;
// result.txt and trace.jsonl are clean too.
func TestTaskOutputIsRedacted(t *testing.T) {
	s := testStaged(t, func(c *manifest.Capsule) { c.IncludeToolOutput = true })
	s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New(secretKey))
	set := tools.NewToolSet()
	set.Add("t", toolFunc(func(_ context.Context, in tools.ToolInput) (tools.ToolResult, error) {
		return passed("tool echoes " + *in.Data + " and " + secretKey), nil
	}))
	w := &wire{}
	src := &oneTask{tasks: []Task{{ID: "tsk_1", Source: "a2a", Events: w, IO: w}}}
	if _, err := Run(context.Background(), Options{Staged: s, Driver: &leakyDriver{}, Tools: set,
		Allowlist: []string{"t"}, Tasks: src}); err != nil {
		t.Fatal(err)
	}
	got := w.text()
	if strings.Contains(got, secretKey) {
		t.Fatalf("the key reached the client:\n%s", strings.Join(w.frames, "\n"))
	}
	var chunks strings.Builder
	for i := 1; i < len(secretKey); i++ {
		fmt.Fprintf(&chunks, " %d:%s", i, redact.Marker)
	}
	if !strings.Contains(got, chunks.String()) {
		t.Errorf("the split chunks did not come out as the whole text redacted:\n%s", got)
	}
	// The kept tails went out before the event that followed them.
	want := []string{"thinking: think ", "thinking:" + secretKey[:4], "chunk:" + redact.Marker + " tail ", "chunk:" + secretKey[:6],
		"input-required:paste " + redact.Marker + " here"}
	if i := slices.Index(w.frames, want[0]); i < 0 || !slices.Equal(w.frames[i:i+len(want)], want) {
		t.Errorf("frames around the kind change and request-input:\n%s", strings.Join(w.frames, "\n"))
	}
	if i := slices.Index(w.frames, "chunk:"+secretKey[:6]); i < 0 || !slices.Contains(w.frames[i:], "chunk:"+redact.Marker+" next") {
		t.Errorf("the next call's chunk did not cut the rest of the key:\n%s", strings.Join(w.frames, "\n"))
	}
	for _, f := range []string{filepath.Join(s.OutDir, "result.txt"), filepath.Join(s.SessionDir, "trace.jsonl")} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secretKey) || !strings.Contains(string(b), redact.Marker) {
			t.Errorf("%s:\n%s", filepath.Base(f), b)
		}
	}
}

// TestTaskResultIsRedacted: the result and the error the task's source
// (the A2A server) and Run's caller get carry no secret, and the
// error keeps its type.
func TestTaskResultIsRedacted(t *testing.T) {
	s := testStaged(t, nil)
	s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New(secretKey))
	src := &resultTask{oneTask: oneTask{tasks: []Task{{ID: "tsk_1", Source: "a2a", Events: &wire{}}}}}
	d := toolFunc(func(context.Context, tools.ToolInput) (tools.ToolResult, error) {
		return tools.ToolResult{Status: tools.StatusError, Summary: tools.Str("provider refused " + secretKey)}, nil
	})
	_, err := Run(context.Background(), Options{Staged: s, Driver: d, Tasks: src})
	var e *diag.Error
	if !errors.As(err, &e) || strings.Contains(e.Msg, secretKey) || strings.Contains(err.Error(), secretKey) {
		t.Fatalf("Run's error: %v", err)
	}
	if len(src.results) != 1 || strings.Contains(src.results[0].Text, secretKey) || strings.Contains(src.results[0].Err.Error(), secretKey) {
		t.Errorf("the source was told %+v", src.results)
	}
}

type resultTask struct {
	oneTask
	results []TaskResult
}

func (r *resultTask) Done(_ context.Context, _ Task, res TaskResult) {
	r.results = append(r.results, res)
}
