package component_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/canon"
	"github.com/mur-go/mur/engine/component"
)

// One TypedExport, compiled once, calls the export on fresh instances, one
// after another and concurrently, each in its own store.
func TestTypedExportCallsEveryInstance(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, "driver-switching")
	run, err := component.NewTypedExport[toolInput, toolOutput](c, toolRun)
	if err != nil {
		t.Fatal(err)
	}
	l := component.NewLinker()
	call := func(data, want string) error {
		inst, err := l.Instantiate(context.Background(), c, &component.Store{})
		if err != nil {
			return err
		}
		defer inst.Close(context.Background())
		got, err := run.Call(context.Background(), inst, toolInput{Data: &data})
		if err != nil {
			return err
		}
		if got.Data == nil || !strings.Contains(*got.Data, want) {
			return errors.New("got " + *got.Data)
		}
		return nil
	}
	for _, tt := range []struct{ data, want string }{
		{"plain", "before marker"},
		{"xx SWITCH-MARKER xx", "after marker"},
	} {
		if err := call(tt.data, tt.want); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = call("SWITCH-MARKER", "after marker") })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestTypedExportChecksTypesOnce(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, "driver-canned")
	type badOutput struct{ Status int }
	_, err := component.NewTypedExport[toolInput, badOutput](c, toolRun)
	var ce *canon.CodecError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "typed "+toolRun+": canon: result") {
		t.Errorf("bad output: %v", err)
	}
	_, err = component.NewTypedExport[toolInput, toolOutput](c, "murmur:tool/run@0.2.0#walk")
	var le *component.LinkError
	if !errors.As(err, &le) {
		t.Errorf("missing export: %v", err)
	}
	// An instance of another component lacking the export is refused.
	run, err := component.NewTypedExport[toolInput, toolOutput](c, toolRun)
	if err != nil {
		t.Fatal(err)
	}
	other := instantiate(t, e, "hook-lifecycle", nil)
	if _, err := run.Call(context.Background(), other, toolInput{}); !errors.As(err, &le) {
		t.Errorf("instance without the export: %v", err)
	}
}
