package wasip2_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

func TestToolrunGo(t *testing.T) {
	inst, _ := instantiate(t, "toolrun-go", wasip2.Grants{}, component.Limits{})
	f, err := inst.Func("murmur:tool/run@0.2.0#run")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		v, err := f.Call(context.Background(), []any{wit.Some("hello, world"), wit.Some("logs/run.log")})
		if err != nil {
			t.Fatal(err)
		}
		rec := v.([]any)
		if got, want := rec[2], wit.Some("dlrow ,olleh"); !reflect.DeepEqual(got, want) {
			t.Fatalf("data = %#v, want %#v", got, want)
		}
	}
}
