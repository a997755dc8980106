package component_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

const counters = "test:guest/counters@0.1.0#"

// blobHost defines test:host/blobs@0.1.0: blobs are sizes kept by the host;
// dropped records the reps whose destructor ran.
func blobHost(t *testing.T, dropped *[]uint32) *component.Linker {
	t.Helper()
	const inst = "test:host/blobs@0.1.0"
	blob := &wit.ResourceType{Name: "blob"}
	l := component.NewLinker()
	sizes := map[uint32]uint32{}
	next := uint32(100)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.DefineResource(inst, "blob", blob, func(ctx context.Context, s *component.Store, rep uint32) error {
		*dropped = append(*dropped, rep)
		delete(sizes, rep)
		return nil
	}))
	must(l.DefineFunc(inst, "make",
		&wit.Func{Params: []wit.Param{{Name: "n", Type: wit.U32}}, Result: &wit.Own{Resource: blob}},
		func(ctx context.Context, s *component.Store, args []any) (any, error) {
			next++
			sizes[next] = args[0].(uint32)
			return wit.Resource{Type: blob, Rep: next}, nil
		}))
	sizeType := &wit.Func{Params: []wit.Param{{Name: "b", Type: &wit.Borrow{Resource: blob}}}, Result: wit.U32}
	size := func(ctx context.Context, s *component.Store, args []any) (any, error) {
		r := args[0].(wit.Resource)
		if r.Type != blob {
			return nil, errors.New("not a blob")
		}
		return sizes[r.Rep], nil
	}
	must(l.DefineFunc(inst, "size", sizeType, size))
	// test:host/sizes uses blobs' blob without defining it.
	must(l.DefineFunc("test:host/sizes@0.1.0", "size", sizeType, size))
	return l
}

func TestResources(t *testing.T) {
	e := newEngine(t)
	ctx := context.Background()
	c, err := e.Compile(ctx, testguest.Bytes(t, "engine-resources"))
	if err != nil {
		t.Fatal(err)
	}
	var dropped []uint32
	inst, err := blobHost(t, &dropped).Instantiate(ctx, c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}

	// Host resource: created by the host, borrowed and dropped by the guest.
	got, err := call(t, inst, counters+"roundtrip", uint32(42))
	if err != nil || got != uint32(42) {
		t.Fatalf("roundtrip: %v, %v", got, err)
	}
	if len(dropped) != 1 || dropped[0] != 101 {
		t.Fatalf("host destructor calls: %v", dropped)
	}

	// Guest resource: owned by the host, borrowed back into the guest.
	v, err := call(t, inst, counters+"[constructor]counter", uint32(7))
	if err != nil {
		t.Fatal(err)
	}
	counter, ok := v.(wit.Resource)
	if !ok || counter.Type == nil || counter.Type.Name != "counter" {
		t.Fatalf("constructor returned %#v", v)
	}
	for want := uint32(8); want < 11; want++ {
		got, err := call(t, inst, counters+"[method]counter.bump", counter)
		if err != nil || got != want {
			t.Fatalf("bump: got %v, %v; want %d", got, err, want)
		}
	}
	if n, _ := call(t, inst, counters+"dropped"); n != uint32(0) {
		t.Fatalf("dropped before drop: %v", n)
	}
	if err := inst.DropResource(ctx, counter); err != nil {
		t.Fatal(err)
	}
	if n, _ := call(t, inst, counters+"dropped"); n != uint32(1) {
		t.Fatalf("dropped after drop: %v", n)
	}

	// A resource of the wrong type is refused before the guest runs.
	other := wit.Resource{Type: &wit.ResourceType{Name: "counter"}, Rep: counter.Rep}
	_, err = call(t, inst, counters+"[method]counter.bump", other)
	if err == nil || !strings.Contains(err.Error(), "passed where resource counter is expected") {
		t.Fatalf("wrong type: %v", err)
	}
	var trap *component.TrapError
	if errors.As(err, &trap) {
		t.Fatalf("a host mistake must not be reported as a guest trap: %v", err)
	}
}

// A resource an interface only uses (an eq-bound alias) is bound through
// the interface that defines it; the host defines it there alone.
func TestAliasedResourceBindsToItsDefiningInterface(t *testing.T) {
	var dropped []uint32
	l := blobHost(t, &dropped)
	inst, err := l.Instantiate(context.Background(), compile(t, newEngine(t), "engine-resource-alias"), &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, inst, "measure", uint32(9))
	if err != nil || got != uint32(9) {
		t.Fatalf("measure: %v, %v", got, err)
	}
	if len(dropped) != 1 {
		t.Fatalf("destructor calls: %v", dropped)
	}
}
