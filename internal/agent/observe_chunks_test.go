package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

// streamingDriver streams the session's key split across chunks and asks
// for input, noting what the TaskIO it was given answered.
type streamingDriver struct {
	hadIO    bool
	inputErr error
}

func (d *streamingDriver) Invoke(ctx context.Context, _ tools.ToolInput) (tools.ToolResult, error) {
	io := tools.TaskIOFrom(ctx)
	if d.hadIO = io != nil; io != nil {
		io.EmitChunk(ctx, "the key is "+secretKey[:5], false)
		io.EmitChunk(ctx, secretKey[5:]+", done", false)
		_, d.inputErr = io.RequestInput(ctx, "anything?")
	}
	return passed(endText), nil
}

// A task with no client (task.md) has its model's streamed text seen by
// an observer, without the session's secrets, split or not, while the
// driver's request-input traps there as it does with no observer; with
// no observer the driver streams to no one, as before.
func TestObserverSeesTheTextOfATaskWithNoClient(t *testing.T) {
	for _, watched := range []bool{true, false} {
		s := testStaged(t, nil)
		s.Workdir = stage.NewWorkdir(s.AccessibleDir, s.SessionDir, redact.New(secretKey))
		var text strings.Builder
		var obs observe.Observer
		if watched {
			obs = observe.Func(func(e observe.Event) {
				if e.Kind == observe.ModelText {
					text.WriteString(e.Text)
				}
			})
		}
		d := &streamingDriver{}
		src := &oneTask{tasks: []Task{{ID: "tsk_1", Source: "task_md"}}}
		if _, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: tools.NewToolSet(), Tasks: src, Observer: obs}); err != nil {
			t.Fatal(err)
		}
		if d.hadIO != watched {
			t.Errorf("watched %v: the driver had a TaskIO: %v", watched, d.hadIO)
		}
		if watched && (!errors.Is(d.inputErr, host.ErrNoTaskContext) || text.String() != "the key is "+redact.Marker+", done") {
			t.Errorf("request-input: %v; the observer saw %q", d.inputErr, text.String())
		}
	}
}
