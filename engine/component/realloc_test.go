package component_test

import (
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// A guest's realloc that hands back a block outside its memory, or one
// not aligned as asked, or that traps, while the host lowers arguments into it, is a trap
// (the canonical ABI checks every allocation) and poisons the instance:
// the guest ran and its state can no longer be trusted.
func TestLyingReallocTrapsAndPoisons(t *testing.T) {
	tests := []struct {
		export string
		arg    any
	}{
		{"take-string", "hello"},                   // out of bounds
		{"take-list", []any{uint32(1), uint32(2)}}, // misaligned
		{"take-list64", []any{uint64(1)}},          // realloc traps
	}
	e := newEngine(t)
	for _, tt := range tests {
		t.Run(tt.export, func(t *testing.T) {
			inst := instantiate(t, e, "engine-bad-realloc", nil)
			_, err := call(t, inst, tt.export, tt.arg)
			var trap *component.TrapError
			if !errors.As(err, &trap) {
				t.Fatalf("got %T %v; want a *component.TrapError", err, err)
			}
			if _, err := call(t, inst, "ok"); !errors.Is(err, component.ErrPoisoned) {
				t.Fatalf("call after the trap: got %v; want ErrPoisoned", err)
			}
		})
	}
}
