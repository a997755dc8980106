// Package loop benchmarks the agent loop (agent.Run) itself: what a turn
// costs beyond the model, and what a long session holds in memory. The
// model is the scripted driver (guests/go/scripted) and every turn but the
// last calls one WASM tool (toolrun-go), both real components in a fresh
// store per call, as mur run drives them. Driver and tool are wrapped to
// time their calls, so the loop's own share is measured in the same run:
//
//	go test -run '^$' -bench . -benchtime 5x ./bench/loop/
//
// BenchmarkLoopTurn reports, per turn (one driver call):
//
//	ns/turn          the whole turn
//	driver-ns/turn   the driver call (the model's share)
//	tool-ns/turn     the WASM tool call
//	loop-ns/turn     ns/turn − driver − tool: encoding the request, parsing
//	                 the answer, dispatch, the conversation, result.txt
//	nomodel-ns/turn  ns/turn − driver: what a turn costs besides the model
//
// BenchmarkSessionMemory runs 100 turns and reports the live heap and the
// request size (the conversation as sent) at turns 10 and 100, and
// heap-B/msg-B, how much heap each byte of conversation added between
// them, and kept-B, the heap a finished session left behind (after minus
// before agent.Run): the loop holds the conversation, in its decoded form,
// and nothing else that grows per turn.
package loop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/tokens"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

var guests testguest.Guests

func TestMain(m *testing.M) { os.Exit(testguest.Main(m)) }

// timed is a tool whose calls are timed; before, if set, runs ahead of each
// call, untimed.
type timed struct {
	tool   tools.Tool
	spent  time.Duration
	calls  int
	before func(call int, in tools.ToolInput)
}

func (t *timed) Invoke(ctx context.Context, in tools.ToolInput) (tools.ToolResult, error) {
	t.calls++
	if t.before != nil {
		t.before(t.calls, in)
	}
	start := time.Now()
	r, err := t.tool.Invoke(ctx, in)
	t.spent += time.Since(start)
	return r, err
}

// session is a scripted agent session of toolTurns tool-calling turns and
// a final one.
type session struct {
	driver, echo *timed
	toolTurns    int
	// tokens is shared by every run, as one run shares its counter.
	tokens *tokens.Counter
}

func newSession(b *testing.B, toolTurns int) *session {
	b.Helper()
	turns := make([]any, 0, toolTurns+1)
	for i := range toolTurns {
		turns = append(turns, map[string]any{"tool_calls": []any{map[string]any{
			"id": fmt.Sprintf("c%d", i), "name": "echo", "input": map[string]any{"text": fmt.Sprintf("turn %d", i)}}}})
	}
	turns = append(turns, map[string]any{"text": "done"})
	script, err := json.Marshal(map[string]any{"turns": turns})
	if err != nil {
		b.Fatal(err)
	}
	linker, err := host.NewToolLinker()
	if err != nil {
		b.Fatal(err)
	}
	limits := component.Limits{Deadline: time.Minute, MaxMemoryBytes: 256 << 20}
	wasm := func(name, guest string, env [][2]string) *timed {
		t, err := tools.NewWasmTool(tools.WasmToolConfig{Name: name, Component: guests.Compile(b, guest), Linker: linker,
			Grants: wasip2.Grants{Env: env, Args: []string{name}}, Limits: limits})
		if err != nil {
			b.Fatal(err)
		}
		return &timed{tool: t}
	}
	return &session{
		driver:    wasm("scripted", testguest.ScriptedGo, [][2]string{{"MURMUR_INFERENCE_DRIVER_CONFIG", string(script)}}),
		echo:      wasm("echo", testguest.ToolrunGo, nil),
		toolTurns: toolTurns,
		tokens:    tokens.New(),
	}
}

// run runs the session once in a fresh workdir and returns how long
// agent.Run took.
func (s *session) run(b *testing.B) time.Duration {
	b.Helper()
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "task.md"), []byte("echo every turn"), 0o644); err != nil {
		b.Fatal(err)
	}
	st := stage.LoopView{Workdir: stage.NewWorkdir(dir, dir, nil),
		Capsule: &manifest.Capsule{Name: "bench", Version: "0.1.0",
			Inference: &manifest.Inference{Model: "scripted", MaxTurns: uint32(s.toolTurns + 1)}},
		Artifacts: []*stage.Artifact{{Name: "echo", Role: stage.RoleTool, Kind: stage.KindWasm}}}
	set := tools.NewToolSet()
	set.Add("echo", s.echo)
	calls := s.driver.calls
	start := time.Now()
	res, err := agent.Run(context.Background(), agent.Options{Staged: st, Driver: s.driver, Tools: set,
		Allowlist: []string{"echo"}, Tokens: s.tokens})
	took := time.Since(start)
	if err == nil {
		err = res.Last.Err
	}
	if turns := s.driver.calls - calls; err != nil || res.Last.Text != "done" || turns != s.toolTurns+1 {
		b.Fatalf("agent.Run: %v after %d turns (text %q), want done after %d", err, turns, res.Last.Text, s.toolTurns+1)
	}
	return took
}

func BenchmarkLoopTurn(b *testing.B) {
	s := newSession(b, 20)
	s.run(b) // instantiates both guests once, so no first-call cost is timed
	*s.driver, *s.echo = timed{tool: s.driver.tool}, timed{tool: s.echo.tool}
	var total time.Duration
	for b.Loop() {
		total += s.run(b)
	}
	turns := float64(s.driver.calls)
	perTurn := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / turns }
	b.ReportMetric(perTurn(total), "ns/turn")
	b.ReportMetric(perTurn(s.driver.spent), "driver-ns/turn")
	b.ReportMetric(perTurn(s.echo.spent), "tool-ns/turn")
	b.ReportMetric(perTurn(total-s.driver.spent-s.echo.spent), "loop-ns/turn")
	b.ReportMetric(perTurn(total-s.driver.spent), "nomodel-ns/turn")
}

func BenchmarkSessionMemory(b *testing.B) {
	const turns = 100
	s := newSession(b, turns-1)
	// Sampled just before the driver call of turns 10 and 100, after a
	// collection: the conversation is live (the request holds it), no guest
	// instance is.
	var heap, req [2]float64
	s.driver.before = func(call int, in tools.ToolInput) {
		k := -1
		switch call {
		case 10:
			k = 0
		case turns:
			k = 1
		}
		if k >= 0 {
			heap[k], req[k] = liveHeap(), float64(len(*in.Data))
		}
	}
	var before, after float64
	for b.Loop() {
		s.driver.calls = 0
		before = liveHeap()
		s.run(b)
		after = liveHeap()
	}
	b.ReportMetric(heap[0], "heap-B@10")
	b.ReportMetric(heap[1], "heap-B@100")
	b.ReportMetric(req[0], "msg-B@10")
	b.ReportMetric(req[1], "msg-B@100")
	b.ReportMetric((heap[1]-heap[0])/(req[1]-req[0]), "heap-B/msg-B")
	b.ReportMetric(after-before, "kept-B")
}

// liveHeap is the heap in use after two full collections: what a guest
// store frees through finalizers is only reclaimed by the second.
func liveHeap() float64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}
