package wasip2_test

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// guests is shared by the tests: compiling the guests is the slow part.
var guests testguest.Guests

func compileGuest(t testing.TB, name string) *component.Component {
	t.Helper()
	return guests.Compile(t, name)
}

// newLinker returns a linker with WASI registered; the store's Data is the
// *wasip2.Ctx.
func newLinker(t testing.TB) *component.Linker {
	t.Helper()
	l := component.NewLinker()
	if err := wasip2.Register(l, func(s *component.Store) *wasip2.Ctx {
		c, _ := s.Data.(*wasip2.Ctx)
		return c
	}); err != nil {
		t.Fatal(err)
	}
	return l
}

// instantiate runs guest name under grants g.
func instantiate(t testing.TB, name string, g wasip2.Grants, limits component.Limits) (*component.Instance, *wasip2.Ctx) {
	t.Helper()
	c := compileGuest(t, name)
	wctx, err := wasip2.NewCtx(g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wctx.Close() })
	inst, err := newLinker(t).Instantiate(context.Background(), c, &component.Store{Limits: limits, Data: wctx})
	if err != nil {
		t.Fatalf("instantiate %s: %v", name, err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return inst, wctx
}
