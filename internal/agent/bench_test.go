package agent

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// benchGuests compiles the test guests once for this package's tests and
// benchmarks.
var benchGuests testguest.Guests

// timed is a tool whose call time is summed, so the loop's own time can
// be told apart from the components'.
type timed struct {
	tool tools.Tool
	ns   atomic.Int64
}

func (t *timed) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	start := time.Now()
	defer func() { t.ns.Add(int64(time.Since(start))) }()
	return t.tool.Invoke(ctx, in)
}

// BenchmarkSessionTurn runs whole sessions with the scripted driver
// component and one toolrun-go call per turn, and reports the loop's
// overhead per turn (everything but the driver and tool calls: request
// building, token counts, parsing, trace lines, result files) beside the
// bare driver call time measured in the same run. B/op over turns shows
// how memory grows with the session. "init" runs the components'
// initialisation on every call instead of starting from its snapshot.
func BenchmarkSessionTurn(b *testing.B) {
	linker, err := host.NewToolLinker()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		turns      int
		normalInit bool
	}{{10, false}, {100, false}, {10, true}} {
		turns := tc.turns
		name := fmt.Sprintf("turns=%d", turns)
		if tc.normalInit {
			name += "/init"
		}
		b.Run(name, func(b *testing.B) {
			script := make([]string, 0, turns)
			for i := range turns - 1 {
				script = append(script, fmt.Sprintf(`{"tool_calls":[{"id":"c%d","name":"echo","input":{"text":"hello %d"}}]}`, i, i))
			}
			script = append(script, `{"text":"done"}`)
			config := `{"turns":[` + strings.Join(script, ",") + `]}`
			limits := component.Limits{MaxMemoryBytes: 256 << 20, Deadline: time.Minute}
			drv, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "scripted", Component: benchGuests.Compile(b, testguest.ScriptedGo), Linker: linker,
				Grants: wasip2.Grants{Env: [][2]string{{"MURMUR_INFERENCE_DRIVER_CONFIG", config}}}, Limits: limits, NormalInit: tc.normalInit})
			if err != nil {
				b.Fatal(err)
			}
			echo, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "echo", Component: benchGuests.Compile(b, testguest.ToolrunGo), Linker: linker, Limits: limits, NormalInit: tc.normalInit})
			if err != nil {
				b.Fatal(err)
			}
			// A first call of each takes its snapshot, outside the timing.
			warm := "{}"
			for _, tool := range []*tools.WasmTool{drv, echo} {
				if _, err := tool.Invoke(context.Background(), tools.ToolInput{Data: &warm}); err != nil {
					b.Fatal(err)
				}
			}
			d, e := &timed{tool: drv}, &timed{tool: echo}
			set := tools.NewToolSet()
			set.Add("echo", e)
			var total time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				s := testStaged(b, func(c *manifest.Capsule) {
					c.Inference.MaxTurns = uint32(turns)
					c.Artifacts = []manifest.ArtifactRef{{Name: "echo", Runtime: manifest.RuntimeTool}}
				})
				b.StartTimer()
				start := time.Now()
				if _, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"echo"}}); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			n := float64(b.N * turns)
			b.ReportMetric(float64(total-time.Duration(d.ns.Load())-time.Duration(e.ns.Load()))/n/1e6, "loop-ms/turn")
			b.ReportMetric(float64(d.ns.Load())/n/1e6, "driver-ms/call")
		})
	}
}

// BenchmarkLoopOnly is the loop's own work per turn with Go doubles for
// the driver and the tool, which cost next to nothing: what the loop adds
// to every turn whatever the components cost.
func BenchmarkLoopOnly(b *testing.B) {
	for _, turns := range []int{10, 100} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			answers := make([]tools.ToolResult, 0, turns)
			for i := range turns - 1 {
				answers = append(answers, passed(fmt.Sprintf(`{"stop_reason":"tool_call","content":[{"type":"tool_call","id":"c%d","name":"t","input":{"text":"hello %d"}}]}`, i, i)))
			}
			answers = append(answers, passed(endText))
			set := tools.NewToolSet()
			set.Add("t", answering("olleh"))
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				s := testStaged(b, func(c *manifest.Capsule) { c.Inference.MaxTurns = uint32(turns) })
				d := &replay{answers: answers}
				b.StartTimer()
				if _, err := Run(context.Background(), Options{Staged: s, Driver: d, Tools: set, Allowlist: []string{"t"}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N*turns)/1e6, "loop-ms/turn")
		})
	}
}

// replay answers call i with answers[i], keeping nothing.
type replay struct {
	answers []tools.ToolResult
	n       int
}

func (r *replay) Invoke(context.Context, tools.ToolInput) (tools.ToolResult, error) {
	r.n++
	return r.answers[min(r.n, len(r.answers))-1], nil
}

// BenchmarkServedTasks is the loop's serial work per task in a served
// queue capsule, one session of b.N one-turn tasks: task.md written by a
// source as A2A's is, then read back, the a2a_task_received, task_start,
// session_start, inference, session_end and task_end records,
// out/result.txt, the bootstrap.log line, with a Go driver double that
// costs next to nothing. Everything a served task costs between the
// registry handing it over and its reply, bar the engine and HTTP.
func BenchmarkServedTasks(b *testing.B) {
	s := testStaged(b, nil)
	files, err := stage.OpenTaskFiles(s.AccessibleDir)
	if err != nil {
		b.Fatal(err)
	}
	defer files.Close()
	src := &servedSource{files: files, n: b.N}
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	b.ResetTimer()
	if _, err := Run(context.Background(), Options{Staged: s, Driver: answering(endText), Tasks: src}); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N)/1e3, "cpu-µs/task")
}

// cpuTime is the process's user and system CPU time so far: the loop's
// own, as nothing else runs, GC included.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// servedSource hands out n A2A-like tasks, writing each one's task.md.
type servedSource struct {
	files *stage.TaskFiles
	n, i  int
}

func (s *servedSource) Next(context.Context) (Task, bool, error) {
	if s.i >= s.n {
		return Task{}, false, nil
	}
	s.i++
	text := fmt.Sprintf("task %d", s.i)
	if err := s.files.Write(text); err != nil {
		return Task{}, false, err
	}
	return Task{ID: fmt.Sprintf("tsk_%d", s.i), ContextID: "ctx_1", Source: "a2a", InputBytes: uint64(len(text)), MessageID: "m"}, true, nil
}

func (s *servedSource) Done(context.Context, Task, TaskResult) {}
