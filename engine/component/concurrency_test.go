package component_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// A host call may re-enter the engine for another component while the
// calling guest is suspended in it, as a hook's run-inference runs a driver.
func TestHostCallReentersEngineForAnotherComponent(t *testing.T) {
	e := newEngine(t)
	driver := instantiate(t, e, "driver-canned", nil)
	run, err := driver.Func(toolRun)
	if err != nil {
		t.Fatal(err)
	}
	l := component.NewLinker()
	err = l.Define("test:host/greet@0.2.12", "greet", greetType, func(ctx context.Context, s *component.Store, name string) (string, error) {
		v, err := run.Call(ctx, []any{wit.Some(name), wit.None()})
		if err != nil {
			return "", err
		}
		return name + " -> " + v.([]any)[2].(wit.OptionValue).Value.(string)[:15], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Define("", "log", &wit.Func{Params: []wit.Param{{Name: "msg", Type: wit.String}}},
		func(ctx context.Context, s *component.Store, msg string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(context.Background(), compile(t, e, "engine-imports"), &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, inst, "run", "hook")
	if err != nil || got != `hook -> {"stop_reason":` {
		t.Fatalf("got %q, %v", got, err)
	}
}

// Many stores of one component run on many goroutines at once.
func TestManyStoresConcurrently(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, "engine-imports")
	l := component.NewLinker()
	if err := l.Define("test:host/greet@0.2.12", "greet", greetType, func(ctx context.Context, s *component.Store, name string) (string, error) {
		return fmt.Sprintf("%v:%s", s.Data, name), nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := l.Define("", "log", &wit.Func{Params: []wit.Param{{Name: "msg", Type: wit.String}}},
		func(ctx context.Context, s *component.Store, msg string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inst, err := l.Instantiate(context.Background(), c, &component.Store{Data: g})
			if err != nil {
				errs <- err
				return
			}
			defer inst.Close(context.Background())
			f, err := inst.Func("run")
			if err != nil {
				errs <- err
				return
			}
			for i := range 200 {
				want := fmt.Sprintf("%d:n%d", g, i)
				got, err := f.Call(context.Background(), fmt.Sprintf("n%d", i))
				if err != nil || got != want {
					errs <- fmt.Errorf("goroutine %d call %d: got %v, %v; want %s", g, i, got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
