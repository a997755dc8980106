package component_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// validDir holds components, encoded from WAT by guests/build-invalid.sh,
// that use constructs real tooling emits rarely but the spec allows.
const validDir = "testdata/valid"

func compileValid(t *testing.T, name string) *component.Component {
	t.Helper()
	wasm, err := os.ReadFile(filepath.Join(validDir, name+".wasm"))
	if err != nil {
		t.Fatalf("%v (run guests/build-invalid.sh)", err)
	}
	c, err := newEngine(t).Compile(context.Background(), wasm)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// liftLoweredHost records what the re-exported imports of lift-lowered see.
type liftLoweredHost struct {
	counted []string
	allocs  [][4]uint32
	done    []uint32
}

func (h *liftLoweredHost) linker(t *testing.T) *component.Linker {
	t.Helper()
	l := component.NewLinker()
	u32 := func(name string) wit.Param { return wit.Param{Name: name, Type: wit.U32} }
	defs := []struct {
		name string
		typ  *wit.Func
		fn   any
	}{
		{"count", &wit.Func{Params: []wit.Param{{Name: "s", Type: wit.String}}, Result: wit.U32},
			func(_ context.Context, _ *component.Store, s string) (uint32, error) {
				h.counted = append(h.counted, s)
				return uint32(len(s)), nil
			}},
		{"alloc", &wit.Func{Params: []wit.Param{u32("old-ptr"), u32("old-size"), u32("align"), u32("new-size")}, Result: wit.U32},
			func(_ context.Context, _ *component.Store, p, size, align, n uint32) (uint32, error) {
				h.allocs = append(h.allocs, [4]uint32{p, size, align, n})
				return 4096, nil
			}},
		{"done", &wit.Func{Params: []wit.Param{u32("result")}},
			func(_ context.Context, _ *component.Store, r uint32) error {
				h.done = append(h.done, r)
				return nil
			}},
	}
	for _, d := range defs {
		if err := l.Define("", d.name, d.typ, d.fn); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// A core function made by canon lower is an ordinary core function: lifted
// again, or named as realloc or post-return, a call goes through the lift's
// options into the guest's memory and back out through the lower's.
func TestLiftOfLoweredFunction(t *testing.T) {
	c := compileValid(t, "lift-lowered")
	tests := []struct {
		export     string
		arg        string
		wantAllocs [][4]uint32
		wantDone   []uint32
	}{
		{export: "count", arg: "héllo"},
		{export: "count-host-alloc", arg: "abc", wantAllocs: [][4]uint32{{0, 0, 1, 3}}, wantDone: []uint32{3}},
	}
	for _, tt := range tests {
		t.Run(tt.export, func(t *testing.T) {
			h := &liftLoweredHost{}
			inst, err := h.linker(t).Instantiate(context.Background(), c, &component.Store{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := call(t, inst, tt.export, tt.arg)
			if err != nil {
				t.Fatal(err)
			}
			if got != uint32(len(tt.arg)) || len(h.counted) != 1 || h.counted[0] != tt.arg {
				t.Fatalf("got %v, host saw %q; want %d and %q", got, h.counted, len(tt.arg), tt.arg)
			}
			if !slices.Equal(h.allocs, tt.wantAllocs) || !slices.Equal(h.done, tt.wantDone) {
				t.Fatalf("realloc calls %v, post-return calls %v; want %v, %v", h.allocs, h.done, tt.wantAllocs, tt.wantDone)
			}
		})
	}
}

// A guest that lowers its own export and lifts it again must not get a
// second call into itself while the first runs: the canonical ABI forbids
// re-entering an instance, and the lowered function is no way around that.
func TestLiftOfLoweredCannotReenter(t *testing.T) {
	c := compileValid(t, "lift-lowered-reenter")
	inst, err := component.NewLinker().Instantiate(context.Background(), c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := call(t, inst, "double", uint32(21)); err != nil || got != uint32(42) {
		t.Fatalf("double: got %v, %v; want 42", got, err)
	}
	_, err = call(t, inst, "again", uint32(21))
	var te *component.TrapError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "re-enter") {
		t.Fatalf("again: got %v; want a trap for re-entering the instance", err)
	}
}

// A destructor that is a lowered import runs on the host; a constructor can
// be the lifted resource.new built-in.
func TestLoweredFunctionAsDestructor(t *testing.T) {
	c := compileValid(t, "lift-lowered-dtor")
	var dropped []uint32
	l := component.NewLinker()
	err := l.Define("", "dropped", &wit.Func{Params: []wit.Param{{Name: "rep", Type: wit.U32}}},
		func(_ context.Context, _ *component.Store, rep uint32) error {
			dropped = append(dropped, rep)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(context.Background(), c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, inst, "make", uint32(7))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := got.(wit.Resource)
	if !ok || r.Rep != 7 {
		t.Fatalf("make: got %#v; want a resource of rep 7", got)
	}
	if err := inst.DropResource(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dropped, []uint32{7}) {
		t.Fatalf("destructor calls %v; want [7]", dropped)
	}
}

// Core modules reach nested components as instantiation arguments and by
// outer alias, and are instantiated there like the component's own.
func TestCoreModulesInNestedComponents(t *testing.T) {
	for _, name := range []string{} {
		t.Run(name, func(t *testing.T) {
			inst, err := component.NewLinker().Instantiate(context.Background(), compileValid(t, name), &component.Store{})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := call(t, inst, "answer"); err != nil || got != uint32(42) {
				t.Fatalf("got %v, %v; want 42", got, err)
			}
		})
	}
}

// Every component under testdata/valid compiles, tested above or not.
func TestValidComponentsCompile(t *testing.T) {
	wats, _ := filepath.Glob(filepath.Join(validDir, "*.wat"))
	if len(wats) == 0 {
		t.Fatal("no components under " + validDir)
	}
	for _, w := range wats {
		name := strings.TrimSuffix(filepath.Base(w), ".wat")
		t.Run(name, func(t *testing.T) { compileValid(t, name) })
	}
}

// An instance imported under a label that implements an interface is
// linked to the host's definition under the label if there is one, else
// to its definition of the interface; with neither, linking fails.
func TestImplementsLinksToInterface(t *testing.T) {
	c := compileValid(t, "implements-link")
	get := &wit.Func{Result: wit.U32}
	tests := []struct {
		name      string
		instances map[string]uint32 // host instance -> what its get returns
		want      uint32
	}{
		{name: "interface", instances: map[string]uint32{"test:kv/store": 41}, want: 42},
		{name: "label first", instances: map[string]uint32{"test:kv/store": 41, "primary": 9}, want: 10},
		{name: "neither", instances: map[string]uint32{"test:kv/other": 41}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := component.NewLinker()
			for inst, v := range tt.instances {
				if err := l.DefineFunc(inst, "get", get, func(context.Context, *component.Store, []any) (any, error) { return v, nil }); err != nil {
					t.Fatal(err)
				}
			}
			inst, err := l.Instantiate(context.Background(), c, &component.Store{})
			if tt.want == 0 {
				var le *component.LinkError
				if !errors.As(err, &le) {
					t.Fatalf("got %v; want a *component.LinkError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Close(context.Background())
			if got, err := call(t, inst, "run"); err != nil || got != tt.want {
				t.Fatalf("got %v, %v; want %d", got, err, tt.want)
			}
		})
	}
}

// Exception handling is enabled for core modules; an exception no handler
// catches ends the call as a trap at the component boundary and poisons
// the store, as any trap does.
func TestUncaughtExceptionIsATrap(t *testing.T) {
	inst, err := component.NewLinker().Instantiate(context.Background(), compileValid(t, "tag-uncaught"), &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close(context.Background())
	_, err = call(t, inst, "throw")
	var te *component.TrapError
	if !errors.As(err, &te) {
		t.Fatalf("got %T %v; want a *component.TrapError", err, err)
	}
	if _, err := call(t, inst, "throw"); !errors.Is(err, component.ErrPoisoned) {
		t.Fatalf("second call: got %v; want ErrPoisoned", err)
	}
}
