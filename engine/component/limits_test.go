package component_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

func TestMemoryLimit(t *testing.T) {
	e := newEngine(t)
	const page = 64 << 10
	s := &component.Store{Limits: component.Limits{MaxMemoryBytes: 4 * page}}
	inst := instantiate(t, e, "engine-limits", s)

	// Growth within the cap works; growth past it is refused like any
	// failed memory.grow, and the guest carries on.
	if got, err := call(t, inst, "grow", uint32(2)); err != nil || got != int32(1) {
		t.Fatalf("grow within cap: %v, %v", got, err)
	}
	if got, err := call(t, inst, "grow", uint32(2)); err != nil || got != int32(-1) {
		t.Fatalf("grow past cap: want -1, got %v, %v", got, err)
	}
	// A guest that traps on refusal gets the limit error, not a plain trap.
	_, err := call(t, inst, "grow-or-trap", uint32(8))
	var le *component.LimitError
	if !errors.As(err, &le) || le.Limit != component.LimitMemory {
		t.Fatalf("want memory LimitError, got %v", err)
	}
	want := "linear memory growth to 720896 bytes exceeds the memory limit (262144 bytes)"
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("wording: %v", err)
	}
	var trap *component.TrapError
	if errors.As(err, &trap) {
		t.Fatal("limit error must be distinct from a trap")
	}
}

func TestInstanceLimit(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, "engine-nested") // 3 component instances, 4 core instances
	var logged []string
	_, err := greeter(t, "test:host/greet@0.2.0", &logged).Instantiate(t.Context(), c, &component.Store{Limits: component.Limits{MaxInstances: 5}})
	var le *component.LimitError
	if !errors.As(err, &le) || le.Limit != component.LimitInstances || le.Desired != 7 {
		t.Fatalf("want instances LimitError for 7, got %v", err)
	}
	if _, err := greeter(t, "test:host/greet@0.2.0", &logged).Instantiate(t.Context(), c, &component.Store{Limits: component.Limits{MaxInstances: 7}}); err != nil {
		t.Fatal(err)
	}
}

func TestTableLimit(t *testing.T) {
	e := newEngine(t)
	inst := instantiate(t, e, "engine-limits", &component.Store{Limits: component.Limits{MaxTableElements: 5}})
	if got, err := call(t, inst, "table-grow", uint32(3)); err != nil || got != int32(2) {
		t.Fatalf("grow to the cap: %v, %v", got, err)
	}
	if got, err := call(t, inst, "table-grow", uint32(1)); err != nil || got != int32(-1) {
		t.Fatalf("grow past the cap: want -1, got %v, %v", got, err)
	}
	// Without a cap the same growth works.
	inst = instantiate(t, e, "engine-limits", nil)
	if got, err := call(t, inst, "table-grow", uint32(100)); err != nil || got != int32(2) {
		t.Fatalf("uncapped: %v, %v", got, err)
	}
	// A table that starts above the cap never instantiates.
	_, err := component.NewLinker().Instantiate(t.Context(), compile(t, e, "engine-limits"), &component.Store{Limits: component.Limits{MaxTableElements: 1}})
	var le *component.LimitError
	if !errors.As(err, &le) || le.Limit != component.LimitTableElements || !strings.Contains(err.Error(), "table growth to 2 elements exceeds the table element limit (1)") {
		t.Fatalf("want table LimitError, got %v", err)
	}
}

func TestInitialMemoryAboveLimit(t *testing.T) {
	e := newEngine(t)
	_, err := component.NewLinker().Instantiate(t.Context(), compile(t, e, "engine-limits"), &component.Store{Limits: component.Limits{MaxMemoryBytes: 1000}})
	var le *component.LimitError
	if !errors.As(err, &le) || le.Limit != component.LimitMemory || le.Desired != 64<<10 {
		t.Fatalf("want memory LimitError for 65536 bytes, got %v", err)
	}
}
