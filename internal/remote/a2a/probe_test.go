package a2a_test

import (
	"context"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/remote/a2a"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// guests is shared by the tests: compiling the probe is the slow part.
var guests testguest.Guests

// probe instantiates the capsule-probe guest with c behind its
// murmur:message/send and returns a caller for its test:probe/api
// functions, so a real guest drives every send these tests check.
func probe(t testing.TB, c *a2a.Client) func(fn string, args ...any) any {
	t.Helper()
	ctx := context.Background()
	comp := guests.Compile(t, "capsule-probe")
	l := component.NewLinker()
	if err := host.RegisterCapsule(l, func(s *component.Store) *host.Capsule { return s.Data.(*host.Capsule) }); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(ctx, comp, &component.Store{Data: &host.Capsule{A2A: c}})
	if err != nil {
		t.Fatalf("instantiate capsule-probe: %v", err)
	}
	t.Cleanup(func() { inst.Close(ctx) })
	return func(fn string, args ...any) any {
		t.Helper()
		f, err := inst.Func("test:probe/api#" + fn)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.Call(ctx, args...)
		if err != nil {
			t.Fatalf("probe %s: %v", fn, err)
		}
		return v
	}
}
