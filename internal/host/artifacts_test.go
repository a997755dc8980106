package host

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/tools"
)

type fakePuller struct {
	inv   *tools.StagedInventory
	calls int
}

func (p *fakePuller) Pull(_ context.Context, name, version string) (tools.InstalledArtifact, error) {
	p.calls++
	if version == "9.9.9" {
		return tools.InstalledArtifact{}, errors.New("failed to resolve " + name + "@" + version + ": not found")
	}
	a := tools.InstalledArtifact{Name: name, Version: version, Role: "tool", Native: true}
	p.inv.Add(a)
	return a, nil
}

func TestArtifactManager(t *testing.T) {
	e := env(t)
	echo := []byte(`name: echo
version: 1.2.0
runtime: tool
description: Reverses text
tags: [text, 7, demo]
input_schema: '{"type": "object", "properties": {"data": {"type": "string"}}}'
output_schema:
  type: object
  required: [data]
`)
	bash := []byte("name: bash\nversion: 0.0.0\nruntime: tool\nimplementation: native\n")
	inv := tools.NewStagedInventory([]string{"bash", "echo"}, map[string][]byte{"bash": bash}, []tools.InstalledArtifact{
		{Name: "echo", Version: "1.2.0", Role: "tool", Manifest: echo},
		{Name: "fmt", Version: "0.3.0", Role: "tool", Native: true},
		{Name: "guide", Version: "0.1.0", Role: "skill"},
		{Name: "drv", Version: "1.0.0", Role: "driver"},
		{Name: "broken", Version: "1.0.0", Role: "hook", Manifest: []byte("description: [unclosed\n")},
	})
	puller := &fakePuller{inv: inv}
	call := e.probe(t, &Capsule{SessionID: "ses_1", Inventory: inv, Puller: puller})
	sum := func(name, version string, rt RuntimeType) []any { return []any{name, version, uint32(rt)} }

	wantList := []any{sum("echo", "1.2.0", RuntimeWasm), sum("fmt", "0.3.0", RuntimeNative),
		sum("guide", "0.1.0", RuntimeWasm), sum("bash", "0.0.0", RuntimeNative)}
	if got := call("list"); !reflect.DeepEqual(got, wantList) {
		t.Fatalf("list = %#v\nwant %#v", got, wantList)
	}

	got := call("describe", "echo")
	want := wit.Ok([]any{"echo", "1.2.0", "Reverses text", []any{"text", "demo"}, uint32(RuntimeWasm),
		wit.Some(`{"properties":{"data":{"type":"string"}},"type":"object"}`),
		wit.Some(`{"required":["data"],"type":"object"}`)})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("describe echo = %#v\nwant %#v", got, want)
	}
	got = call("describe", "bash")
	want = wit.Ok([]any{"bash", "0.0.0", "", []any{}, uint32(RuntimeNative), wit.None(), wit.None()})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("describe bash = %#v\nwant %#v", got, want)
	}
	if got := call("describe", "nope"); !reflect.DeepEqual(got, wit.Err("artifact 'nope' is not installed")) {
		t.Fatalf("describe nope = %#v", got)
	}
	path := filepath.Join("tools", "fmt", "murmur.yaml")
	if got := call("describe", "fmt").(wit.ResultValue); !got.Err || got.Value.(string)[:len("failed to read "+path)] != "failed to read "+path {
		t.Fatalf("describe fmt (no manifest) = %#v", got)
	}
	path = filepath.Join("tools", "broken", "murmur.yaml")
	if got := call("describe", "broken").(wit.ResultValue); !got.Err || got.Value.(string)[:len("failed to parse "+path)] != "failed to parse "+path {
		t.Fatalf("describe broken = %#v", got)
	}

	if got := call("search", "text"); !reflect.DeepEqual(got, wit.Err("not implemented (query: text)")) {
		t.Fatalf("search = %#v", got)
	}
	if got := call("remove", "echo"); !reflect.DeepEqual(got, wit.Err("not implemented (name: echo)")) {
		t.Fatalf("remove = %#v", got)
	}
	wantDiag := wit.Ok([]any{"ses_1", wantList, "artifact-manager/search and remove are not implemented"})
	if got := call("diagnostics"); !reflect.DeepEqual(got, wantDiag) {
		t.Fatalf("diagnostics = %#v", got)
	}

	if got := call("pull", "fetcher", "9.9.9"); !reflect.DeepEqual(got, wit.Err("failed to resolve fetcher@9.9.9: not found")) {
		t.Fatalf("failed pull = %#v", got)
	}
	if got := call("pull", "fetcher", "1.0.0"); !reflect.DeepEqual(got, wit.Ok(sum("fetcher", "1.0.0", RuntimeNative))) {
		t.Fatalf("pull = %#v", got)
	}
	if got := call("list").([]any); !reflect.DeepEqual(got[len(got)-2], sum("fetcher", "1.0.0", RuntimeNative)) {
		t.Fatalf("pulled artifact not listed before shell binaries: %#v", got)
	}
}

func TestPullWithoutRegistry(t *testing.T) {
	_, err := (&Capsule{}).Pull(context.Background(), "x", "1.0.0")
	if err == nil || err.Error() != "failed to resolve x@1.0.0: runtime pulls are not available in this session (no registry configured)" {
		t.Fatalf("err = %v", err)
	}
}
