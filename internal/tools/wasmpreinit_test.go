package tools_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// preinitTool is a tool of guest under grants g, started from snapshots
// unless normalInit.
// wasitestGo is the WASI test guest (guests/README.md).
const wasitestGo = "wasitest-go"

func (e *testEnv) preinitTool(t *testing.T, guest string, g wasip2.Grants, normalInit bool) *tools.WasmTool {
	t.Helper()
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: guest, Component: e.Compile(t, guest), Linker: e.linker,
		Grants: g, Limits: stage.DefaultToolLimits(), NormalInit: normalInit})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

func invoke(t *testing.T, tool *tools.WasmTool, data string) tools.ToolResult {
	t.Helper()
	r, err := tool.Invoke(context.Background(), tools.ToolInput{Data: &data})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A tool started from a snapshot answers exactly as one that initialises
// on every call, call after call, for the Go and the JS guest.
func TestWasmToolPreinitAnswersAsInit(t *testing.T) {
	e := env(t)
	for _, guest := range []string{testguest.ToolrunGo, testguest.ToolrunJS} {
		t.Run(guest, func(t *testing.T) {
			pre := e.preinitTool(t, guest, wasip2.Grants{}, false)
			normal := e.preinitTool(t, guest, wasip2.Grants{}, true)
			for _, in := range []string{"hello, world", "", "héllo wörld, a little longer than thirty-two code points", "x"} {
				want, got := invoke(t, normal, in), invoke(t, pre, in)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("input %q: from a snapshot %+v, initialising %+v", in, got, want)
				}
			}
		})
	}
}

// A hostile guest reads its environment at start-up (Go's runtime copies
// it then) and reports it later: tools of one component under different
// environments each see their own, however their calls interleave, and
// each call's output goes to its own tool's stdout even where the
// configurations, and so the snapshots, are the same.
func TestWasmToolPreinitEnvPerConfiguration(t *testing.T) {
	e := env(t)
	var outA, outB, outA2 bytes.Buffer
	grants := func(v string, out *bytes.Buffer) wasip2.Grants {
		return wasip2.Grants{Env: [][2]string{{"SECRET", v}}, Args: []string{"tool"}, Stdout: wasip2.Output{W: out}}
	}
	a := e.preinitTool(t, wasitestGo, grants("a", &outA), false)
	b := e.preinitTool(t, wasitestGo, grants("b", &outB), false)
	a2 := e.preinitTool(t, wasitestGo, grants("a", &outA2), false)
	for range 3 {
		for _, tool := range []*tools.WasmTool{a, b, a2} {
			invoke(t, tool, "env")
		}
	}
	for _, tc := range []struct {
		name string
		out  *bytes.Buffer
		own  string
	}{{"a", &outA, "a"}, {"b", &outB, "b"}, {"a2", &outA2, "a"}} {
		want := strings.Repeat("args=tool\nenv=SECRET="+tc.own+"\ncwd= err=<nil>\n", 3)
		if got := tc.out.String(); got != want {
			t.Errorf("tool %s printed\n%s\nwant\n%s", tc.name, got, want)
		}
	}
}

// Go's start-up asks for the preopens, whose descriptors the snapshot's
// memory then refers to: each restored store gets descriptors of its own
// tool's directory, whichever tool's call came first.
func TestWasmToolPreinitPreopens(t *testing.T) {
	e := env(t)
	type dirTool struct {
		dir  string
		out  bytes.Buffer
		tool *tools.WasmTool
	}
	var dts [2]*dirTool
	for i := range dts {
		d := &dirTool{dir: t.TempDir()}
		if err := os.WriteFile(filepath.Join(d.dir, "in.txt"), []byte(strings.Repeat("x", i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
		d.tool = e.preinitTool(t, wasitestGo, wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: d.dir, Guest: "/w"}}, Stdout: wasip2.Output{W: &d.out}}, false)
		dts[i] = d
	}
	for round := range 3 {
		for i, d := range dts {
			d.out.Reset()
			dst := fmt.Sprintf("/w/out%d.txt", round)
			invoke(t, d.tool, "copy /w/in.txt "+dst)
			if want := fmt.Sprintf("copied=%d err=<nil>\n", i+1); d.out.String() != want {
				t.Fatalf("round %d, tool %d printed %q, want %q", round, i, d.out.String(), want)
			}
			b, err := os.ReadFile(filepath.Join(d.dir, filepath.Base(dst)))
			if err != nil || len(b) != i+1 {
				t.Fatalf("round %d, tool %d: its copy is %q, %v", round, i, b, err)
			}
		}
	}
}
