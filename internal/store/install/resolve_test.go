package install_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// TestResolveOrder: the first source that has the package wins; one that
// lacks it is skipped; a failing one is reported when a later source has
// the package or every source failed, and the package is missing when one
// lacks it and none has it.
func TestResolveOrder(t *testing.T) {
	tests := []struct {
		name   string
		stores string // per store: h = has it, m = missing, b = broken
		winner int    // index of the source that serves it, or -1
		step   install.Step
		is     error
		source int // the source the error names
	}{
		{name: "first wins", stores: "hh", winner: 0},
		{name: "missing falls through", stores: "mh", winner: 1},
		{name: "broken is not shadowed", stores: "bh", winner: -1, step: install.StepResolve, is: registry.ErrInvalidInput, source: 0},
		{name: "missing everywhere", stores: "mm", winner: -1, step: install.StepResolve, is: install.ErrNotFound, source: 0},
		{name: "broken then missing is missing", stores: "bm", winner: -1, step: install.StepResolve, is: install.ErrNotFound, source: 1},
		{name: "only broken", stores: "b", winner: -1, step: install.StepResolve, is: registry.ErrInvalidInput, source: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f install.Fetcher
			for i, kind := range tc.stores {
				s := registry.NewLocal(filepath.Join(t.TempDir(), "store"), nil)
				switch kind {
				case 'h':
					publish(t, s, "tool", artifact.Wasm, toolZip(t))
				case 'b':
					publish(t, s, "tool", artifact.Wasm, toolZip(t))
					if err := os.WriteFile(filepath.Join(s.Root(), "tool", "1.0.0", "tool-1.0.0.sha256"), nil, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				f.Sources = append(f.Sources, install.Source{Name: string(rune('A' + i)), Resolver: s})
			}
			r, err := f.Resolve(context.Background(), install.Request{Name: "tool", Version: "1.0.0"})
			if tc.winner >= 0 {
				if err != nil || r.Source.Name != f.Sources[tc.winner].Name {
					t.Fatalf("resolved %+v, %v; want source %d", r, err, tc.winner)
				}
				return
			}
			if !errors.Is(err, tc.step) || !errors.Is(err, tc.is) || r == nil || r.Source.Name != f.Sources[tc.source].Name || r.Package != nil {
				t.Fatalf("err = %v (%+v), want %s %v from source %d", err, r, tc.step, tc.is, tc.source)
			}
		})
	}
}
