package component_test

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// goroutineID is the running goroutine's number, from its stack header.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(b, []byte("goroutine ")), []byte(" "))
	return string(id)
}

// The watched calls of a store (those with a deadline) all run on one
// goroutine other than the caller's, which keeps the stack it grew, and
// closing the instance ends it.
func TestWatchedCallsShareOneWorker(t *testing.T) {
	var ran []string
	l := component.NewLinker()
	for name, fn := range map[string]func(context.Context, *component.Store) error{
		"wait":  func(context.Context, *component.Store) error { ran = append(ran, goroutineID()); return nil },
		"after": func(context.Context, *component.Store) error { return nil },
	} {
		if err := l.Define("test:host/block@0.1.0", name, &wit.Func{}, fn); err != nil {
			t.Fatal(err)
		}
	}
	s := &component.Store{Limits: component.Limits{Deadline: time.Minute}}
	inst, err := l.Instantiate(t.Context(), compile(t, newEngine(t), "engine-host-block"), s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := inst.Func("run")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := f.Call(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if len(ran) != 3 || ran[0] != ran[1] || ran[1] != ran[2] || ran[0] == goroutineID() {
		t.Errorf("calls ran on goroutines %v, the caller is %s: want one worker for all", ran, goroutineID())
	}
	jobs := component.WorkerJobs(s)
	if jobs == nil {
		t.Fatal("the store has no call worker")
	}
	if err := inst.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, open := <-jobs; open {
		t.Error("the call worker is still open after Close")
	}
}
