package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// The hand-written WAT driver doubles, real components called the way
// launch calls a driver: each outcome of a driver call and what the loop
// makes of it.
func TestWATDriverDoubles(t *testing.T) {
	linker, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		guest, task string
		kind        Kind
		result      string
		trace       []string
	}{
		{testguest.DriverCanned, "do it", 0, "compacted summary",
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{testguest.DriverMetadata, "do it", 0, "continued reply",
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{testguest.DriverSwitching, "do it", 0, "before marker",
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{testguest.DriverSwitching, "now " + testguest.DriverSwitchingMarker, 0, "after marker",
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{testguest.DriverError, "do it", KindDriver, "error: " + testguest.DriverErrorData,
			[]string{"task_start", "session_start", "session_end:failed", "task_end:ok"}},
		{testguest.DriverTrap, "do it", KindDriver, "error: driver invocation failed:",
			[]string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
		{testguest.DriverNoData, "do it", KindResponse, "error: driver returned no data",
			[]string{"task_start", "session_start", "task_end:failed", "session_end:failed"}},
	}
	for _, c := range cases {
		t.Run(c.guest+" "+c.task, func(t *testing.T) {
			s := testStaged(t, nil)
			if err := os.WriteFile(filepath.Join(s.AccessibleDir, "task.md"), []byte(c.task), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "d", Component: benchGuests.Compile(t, c.guest), Linker: linker,
				Limits: component.Limits{MaxMemoryBytes: 64 << 20, Deadline: time.Minute}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), Options{Staged: s, Driver: d, Tools: tools.NewToolSet(),
				Tasks: &oneTask{tasks: []Task{{ID: "tsk_1", ContextID: "ctx_1"}}}})
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if got := readFile(t, filepath.Join(s.OutDir, "result.txt")); !strings.HasPrefix(got, c.result) {
				t.Errorf("out/result.txt = %q, want %q", got, c.result)
			}
			if got := types(readTrace(t, s)); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
		})
	}
}
