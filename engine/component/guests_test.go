package component_test

import (
	"testing"

	"github.com/mur-go/mur/engine/wit"
)

// The computing guests answer identically (guests/README.md).
func TestJSGuestRun(t *testing.T) {
	inst := instantiate(t, newEngine(t), "toolrun-js", nil)
	got, err := call(t, inst, toolRun, []any{wit.Some("hello, world"), wit.Some("logs/run.log")})
	if err != nil {
		t.Fatal(err)
	}
	want := []any{uint32(0), wit.Some("echo: hello, world"), wit.Some("dlrow ,olleh"), wit.Some("logs/run.log"), false,
		[]any{[]any{"len", "12"}}, []any{}}
	if !equalValues(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}
