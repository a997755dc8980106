package coremod

import (
	"reflect"
	"testing"
)

func TestAddStateExports(t *testing.T) {
	memSec := []byte{5, 1, 0x00, 1}
	// Globals: 0 immutable i32, 1 mutable i64, 2 mutable i32.
	globalSec := []byte{6, 3, 0x7f, 0, 0x41, 0, 0x0b, 0x7e, 1, 0x42, 0, 0x0b, 0x7f, 1, 0x41, 7, 0x0b}
	refGlobalSec := []byte{6, 1, 0x70, 1, 0xd0, 0x70, 0x0b}
	exportSec := cat([]byte{7, 1}, name("run"), []byte{0x00, 0})
	startSec := []byte{8, 0}
	code := func(body ...byte) []byte {
		fn := append([]byte{0}, body...) // no locals
		return cat([]byte{10, 1}, uleb(uint64(len(fn))), fn)
	}
	funcSec := []byte{3, 1, 0}
	for _, tc := range []struct {
		name    string
		in      []byte
		want    State
		exports []Export
	}{
		{"memory, globals, start", module(typeSec, funcSec, memSec, globalSec, exportSec, startSec, code(0x0b)),
			State{Memory: true, Globals: []string{"mur:global:1", "mur:global:2"}, Start: true},
			[]Export{{"run", KindFunc}, {StateMemory, KindMemory}, {"mur:global:1", KindGlobal}, {"mur:global:2", KindGlobal}}},
		{"no export section yet", module(typeSec, funcSec, memSec, code(0x0b)),
			State{Memory: true}, []Export{{StateMemory, KindMemory}}},
		{"imported globals shift the indices", module(typeSec, cat([]byte{2, 1}, name("m"), name("g"), []byte{0x03, 0x7f, 0}), globalSec),
			State{Globals: []string{"mur:global:2", "mur:global:3"}},
			[]Export{{"mur:global:2", KindGlobal}, {"mur:global:3", KindGlobal}}},
		{"mutable reference global", module(refGlobalSec), State{Unsafe: "mutable global 0 has type 0x70"}, nil},
		{"table.set", module(typeSec, funcSec, code(0x41, 0, 0xd0, 0x70, 0x26, 0, 0x0b)), State{Unsafe: "code has table.set"}, nil},
		{"table.grow", module(typeSec, funcSec, code(0xd0, 0x70, 0x41, 1, 0xfc, 15, 0, 0x1a, 0x0b)),
			State{Unsafe: "code has instruction 0xfc 15 (tables or dropped segments)"}, nil},
		{"data.drop", module(typeSec, funcSec, code(0xfc, 9, 0, 0x0b)),
			State{Unsafe: "code has instruction 0xfc 9 (tables or dropped segments)"}, nil},
		{"memory.fill is fine", module(typeSec, funcSec, memSec, code(0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 11, 0, 0x0b)),
			State{Memory: true}, []Export{{StateMemory, KindMemory}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, st, err := AddStateExports(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(st, tc.want) {
				t.Fatalf("state %+v, want %+v", st, tc.want)
			}
			exps, err := Exports(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(exps, tc.exports) {
				t.Fatalf("exports %+v, want %+v", exps, tc.exports)
			}
		})
	}
}

func TestExportStart(t *testing.T) {
	funcSec, codeSec := []byte{3, 1, 0}, []byte{10, 1, 2, 0, 0x0b}
	exportRun := cat([]byte{7, 1}, name("run"), []byte{0x00, 0})
	for _, tc := range []struct {
		name    string
		in      []byte
		want    []byte
		exports []Export
	}{
		{"joins the export section", module(typeSec, funcSec, exportRun, []byte{8, 0}, codeSec),
			module(typeSec, funcSec, cat([]byte{7, 2}, name("run"), []byte{0x00, 0}, name(StartExport), []byte{0x00, 0}), codeSec),
			[]Export{{"run", KindFunc}, {StartExport, KindFunc}}},
		{"creates the export section", module(typeSec, funcSec, []byte{8, 0}, codeSec),
			module(typeSec, funcSec, cat([]byte{7, 1}, name(StartExport), []byte{0x00, 0}), codeSec),
			[]Export{{StartExport, KindFunc}}},
		{"no start section", module(typeSec, funcSec, exportRun, codeSec),
			module(typeSec, funcSec, exportRun, codeSec), []Export{{"run", KindFunc}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := ExportStart(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(tc.want) {
				t.Fatalf("got % x\nwant % x", out, tc.want)
			}
			exps, err := Exports(out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(exps, tc.exports) {
				t.Fatalf("exports %+v, want %+v", exps, tc.exports)
			}
		})
	}
}
