package hooks

import (
	"context"
	"testing"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/launch"
)

// BenchmarkDispatch3Blocking is the cost of one event (an on-tool-call
// shaped on-task-start answered none) to three blocking hooks; the
// target is under 100 µs per event. Each hook call runs under its
// deadline on its store's call worker (engine/component/callworker.go); a fresh
// goroutine per call, growing its stack through the engine each time,
// was most of the cost.
func BenchmarkDispatch3Blocking(b *testing.B) {
	s := staged(b, blocking("a", hookAnswer050), blocking("b", hookAnswer050), blocking("c", hookAnswer050))
	r, err := New(context.Background(), Options{Staged: s, Home: b.TempDir(), GuestIO: launch.GuestIO{Getenv: func(string) (string, bool) { return "", false }}})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close(context.Background())
	ctx := context.Background()
	e := agent.TaskStartEvent{TaskID: "tsk_0123456789", ContextID: "ctx_0123456789", Source: "a2a", InputBytes: 1234}
	b.ResetTimer()
	for b.Loop() {
		r.TaskStart(ctx, e)
	}
}
