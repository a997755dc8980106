package component_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
)

// Values of map and fixed-length list types pass through the real
// component path: exports lifted by the host, an import lowered into the
// guest, and hostile results that must trap.
func TestMapAndFixedListValues(t *testing.T) {
	ctx := context.Background()
	mapType := &wit.Map{Key: wit.String, Value: wit.U32}
	hostType := &wit.Func{
		Params: []wit.Param{{Name: "m", Type: mapType}, {Name: "a", Type: &wit.FixedList{Elem: wit.U32, Len: 2}}},
		Result: mapType,
	}
	var hostGot []any
	l := component.NewLinker()
	err := l.DefineFunc("", "host", hostType, func(_ context.Context, _ *component.Store, args []any) (any, error) {
		hostGot = args
		m, a := args[0].([]wit.MapEntry), args[1].([]any)
		return append(append([]wit.MapEntry{}, m...), wit.MapEntry{Key: "sum", Value: a[0].(uint32) + a[1].(uint32)}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c := compile(t, newEngine(t), "engine-maplist")
	inst, err := l.Instantiate(ctx, c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}

	got, err := call(t, inst, "rev4", []any{uint32(1), uint32(2), uint32(3), uint32(4)})
	if want := []any{uint32(4), uint32(3), uint32(2), uint32(1)}; err != nil || !equalValues(got, want) {
		t.Errorf("rev4: %#v, %v, want %#v", got, err, want)
	}

	bytes := make([]any, 100)
	sum := uint32(0)
	for i := range bytes {
		bytes[i] = uint8(i * 7)
		sum += uint32(uint8(i * 7))
	}
	if got, err := call(t, inst, "sum100", bytes); err != nil || got != sum {
		t.Errorf("sum100: %v, %v, want %d", got, err, sum)
	}
	if _, err := call(t, inst, "sum100", bytes[:99]); err == nil {
		t.Error("sum100 with 99 elements: want an error")
	}

	m := []wit.MapEntry{{Key: "b", Value: uint32(2)}, {Key: "a", Value: uint32(1)}, {Key: "b", Value: uint32(3)}}
	if got, err := call(t, inst, "echo-map", m); err != nil || !reflect.DeepEqual(got, m) {
		t.Errorf("echo-map: %#v, %v, want %#v", got, err, m)
	}
	if got, err := call(t, inst, "echo-map", []wit.MapEntry{}); err != nil || !reflect.DeepEqual(got, []wit.MapEntry{}) {
		t.Errorf("echo-map of an empty map: %#v, %v", got, err)
	}

	want := append(append([]wit.MapEntry{}, m...), wit.MapEntry{Key: "sum", Value: uint32(15)})
	if got, err := call(t, inst, "via-host", m, []any{uint32(7), uint32(8)}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("via-host: %#v, %v, want %#v", got, err, want)
	}
	if !reflect.DeepEqual(hostGot, []any{m, []any{uint32(7), uint32(8)}}) {
		t.Errorf("the host got %#v", hostGot)
	}

	for _, export := range []string{"bad-map", "bad-fixed"} {
		if _, err := call(t, inst, export); !isTrap(err) {
			t.Errorf("%s: got %v, want a trap", export, err)
		}
	}
}

// The typed forms: a host function defined with Go types ([N]T for a
// fixed-length list, a slice of key/value structs for a map) and typed
// calls of the exports.
func TestMapAndFixedListTyped(t *testing.T) {
	ctx := context.Background()
	type pair struct {
		K string
		V uint32
	}
	mapType := &wit.Map{Key: wit.String, Value: wit.U32}
	hostType := &wit.Func{
		Params: []wit.Param{{Name: "m", Type: mapType}, {Name: "a", Type: &wit.FixedList{Elem: wit.U32, Len: 2}}},
		Result: mapType,
	}
	l := component.NewLinker()
	err := l.Define("", "host", hostType, func(_ context.Context, _ *component.Store, m []pair, a [2]uint32) ([]pair, error) {
		return append(m, pair{"product", a[0] * a[1]}), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(ctx, compile(t, newEngine(t), "engine-maplist"), &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	fn := func(name string) *component.Func {
		f, err := inst.Func(name)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}

	rev4, err := component.TypedFunc[[4]uint32, [4]uint32](fn("rev4"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := rev4.Call(ctx, [4]uint32{1, 2, 3, 4}); err != nil || got != [4]uint32{4, 3, 2, 1} {
		t.Errorf("rev4: %v, %v", got, err)
	}
	if _, err := component.TypedFunc[[3]uint32, [4]uint32](fn("rev4")); err == nil {
		t.Error("rev4 typed with [3]uint32: want an error")
	}

	type args struct {
		M []pair
		A [2]uint32
	}
	viaHost, err := component.TypedFunc[args, []pair](fn("via-host"))
	if err != nil {
		t.Fatal(err)
	}
	m := []pair{{"x", 1}, {"x", 2}}
	got, err := viaHost.Call(ctx, args{m, [2]uint32{6, 7}})
	if want := []pair{{"x", 1}, {"x", 2}, {"product", 42}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("via-host: %v, %v, want %v", got, err, want)
	}

	badMap, err := component.TypedFunc[struct{}, []pair](fn("bad-map"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := badMap.Call(ctx, struct{}{}); !isTrap(err) {
		t.Errorf("bad-map: got %v, want a trap", err)
	}
}
