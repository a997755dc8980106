package component_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
)

// coreModule assembles a core module exporting one function `name` of type
// () -> i32 with the given instructions (ending in end).
func coreModule(name string, code ...byte) []byte {
	body := append([]byte{0}, code...) // no locals
	exp := append(append([]byte{1, byte(len(name))}, name...), 0, 0)
	out := []byte("\x00asm\x01\x00\x00\x00")
	out = append(out, 1, 5, 1, 0x60, 0, 1, 0x7f) // type 0: () -> i32
	out = append(out, 3, 2, 1, 0)                // func 0: type 0
	out = append(out, 7, byte(len(exp)))
	out = append(out, exp...)
	out = append(out, 10, byte(len(body)+2), 1, byte(len(body)))
	return append(out, body...)
}

var (
	// i32.const 40
	moduleForty = coreModule("base", 0x41, 40, 0x0b)
	// loop br 0 end; i32.const 0
	moduleSpin = coreModule("base", 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x41, 0x00, 0x0b)
)

// A core module the root imports comes from the host at link time and is
// checked against the import's module type.
func TestHostSuppliedCoreModule(t *testing.T) {
	c := compileValid(t, "core-module-import-root")
	tests := []struct {
		name    string
		module  []byte // nil: none defined
		want    uint32
		wantErr string
	}{
		{name: "fits", module: moduleForty, want: 40},
		{name: "missing", wantErr: "the host does not provide it"},
		{name: "lacks the export", module: coreModule("other", 0x41, 1, 0x0b), wantErr: `the declared module type exports "base", which the module does not`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := component.NewLinker()
			if tt.module != nil {
				if err := l.DefineModule("lib", tt.module); err != nil {
					t.Fatal(err)
				}
			}
			inst, err := l.Instantiate(context.Background(), c, &component.Store{})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v; want an error containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := call(t, inst, "base"); err != nil || got != tt.want {
				t.Fatalf("got %v, %v; want %d", got, err, tt.want)
			}
		})
	}
}

// A module the host supplies runs under the same bounds as the guest's
// own: a loop in it is interrupted at the store's deadline.
func TestHostSuppliedCoreModuleIsInterruptible(t *testing.T) {
	c := compileValid(t, "core-module-import-root")
	l := component.NewLinker()
	if err := l.DefineModule("lib", moduleSpin); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(context.Background(), c, &component.Store{Limits: component.Limits{Deadline: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(t, inst, "base")
	var de *component.DeadlineError
	if !errors.As(err, &de) {
		t.Fatalf("got %v; want a *component.DeadlineError", err)
	}
}

func TestDefineModuleRefusesNonModules(t *testing.T) {
	l := component.NewLinker()
	if err := l.DefineModule("lib", []byte("\x00asm\x0d\x00\x01\x00")); err == nil || !strings.Contains(err.Error(), "not a core wasm module") {
		t.Fatalf("got %v; want it refused as not a core module", err)
	}
	if err := l.DefineModule("lib", moduleForty); err != nil {
		t.Fatal(err)
	}
	if err := l.DefineModule("lib", moduleForty); err == nil {
		t.Fatal("defined the same module name twice")
	}
}
