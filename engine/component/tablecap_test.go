package component_test

import (
	"errors"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// A hostile guest grows, from one core module, a table another module
// defines without table.grow: the cap must hold for the table wherever the
// growth comes from.
func TestTableCapOnATableGrownByAnotherModule(t *testing.T) {
	e := newEngine(t)
	c := compile(t, e, "engine-table-shared")
	for _, tc := range []struct {
		name   string
		cap    uint32
		grow   uint32
		want   int32
		refuse bool
	}{
		{name: "within the cap", cap: 5, grow: 3, want: 2},
		{name: "past the cap", cap: 5, grow: 4, want: -1},
		{name: "far past the cap", cap: 5, grow: 1 << 20, want: -1},
		{name: "no cap", grow: 100, want: 2},
		{name: "another cap", cap: 50, grow: 48, want: 2},
		{name: "starts above the cap", cap: 1, refuse: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inst, err := component.NewLinker().Instantiate(t.Context(), c, &component.Store{Limits: component.Limits{MaxTableElements: tc.cap}})
			var le *component.LimitError
			if tc.refuse {
				if !errors.As(err, &le) || le.Limit != component.LimitTableElements {
					t.Fatalf("want a table LimitError, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer inst.Close(t.Context())
			if got, err := call(t, inst, "table-grow", tc.grow); err != nil || got != tc.want {
				t.Fatalf("table-grow(%d) under cap %d = %v, %v; want %d", tc.grow, tc.cap, got, err, tc.want)
			}
		})
	}
}

// Every store of a component instantiates the core modules compiled at
// Compile, whatever its table cap and whether it starts from a snapshot:
// no second copy of the compiled code, and no module source kept once
// compiled. A component with table.grow compiles its cap in, and keeps
// one form while only capped stores use it.
func TestComponentHoldsOneCompiledForm(t *testing.T) {
	e := newEngine(t)
	for _, tc := range []struct {
		name      string
		guest     string
		caps      []uint32
		preinit   bool
		heldBytes bool
	}{
		{name: "Go guest, capped, preinit", guest: testguest.ToolrunGo, caps: []uint32{100000, 100000, 100000, 10000}, preinit: true},
		{name: "Go guest, uncapped and capped", guest: testguest.ToolrunGo, caps: []uint32{0, 100000}},
		{name: "table.grow, one cap", guest: "engine-limits", caps: []uint32{5, 5}, heldBytes: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := compile(t, e, tc.guest)
			want := component.CompiledModules(c)
			if held := component.HeldModuleBytes(c); (held > 0) != tc.heldBytes {
				t.Fatalf("holds %d bytes of module source after Compile", held)
			}
			l := wasiLinker(t)
			var pre *component.Preinit
			if tc.preinit {
				pre = &component.Preinit{Key: "k", Allow: func(string, string) bool { return true }}
			}
			for _, cap := range tc.caps {
				s := wasiStore(t)
				s.Limits.MaxTableElements, s.Preinit = cap, pre
				inst, err := l.Instantiate(t.Context(), c, s)
				if err != nil {
					t.Fatal(err)
				}
				inst.Close(t.Context())
			}
			if got := component.CompiledModules(c); got != want {
				t.Fatalf("holds %d compiled core modules after its stores, want %d (those of Compile)", got, want)
			}
		})
	}
}
